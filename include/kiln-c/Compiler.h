/*===- kiln-c/Compiler.h - Kiln's compiler, from C ----------------*- C -*-===*
 *
 * Embeds the compiler (libKilnCompiler.so) in a program written in C or
 * anything that calls C. The flow:
 *
 *   char *error = NULL;
 *   if (kiln_compiler_initialize(argc, argv, &error)) { ... }
 *   kiln_session *session = kiln_session_create();
 *   const char *flags[] = {"--kiln-plugin=example", "--example-note=hi"};
 *   if (kiln_session_set_flags(session, 2, flags) ||
 *       kiln_session_compile_file(session, "model.mlir", "model.so"))
 *     fprintf(stderr, "%s\n", kiln_session_error(session));
 *   kiln_session_destroy(session);
 *
 * Flags are kiln-compile's (--kiln-target-cpu=, --kiln-plugin=, a plugin's
 * --<id>-<name>=, ...) and mean what they mean on its command line, but each
 * session has its own: sessions with different flags and plugins may exist
 * at once, and compile at once on different threads (one thread at a time
 * per session). MLIR's own flags (--mlir-timing, --mlir-print-ir-*, ...)
 * act on the whole process: give them to kiln_compiler_initialize.
 * Functions returning int return 0 on success.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_C_COMPILER_H
#define KILN_C_COMPILER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header's API; kiln_compiler_api_version() gives the
 * library's. */
#define KILN_COMPILER_API_VERSION 2

/* The version of the API the library implements. */
int kiln_compiler_api_version(void);

/* Kiln's version, and the id of this build of it (version, source revision
 * and configure time), as `--version` prints them. Static strings. */
const char *kiln_compiler_version(void);
const char *kiln_compiler_build_id(void);

/* Once per process, before any session: registers Kiln and its linked-in
 * plugins, loads the shared-object plugins that `--kiln-load-plugin=`
 * entries of argv[0..argc) and the KILN_PLUGIN_PATH environment variable
 * name, and takes MLIR's process-wide flags (--mlir-*) among argv; other
 * flags are ignored here. On failure, *error (if error is not NULL)
 * receives a message to free with kiln_free. Calling it again does nothing
 * and succeeds. */
int kiln_compiler_initialize(int argc, const char *const *argv, char **error);

typedef struct kiln_session kiln_session;

/* A session with every flag at its default. NULL when the compiler is not
 * initialized. */
kiln_session *kiln_session_create(void);
void kiln_session_destroy(kiln_session *session);

/* Sets the session's flags as kiln-compile's command line would (argv
 * without a program name), replacing those set before. Fails on an unknown
 * flag, a bad value or one of MLIR's flags (see kiln_session_error); the
 * session then keeps the flags it had. */
int kiln_session_set_flags(kiln_session *session, int argc,
                           const char *const *argv);

/* Asks for plugin `spec` in every compile of the session, as
 * `--kiln-plugin=SPEC` does ("id", or "-id" to keep a default-on plugin
 * off). Checked when a compile activates plugins. */
void kiln_session_request_plugin(kiln_session *session, const char *spec);

/* The plugins as `kiln-compile --kiln-list-plugins` prints them, for the
 * session's flags and requests; free with kiln_free. NULL on error. */
char *kiln_session_list_plugins(kiln_session *session);

/* Compiles the MLIR program in `input_path` into the module `output_path`
 * (a shared object kiln-run and the runtime load). The output is written
 * only on success. */
int kiln_session_compile_file(kiln_session *session, const char *input_path,
                              const char *output_path);

/* The same, stopping after phase `phase` ("input", "global-optimization",
 * ..., as kiln-compile --compile-to names them; NULL: all of them), which
 * writes MLIR text unless the last phase ran. */
int kiln_session_compile_file_to(kiln_session *session, const char *input_path,
                                 const char *output_path, const char *phase);

/* Compiles the program in memory at data[0..size) (MLIR text or bytecode,
 * or a model a plugin imports, such as ONNX), named `name` in messages
 * (NULL: "<buffer>"), up to phase `phase` (NULL: all of them). On success,
 * *output receives the result (a module, or MLIR text when a phase before
 * serialization was asked for), to free with kiln_free, and *output_size
 * its size in bytes. No file is read or written but the linker's scratch
 * files. */
int kiln_session_compile_buffer(kiln_session *session, const void *data,
                                size_t size, const char *name,
                                const char *phase, void **output,
                                size_t *output_size);

/* What the last failing call of the session said: the error and the
 * diagnostics before it. Valid until the next call; never NULL. */
const char *kiln_session_error(const kiln_session *session);

/* Frees what the functions above allocated. */
void kiln_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif /* KILN_C_COMPILER_H */

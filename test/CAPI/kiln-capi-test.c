/* Drives Kiln's compiler through its C API, for test/CAPI/c-api.test.
 *
 *   kiln-capi-test version
 *   kiln-capi-test list [ARG...]
 *   kiln-capi-test compile INPUT OUTPUT [ARG...]
 *
 * Each ARG is a flag for kiln_session_set_flags (and, for
 * --kiln-load-plugin, kiln_compiler_initialize), `request:SPEC` for
 * kiln_session_request_plugin, or `phase:NAME` to stop after that phase. Prints
 * what the API returns; exits 1 on the first failure. */

#include "kiln-c/Compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "version")) {
    printf("version %s build %s\napi %d\n", kiln_compiler_version(),
           kiln_compiler_build_id(), kiln_compiler_api_version());
    return kiln_compiler_api_version() == KILN_COMPILER_API_VERSION ? 0 : 1;
  }
  if (argc < 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "compile")) ||
      (!strcmp(argv[1], "compile") && argc < 4)) {
    fprintf(stderr, "usage: kiln-capi-test list|compile IN OUT [ARG...]\n");
    return 2;
  }
  int compile = !strcmp(argv[1], "compile");
  int first = compile ? 4 : 2;

  const char *flags[64];
  const char *requests[64];
  int flagCount = 0, requestCount = 0;
  const char *phase = NULL;
  for (int i = first; i < argc && flagCount < 64 && requestCount < 64; ++i) {
    if (!strncmp(argv[i], "request:", 8))
      requests[requestCount++] = argv[i] + 8;
    else if (!strncmp(argv[i], "phase:", 6))
      phase = argv[i] + 6;
    else
      flags[flagCount++] = argv[i];
  }

  if (kiln_session_create() != NULL) {
    fprintf(stderr, "error: a session before initialization\n");
    return 1;
  }
  char *error = NULL;
  if (kiln_compiler_initialize(flagCount, flags, &error)) {
    printf("initialize failed: %s\n", error);
    kiln_free(error);
    return 1;
  }
  kiln_session *session = kiln_session_create();
  if (!session) {
    fprintf(stderr, "error: no session\n");
    return 1;
  }
  /* A second session at the same time has flags of its own. */
  kiln_session *other = kiln_session_create();
  if (!other) {
    fprintf(stderr, "error: no second session\n");
    return 1;
  }
  int status = 0;
  if (kiln_session_set_flags(session, flagCount, flags)) {
    printf("set_flags failed: %s\n", kiln_session_error(session));
    status = 1;
  }
  for (int i = 0; !status && i < requestCount; ++i)
    kiln_session_request_plugin(session, requests[i]);
  if (!status && !compile) {
    char *table = kiln_session_list_plugins(session);
    if (table) {
      printf("%s", table);
      kiln_free(table);
    } else {
      printf("list failed: %s\n", kiln_session_error(session));
      status = 1;
    }
  }
  if (!status && compile) {
    int failed =
        phase ? kiln_session_compile_file_to(session, argv[2], argv[3], phase)
              : kiln_session_compile_file(session, argv[2], argv[3]);
    if (failed) {
      printf("compile failed: %s\n", kiln_session_error(session));
      status = 1;
    } else {
      printf("compiled %s\n", argv[3]);
    }
  }
  /* compile_buffer without its data or its outputs says so. */
  if (!status) {
    void *output = NULL;
    size_t size = 0;
    if (!kiln_session_compile_buffer(other, NULL, 4, "x", NULL, &output,
                                     &size) ||
        !kiln_session_compile_buffer(other, "abc", 3, "x", NULL, NULL,
                                     &size)) {
      fprintf(stderr, "error: compile_buffer took missing arguments\n");
      status = 1;
    } else {
      printf("compile_buffer: %s\n", kiln_session_error(other));
    }
  }
  /* The other session, made while this one took its flags, and a new one
   * after it, have default flags. */
  if (!status) {
    kiln_session *later = kiln_session_create();
    kiln_session *sessions[2] = {other, later};
    for (int i = 0; i < 2; ++i) {
      char *table = sessions[i] ? kiln_session_list_plugins(sessions[i]) : NULL;
      if (!table || strstr(table, "  active  ")) {
        fprintf(stderr, "error: a session took another one's flags\n");
        status = 1;
      }
      kiln_free(table);
    }
    kiln_session_destroy(later);
  }
  kiln_session_destroy(session);
  kiln_session_destroy(other);
  return status;
}

/* Compiles programs from memory on several threads at once, each in a
 * session of its own, for test/CAPI/threads.test.
 *
 *   kiln-capi-threads [--rounds=N] JOB...
 *
 * A JOB is INPUT:OUTPUT[:PHASE][:FLAG...]: the program in file INPUT is read
 * into memory, compiled by kiln_session_compile_buffer in a session with the
 * FLAGs (up to PHASE, default all), and the result written to OUTPUT. Every
 * job runs on a thread of its own, all at once, each compiling --rounds
 * times (default 2) and checking that every round gave the same bytes. Exits
 * 1 on the first failure, printing it. */

#include "kiln-c/Compiler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxFlags = 16, kMaxJobs = 8 };

struct job {
  char *input, *output, *phase;
  const char *flags[kMaxFlags];
  int flagCount;
  int rounds;
  char error[4096];
};

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  char *data = NULL;
  size_t capacity = 0;
  *size = 0;
  for (;;) {
    if (*size == capacity) {
      capacity = capacity ? 2 * capacity : 65536;
      char *grown = realloc(data, capacity);
      if (!grown)
        break;
      data = grown;
    }
    size_t got = fread(data + *size, 1, capacity - *size, file);
    if (got == 0)
      break;
    *size += got;
  }
  fclose(file);
  return data;
}

static void *run(void *argument) {
  struct job *job = argument;
  size_t size;
  char *data = readFile(job->input, &size);
  if (!data) {
    snprintf(job->error, sizeof job->error, "cannot read %s", job->input);
    return NULL;
  }
  kiln_session *session = kiln_session_create();
  if (!session || kiln_session_set_flags(session, job->flagCount, job->flags)) {
    snprintf(job->error, sizeof job->error, "%s: flags: %s", job->input,
             session ? kiln_session_error(session) : "no session");
    kiln_session_destroy(session);
    free(data);
    return NULL;
  }
  void *first = NULL;
  size_t firstSize = 0;
  for (int round = 0; round < job->rounds && !job->error[0]; ++round) {
    void *output = NULL;
    size_t outputSize = 0;
    if (kiln_session_compile_buffer(session, data, size, job->input, job->phase,
                                    &output, &outputSize)) {
      snprintf(job->error, sizeof job->error, "%s: %s", job->input,
               kiln_session_error(session));
    } else if (!first) {
      first = output;
      firstSize = outputSize;
      continue;
    } else if (outputSize != firstSize ||
               memcmp(output, first, outputSize) != 0) {
      snprintf(job->error, sizeof job->error,
               "%s: round %d gave other bytes than round 1", job->input,
               round + 1);
    }
    kiln_free(output);
  }
  if (!job->error[0]) {
    FILE *file = fopen(job->output, "wb");
    if (!file || fwrite(first, 1, firstSize, file) != firstSize)
      snprintf(job->error, sizeof job->error, "cannot write %s", job->output);
    if (file)
      fclose(file);
  }
  kiln_free(first);
  kiln_session_destroy(session);
  free(data);
  return NULL;
}

int main(int argc, char **argv) {
  int rounds = 2, first = 1;
  if (argc > 1 && !strncmp(argv[1], "--rounds=", 9)) {
    rounds = atoi(argv[1] + 9);
    first = 2;
  }
  if (argc <= first || argc - first > kMaxJobs || rounds < 1) {
    fprintf(stderr, "usage: kiln-capi-threads [--rounds=N] "
                    "INPUT:OUTPUT[:PHASE][:FLAG...]...\n");
    return 2;
  }
  char *error = NULL;
  if (kiln_compiler_initialize(0, NULL, &error)) {
    printf("initialize failed: %s\n", error);
    kiln_free(error);
    return 1;
  }
  struct job jobs[kMaxJobs];
  int count = argc - first;
  for (int i = 0; i < count; ++i) {
    struct job *job = &jobs[i];
    memset(job, 0, sizeof *job);
    job->rounds = rounds;
    char *spec = argv[first + i];
    job->input = strtok(spec, ":");
    job->output = strtok(NULL, ":");
    char *phase = strtok(NULL, ":");
    job->phase = phase && phase[0] != '-' ? phase : NULL;
    char *flag = job->phase ? strtok(NULL, ":") : phase;
    for (; flag && job->flagCount < kMaxFlags; flag = strtok(NULL, ":"))
      job->flags[job->flagCount++] = flag;
    if (!job->input || !job->output) {
      fprintf(stderr, "error: job '%s' has no output\n", argv[first + i]);
      return 2;
    }
  }
  pthread_t threads[kMaxJobs];
  for (int i = 0; i < count; ++i)
    if (pthread_create(&threads[i], NULL, run, &jobs[i])) {
      fprintf(stderr, "error: cannot start a thread\n");
      return 1;
    }
  int status = 0;
  for (int i = 0; i < count; ++i) {
    pthread_join(threads[i], NULL);
    if (jobs[i].error[0]) {
      printf("job %d failed: %s\n", i + 1, jobs[i].error);
      status = 1;
    } else {
      printf("job %d compiled %s\n", i + 1, jobs[i].output);
    }
  }
  return status;
}

/*===- spawn_probe.c - The cost of a bare spawn ---------------------------===*
 *
 *   kiln-spawn-probe N INPUT PROGRAM [ARGS...]
 *
 * Runs PROGRAM N times the cheapest way a compiler could: posix_spawn with
 * its stdin and stdout on pipes, INPUT written to it, its output read to
 * the end, waitpid. Prints the mean wall time per run in milliseconds.
 * bench/preprocessing.py compares Kiln's tool mode against it.
 *
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc(length > 0 ? (size_t)length : 1);
  *size = fread(data, 1, (size_t)length, file);
  fclose(file);
  return data;
}

/* One spawn; 0 on success. */
static int runOnce(char **argv, const char *input, size_t size) {
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  pid_t pid;
  int error = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (error) {
    close(in[1]);
    close(out[0]);
    return -1;
  }
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  size_t written = 0;
  int inFd = in[1], outFd = out[0];
  if (size == 0) {
    close(inFd);
    inFd = -1;
  }
  char buffer[65536];
  while (outFd >= 0) {
    struct pollfd fds[2];
    nfds_t count = 0;
    if (inFd >= 0)
      fds[count++] = (struct pollfd){inFd, POLLOUT, 0};
    fds[count++] = (struct pollfd){outFd, POLLIN, 0};
    if (poll(fds, count, -1) < 0)
      continue;
    for (nfds_t i = 0; i < count; ++i) {
      if (!fds[i].revents)
        continue;
      if (fds[i].fd == inFd) {
        ssize_t n = write(inFd, input + written, size - written);
        if (n > 0)
          written += (size_t)n;
        if (n < 0 || written == size) {
          close(inFd);
          inFd = -1;
        }
      } else {
        ssize_t n = read(outFd, buffer, sizeof(buffer));
        if (n <= 0) {
          close(outFd);
          outFd = -1;
        }
      }
    }
  }
  if (inFd >= 0)
    close(inFd);
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: kiln-spawn-probe N INPUT PROGRAM [ARGS...]\n");
    return 2;
  }
  int runs = atoi(argv[1]);
  size_t size = 0;
  char *input = readFile(argv[2], &size);
  if (runs <= 0 || !input) {
    fprintf(stderr, "kiln-spawn-probe: bad count or unreadable '%s'\n",
            argv[2]);
    return 2;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int i = 0; i < runs; ++i)
    if (runOnce(argv + 3, input, size)) {
      fprintf(stderr, "kiln-spawn-probe: '%s' failed\n", argv[3]);
      return 1;
    }
  clock_gettime(CLOCK_MONOTONIC, &end);
  double ms =
      (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
  printf("%.4f\n", ms / runs);
  free(input);
  return 0;
}

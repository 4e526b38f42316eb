/*===- seal_module.c - Append the module trailer to a hand-built module --===*
 *
 * Usage: seal_module FILE. Appends the trailer kiln-compile writes (size,
 * kiln_checksum, magic; see kiln_module_abi.h) to a shared object built by
 * a C compiler, so that the runtime loads it.
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_module_abi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: seal_module FILE\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "r+b");
  if (!file || fseek(file, 0, SEEK_END) != 0) {
    perror(argv[1]);
    return 1;
  }
  long size = ftell(file);
  unsigned char *data = malloc(size > 0 ? (size_t)size : 1);
  rewind(file);
  if (size < 0 || !data || fread(data, 1, (size_t)size, file) != (size_t)size) {
    perror(argv[1]);
    return 1;
  }
  unsigned char trailer[KILN_MODULE_TRAILER_SIZE];
  kiln_module_make_trailer(data, (uint64_t)size, trailer);
  if (fseek(file, 0, SEEK_END) != 0 ||
      fwrite(trailer, 1, sizeof(trailer), file) != sizeof(trailer) ||
      fclose(file) != 0) {
    perror(argv[1]);
    return 1;
  }
  free(data);
  return 0;
}

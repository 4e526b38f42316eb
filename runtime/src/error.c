/*===- error.c - Errors -------------------------------------------------===*
 *
 * kiln_error: a heap-allocated message.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kiln_error {
  char *message;
};

/* Returned when even the error cannot be allocated. */
static char out_of_memory_message[] = "out of memory";
static struct kiln_error out_of_memory = {out_of_memory_message};

kiln_error *kiln_make_error(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int length = vsnprintf(NULL, 0, format, args);
  va_end(args);
  kiln_error *error = malloc(sizeof(*error));
  char *message = length >= 0 ? malloc((size_t)length + 1) : NULL;
  if (!error || !message) {
    free(error);
    free(message);
    return &out_of_memory;
  }
  va_start(args, format);
  vsnprintf(message, (size_t)length + 1, format, args);
  va_end(args);
  error->message = message;
  return error;
}

const char *kiln_error_message(const kiln_error *error) {
  return error ? error->message : "no error";
}

void kiln_error_free(kiln_error *error) {
  if (!error || error == &out_of_memory)
    return;
  free(error->message);
  free(error);
}

/* Lists the functions of a module Kiln compiled, with the number of inputs
 * and outputs of each, through the runtime's C API alone.
 *
 *   list-functions MODULE */

#include "kiln_runtime.h"

#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: list-functions MODULE\n");
    return 2;
  }
  kiln_runtime *runtime = NULL;
  kiln_module *module = NULL;
  kiln_error *error = kiln_runtime_create(NULL, &runtime);
  if (!error)
    error = kiln_module_load(runtime, argv[1], &module);
  if (error) {
    fprintf(stderr, "list-functions: %s\n", kiln_error_message(error));
    kiln_error_free(error);
    kiln_runtime_destroy(runtime);
    return 1;
  }
  for (size_t i = 0; i < kiln_module_function_count(module); ++i) {
    const kiln_function *function = kiln_module_function_at(module, i);
    printf("%s: %zu inputs, %zu outputs\n", kiln_function_name(function),
           kiln_function_input_count(function),
           kiln_function_output_count(function));
  }
  kiln_module_unload(module);
  kiln_runtime_destroy(runtime);
  return 0;
}

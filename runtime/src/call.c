/*===- call.c - Calling a module's functions -----------------------------===*
 *
 * Checks the inputs against the function's signature, builds MLIR memref
 * descriptors for them, runs the entry point (which may end early through
 * kiln.allocate, memory.c) and wraps the output descriptors into buffers.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail_scratch(kiln_call_context *call, uint64_t scratch_bytes) {
  kiln_call_fail(call,
                 "out of memory allocating %llu bytes of workgroup scratch "
                 "for each of %d threads",
                 (unsigned long long)scratch_bytes,
                 kiln_thread_pool_size(call->runtime->pool));
}

/* A dispatch while the runtime profiles: timed, counted under its row of
 * the dispatch table (none for an id past it), and traced. */
static void dispatch_profiled(kiln_call_context *call, kiln_kernel_fn kernel,
                              uint32_t id, const kiln_dispatch_state *state,
                              uint64_t scratch_bytes) {
  kiln_runtime *runtime = call->runtime;
  kiln_module *module = call->module;
  if (id >= module->dispatch_count)
    id = KILN_DISPATCH_UNKNOWN_INDEX;
  kiln_trace *trace =
      runtime->profiling == KILN_PROFILING_TRACE ? runtime->trace : NULL;
  uint64_t begin = kiln_now_ns();
  bool ran = kiln_thread_pool_run(runtime->pool, kernel, state, scratch_bytes,
                                  trace, module, id);
  uint64_t end = kiln_now_ns();
  if (!ran)
    fail_scratch(call, scratch_bytes);
  if (id != KILN_DISPATCH_UNKNOWN_INDEX) {
    module->dispatches[id].calls += 1;
    module->dispatches[id].total_ns += end - begin;
  }
  if (trace) {
    kiln_trace_event event = {0};
    event.kind = KILN_TRACE_DISPATCH;
    event.begin_ns = begin;
    event.end_ns = end;
    event.module = module;
    event.dispatch = id;
    event.workgroups = (uint64_t)state->workgroup_count[0] *
                       state->workgroup_count[1] * state->workgroup_count[2];
    kiln_trace_record(trace, &event);
  }
}

static void dispatch(kiln_host_context *context, kiln_kernel_fn kernel,
                     uint32_t id, uint32_t x, uint32_t y, uint32_t z,
                     void *const *bindings, const uint64_t *constants,
                     uint64_t scratch_bytes) {
  kiln_call_context *call = (kiln_call_context *)context;
  kiln_dispatch_state state = {bindings, constants, {x, y, z}, 0};
  if (call->runtime->profiling != KILN_PROFILING_OFF) {
    dispatch_profiled(call, kernel, id, &state, scratch_bytes);
    return;
  }
  if (!kiln_thread_pool_run(call->runtime->pool, kernel, &state, scratch_bytes,
                            NULL, NULL, 0))
    fail_scratch(call, scratch_bytes);
}

void kiln_fail_import(kiln_host_context *context, const char *location,
                      const char *message, const int64_t *values,
                      int32_t count) {
  kiln_call_context *call = (kiln_call_context *)context;
  char text[448];
  size_t used = 0;
  const char *p = message ? message : "a run-time check failed";
  while (*p && used + 1 < sizeof(text)) {
    /* "{N}" with N naming a value; any other brace is text. */
    if (*p == '{') {
      char *end;
      long index = strtol(p + 1, &end, 10);
      if (end != p + 1 && *end == '}' && index >= 0 && index < count) {
        int written = snprintf(text + used, sizeof(text) - used, "%lld",
                               (long long)values[index]);
        if (written < 0)
          break;
        used += (size_t)written;
        if (used >= sizeof(text))
          used = sizeof(text) - 1;
        p = end + 1;
        continue;
      }
    }
    text[used++] = *p++;
  }
  text[used] = '\0';
  if (location && *location)
    kiln_call_fail(call, "%s: %s", location, text);
  kiln_call_fail(call, "%s", text);
}

/* "tensor<4x?xf32>" into `text`. */
static const char *format_type(char *text, size_t size, kiln_element_type type,
                               int32_t rank, const int64_t *dims) {
  size_t used = (size_t)snprintf(text, size, "tensor<");
  for (int32_t i = 0; i < rank && used < size; ++i) {
    if (dims[i] < 0)
      used += (size_t)snprintf(text + used, size - used, "?x");
    else
      used += (size_t)snprintf(text + used, size - used, "%lldx",
                               (long long)dims[i]);
  }
  if (used < size)
    snprintf(text + used, size - used, "%s>", kiln_element_type_name(type));
  return text;
}

static kiln_error *check_input(const kiln_function *function, size_t index,
                               const kiln_buffer *buffer) {
  const tensor_info *expected = &function->inputs[index];
  char want[256], got[256], which[300];
  /* "input 1", or "input 1 ('x')" when it has a name. */
  if (expected->name)
    snprintf(which, sizeof(which), "input %zu ('%.256s')", index,
             expected->name);
  else
    snprintf(which, sizeof(which), "input %zu", index);
  if (!buffer)
    return kiln_make_error("%s of '%s' is missing", which, function->name);
  kiln_element_type type = kiln_buffer_element_type(buffer);
  int32_t rank = kiln_buffer_rank(buffer);
  const int64_t *dims = kiln_buffer_dims(buffer);
  bool matches = type == expected->element_type && rank == expected->rank;
  for (int32_t i = 0; matches && i < rank; ++i)
    matches = expected->dims[i] < 0 || expected->dims[i] == dims[i];
  if (matches)
    return NULL;
  return kiln_make_error("%s of '%s' must be %s, got %s", which, function->name,
                         format_type(want, sizeof(want), expected->element_type,
                                     expected->rank, expected->dims),
                         format_type(got, sizeof(got), type, rank, dims));
}

/* Makes a buffer from the output descriptor at `words`: adopts its storage
 * (`capacity` says whether it came from `cache`, see kiln_call_end), or
 * copies it when another output already adopted the same storage. */
static kiln_buffer *wrap_output(const tensor_info *info, const int64_t *words,
                                kiln_buffer *const *previous,
                                size_t previous_count, kiln_block_cache *cache,
                                size_t capacity) {
  void *allocated = (void *)(intptr_t)words[0];
  char *aligned = (char *)(intptr_t)words[1];
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + info->rank;
  size_t element_size = kiln_element_type_size(info->element_type);

  /* Row-major and dense, as the compiler promises; anything else is
   * copied element by element. */
  bool dense = true;
  int64_t expected_stride = 1;
  for (int32_t i = info->rank - 1; i >= 0; --i) {
    if (sizes[i] != 1 && strides[i] != expected_stride)
      dense = false;
    expected_stride *= sizes[i];
  }
  char *data = aligned + offset * (int64_t)element_size;
  bool owned_elsewhere = false;
  for (size_t i = 0; i < previous_count; ++i)
    if (previous[i] && allocated &&
        kiln_buffer_data(previous[i]) == (void *)data)
      owned_elsewhere = true;
  if (dense && !owned_elsewhere) {
    kiln_buffer *buffer =
        kiln_buffer_adopt(info->element_type, info->rank, sizes, allocated,
                          data, cache, capacity);
    if (!buffer)
      kiln_release_host_block(cache, allocated, capacity);
    return buffer;
  }

  kiln_buffer *copy = NULL;
  kiln_error *error =
      kiln_buffer_create(info->element_type, info->rank, sizes, &copy);
  if (error) {
    kiln_error_free(error);
    if (!owned_elsewhere)
      kiln_release_host_block(cache, allocated, capacity);
    return NULL;
  }
  char *target = kiln_buffer_data(copy);
  int64_t count = kiln_buffer_element_count(copy);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t remainder = linear, source = 0;
    for (int32_t i = info->rank - 1; i >= 0; --i) {
      source += (remainder % sizes[i]) * strides[i];
      remainder /= sizes[i];
    }
    memcpy(target + linear * (int64_t)element_size,
           data + source * (int64_t)element_size, element_size);
  }
  if (!owned_elsewhere)
    kiln_release_host_block(cache, allocated, capacity);
  return copy;
}

kiln_error *kiln_function_call(const kiln_function *function,
                               kiln_buffer *const *inputs, size_t input_count,
                               kiln_buffer **outputs, size_t output_count) {
  if (!function)
    return kiln_make_error("kiln_function_call needs a function");
  if (input_count != function->input_count)
    return kiln_make_error("'%s' takes %zu inputs, got %zu", function->name,
                           function->input_count, input_count);
  if (output_count != function->output_count)
    return kiln_make_error("'%s' returns %zu outputs, room was given for %zu",
                           function->name, function->output_count,
                           output_count);
  if ((input_count && !inputs) || (output_count && !outputs))
    return kiln_make_error("kiln_function_call needs input and output "
                           "arrays");
  for (size_t i = 0; i < input_count; ++i) {
    kiln_error *error = check_input(function, i, inputs[i]);
    if (error)
      return error;
  }

  /* Input descriptors, then room for the output descriptors. */
  size_t input_words = 0, output_words = 0;
  for (size_t i = 0; i < input_count; ++i)
    input_words += KILN_DESCRIPTOR_WORDS(function->inputs[i].rank);
  for (size_t i = 0; i < output_count; ++i)
    output_words += KILN_DESCRIPTOR_WORDS(function->outputs[i].rank);
  int64_t *words = calloc(input_words + output_words + 1, sizeof(int64_t));
  /* The inputs' descriptors, then the allocations the outputs point to. */
  void **input_pointers =
      calloc(input_count + output_count + 1, sizeof(void *));
  /* Where each output's storage goes when its buffer dies. */
  size_t *result_capacities = calloc(output_count + 1, sizeof(size_t));
  if (!words || !input_pointers || !result_capacities) {
    free(words);
    free(input_pointers);
    free(result_capacities);
    return kiln_make_error("out of memory calling '%s'", function->name);
  }
  int64_t *cursor = words;
  for (size_t i = 0; i < input_count; ++i) {
    int32_t rank = kiln_buffer_rank(inputs[i]);
    const int64_t *dims = kiln_buffer_dims(inputs[i]);
    void *data = kiln_buffer_data(inputs[i]);
    input_pointers[i] = cursor;
    cursor[0] = (int64_t)(intptr_t)data;
    cursor[1] = (int64_t)(intptr_t)data;
    cursor[2] = 0;
    int64_t stride = 1;
    for (int32_t d = rank - 1; d >= 0; --d) {
      cursor[3 + d] = dims[d];
      cursor[3 + rank + d] = stride;
      stride *= dims[d];
    }
    cursor += KILN_DESCRIPTOR_WORDS(rank);
  }
  int64_t *output_area = cursor;

  kiln_runtime *runtime = function->module->runtime;
  jmp_buf unwind;
  kiln_call_context context = {
      {dispatch, function->module->imports, function->module->chosen_variant},
      runtime,
      function->module,
      &unwind};
  pthread_mutex_lock(&runtime->call_mutex);
  kiln_trace *trace =
      runtime->profiling == KILN_PROFILING_TRACE ? runtime->trace : NULL;
  uint64_t begin = trace ? kiln_now_ns() : 0;
  /* kiln.allocate comes back here, through longjmp, when a buffer cannot
   * be allocated; the call's buffers are then freed by kiln_call_end. */
  if (setjmp(unwind) == 0)
    function->entry(&context.base, input_pointers, output_area);
  if (trace) {
    kiln_trace_event event = {0};
    event.kind = KILN_TRACE_CALL;
    event.begin_ns = begin;
    event.end_ns = kiln_now_ns();
    event.function = function;
    event.dispatch = KILN_DISPATCH_UNKNOWN_INDEX;
    kiln_trace_record(trace, &event);
  }
  void **results = input_pointers + input_count;
  cursor = output_area;
  for (size_t i = 0; i < output_count; ++i) {
    results[i] = (void *)(intptr_t)cursor[0];
    cursor += KILN_DESCRIPTOR_WORDS(function->outputs[i].rank);
  }
  kiln_error *error = kiln_call_end(runtime, function->name, results,
                                    output_count, result_capacities);
  pthread_mutex_unlock(&runtime->call_mutex);
  if (error) {
    for (size_t i = 0; i < output_count; ++i)
      outputs[i] = NULL;
    free(words);
    free(input_pointers);
    free(result_capacities);
    return error;
  }

  /* After an output cannot be wrapped, the rest are not (their storage
   * may be what that one already released): out of memory, they leak. */
  for (size_t i = 0; i < output_count; ++i)
    outputs[i] = NULL;
  cursor = output_area;
  for (size_t i = 0; i < output_count && !error; ++i) {
    outputs[i] = wrap_output(&function->outputs[i], cursor, outputs, i,
                             runtime->block_cache, result_capacities[i]);
    if (!outputs[i])
      error = kiln_make_error("out of memory wrapping output %zu of '%s'", i,
                              function->name);
    cursor += KILN_DESCRIPTOR_WORDS(function->outputs[i].rank);
  }
  if (error)
    for (size_t i = 0; i < output_count; ++i) {
      kiln_buffer_release(outputs[i]);
      outputs[i] = NULL;
    }
  free(words);
  free(input_pointers);
  free(result_capacities);
  return error;
}

/*===- check.c - The kiln.check import -----------------------------------===*
 *
 * Test assertions compiled into modules call this: it compares, counts,
 * and on failure records a message with the check's location, how many
 * elements differ, and the first of them with its index and both values.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*--- Elements ------------------------------------------------------------*/

static float half_to_float(uint16_t bits) {
  uint32_t sign = (uint32_t)(bits >> 15) << 31;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  uint32_t out;
  if (exponent == 0x1f) {
    out = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    out = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    out = sign;
  } else {
    /* Subnormal: value = mantissa * 2^-24. */
    float value = (float)mantissa * 5.9604644775390625e-8f;
    return sign ? -value : value;
  }
  float result;
  memcpy(&result, &out, sizeof(result));
  return result;
}

static float bfloat_to_float(uint16_t bits) {
  uint32_t out = (uint32_t)bits << 16;
  float result;
  memcpy(&result, &out, sizeof(result));
  return result;
}

static bool is_float(int32_t type) {
  return type == KILN_ELEMENT_F16 || type == KILN_ELEMENT_BF16 ||
         type == KILN_ELEMENT_F32 || type == KILN_ELEMENT_F64;
}

/* Element `i` of `view` as a double (floats) or a signed integer. */
static double load_float(const kiln_tensor_view *view, int64_t i) {
  const char *data = view->data;
  switch (view->element_type) {
  case KILN_ELEMENT_F16: {
    uint16_t bits;
    memcpy(&bits, data + 2 * i, 2);
    return half_to_float(bits);
  }
  case KILN_ELEMENT_BF16: {
    uint16_t bits;
    memcpy(&bits, data + 2 * i, 2);
    return bfloat_to_float(bits);
  }
  case KILN_ELEMENT_F32: {
    float value;
    memcpy(&value, data + 4 * i, 4);
    return value;
  }
  default: {
    double value;
    memcpy(&value, data + 8 * i, 8);
    return value;
  }
  }
}

static int64_t load_int(const kiln_tensor_view *view, int64_t i) {
  const char *data = view->data;
  switch (view->element_type) {
  case KILN_ELEMENT_I1:
    return data[i] & 1;
  case KILN_ELEMENT_I8:
    return (int8_t)data[i];
  case KILN_ELEMENT_I16: {
    int16_t value;
    memcpy(&value, data + 2 * i, 2);
    return value;
  }
  case KILN_ELEMENT_I32: {
    int32_t value;
    memcpy(&value, data + 4 * i, 4);
    return value;
  }
  default: {
    int64_t value;
    memcpy(&value, data + 8 * i, 8);
    return value;
  }
  }
}

static void format_element(const kiln_tensor_view *view, int64_t i, char *out,
                           size_t size) {
  if (is_float(view->element_type))
    snprintf(out, size, "%.9g", load_float(view, i));
  else
    snprintf(out, size, "%lld", (long long)load_int(view, i));
}

static int64_t element_count(const kiln_tensor_view *view) {
  int64_t count = 1;
  for (int32_t d = 0; d < view->rank; ++d)
    count *= view->dims[d];
  return count;
}

/* "[i, j, k]" of flat index `i`, or "" for a scalar. */
static void format_index(const kiln_tensor_view *view, int64_t flat, char *out,
                         size_t size) {
  if (view->rank == 0) {
    out[0] = '\0';
    return;
  }
  int64_t index[KILN_MAX_RANK];
  for (int32_t d = view->rank - 1; d >= 0; --d) {
    index[d] = view->dims[d] ? flat % view->dims[d] : 0;
    flat = view->dims[d] ? flat / view->dims[d] : 0;
  }
  size_t used = (size_t)snprintf(out, size, " at index [");
  for (int32_t d = 0; d < view->rank && used < size; ++d)
    used += (size_t)snprintf(out + used, size - used, "%s%lld", d ? ", " : "",
                             (long long)index[d]);
  if (used < size)
    snprintf(out + used, size - used, "]");
}

static void format_shape(const kiln_tensor_view *view, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int32_t d = 0; d < view->rank && used < size; ++d)
    used += (size_t)snprintf(out + used, size - used, "%lldx",
                             (long long)view->dims[d]);
  if (used < size)
    snprintf(out + used, size - used, "%s",
             kiln_element_type_name((kiln_element_type)view->element_type));
}

/*--- Comparisons ---------------------------------------------------------*/

static bool elements_equal(const kiln_tensor_view *a, const kiln_tensor_view *b,
                           int64_t i) {
  if (is_float(a->element_type)) {
    double x = load_float(a, i), y = load_float(b, i);
    if (isnan(x) || isnan(y))
      return isnan(x) && isnan(y);
    size_t bytes = kiln_element_type_size((kiln_element_type)a->element_type);
    return memcmp((const char *)a->data + bytes * i,
                  (const char *)b->data + bytes * i, bytes) == 0;
  }
  return load_int(a, i) == load_int(b, i);
}

/* numpy.isclose(actual, expected, rtol, atol), but NaN matches NaN. */
static bool elements_close(const kiln_tensor_view *a, const kiln_tensor_view *b,
                           int64_t i, double atol, double rtol) {
  double x = load_float(a, i), y = load_float(b, i);
  if (x == y || (isnan(x) && isnan(y)))
    return true;
  return isfinite(y) && fabs(x - y) <= atol + rtol * fabs(y);
}

static bool element_nonzero(const kiln_tensor_view *view, int64_t i) {
  return is_float(view->element_type) ? load_float(view, i) != 0.0
                                      : load_int(view, i) != 0;
}

static void record_failure(kiln_runtime *runtime, const char *message) {
  char **grown = realloc(runtime->check_failures,
                         (runtime->check_failure_count + 1) * sizeof(char *));
  if (!grown)
    return;
  runtime->check_failures = grown;
  size_t length = strlen(message);
  char *copy = malloc(length + 1);
  if (!copy)
    return;
  memcpy(copy, message, length + 1);
  grown[runtime->check_failure_count++] = copy;
}

void kiln_check_import(kiln_host_context *context,
                       const kiln_check_args *args) {
  kiln_runtime *runtime = ((kiln_call_context *)context)->runtime;
  ++runtime->checks_run;
  const kiln_tensor_view *actual = &args->actual;
  const kiln_tensor_view *expected = &args->expected;
  const char *where = args->location ? args->location : "(unknown location)";
  char message[1024];
  char actual_shape[256], expected_shape[256];
  format_shape(actual, actual_shape, sizeof(actual_shape));

  bool binary =
      args->kind == KILN_CHECK_EQ || args->kind == KILN_CHECK_ALMOST_EQ;
  if (binary) {
    format_shape(expected, expected_shape, sizeof(expected_shape));
    bool same_shape = actual->rank == expected->rank &&
                      actual->element_type == expected->element_type;
    for (int32_t d = 0; same_shape && d < actual->rank; ++d)
      same_shape = actual->dims[d] == expected->dims[d];
    if (!same_shape) {
      snprintf(message, sizeof(message), "%s: expected a %s value, got %s",
               where, expected_shape, actual_shape);
      record_failure(runtime, message);
      return;
    }
  }

  int64_t count = element_count(actual);
  int64_t differing = 0, first = -1;
  for (int64_t i = 0; i < count; ++i) {
    bool ok;
    switch (args->kind) {
    case KILN_CHECK_TRUE:
      ok = element_nonzero(actual, i);
      break;
    case KILN_CHECK_FALSE:
      ok = !element_nonzero(actual, i);
      break;
    case KILN_CHECK_EQ:
      ok = elements_equal(actual, expected, i);
      break;
    default:
      ok = elements_close(actual, expected, i, args->atol, args->rtol);
      break;
    }
    if (!ok && differing++ == 0)
      first = i;
  }
  if (differing == 0)
    return;

  char index[256], got[64], want[64];
  format_index(actual, first, index, sizeof(index));
  format_element(actual, first, got, sizeof(got));
  const char *scalar_or_all = actual->rank == 0 ? "" : "every element ";
  switch (args->kind) {
  case KILN_CHECK_TRUE:
  case KILN_CHECK_FALSE:
    if (actual->rank == 0)
      snprintf(message, sizeof(message), "%s: expected %s, got %s", where,
               args->kind == KILN_CHECK_TRUE ? "nonzero" : "zero", got);
    else
      snprintf(message, sizeof(message),
               "%s: expected %s%s, but %lld of %lld elements are not; the "
               "first%s is %s",
               where, scalar_or_all,
               args->kind == KILN_CHECK_TRUE ? "nonzero" : "zero",
               (long long)differing, (long long)count, index, got);
    break;
  case KILN_CHECK_EQ:
    format_element(expected, first, want, sizeof(want));
    snprintf(message, sizeof(message),
             "%s: expected equal %s values, but %lld of %lld elements "
             "differ; the first%s: expected %s, got %s",
             where, actual_shape, (long long)differing, (long long)count, index,
             want, got);
    break;
  default:
    format_element(expected, first, want, sizeof(want));
    snprintf(message, sizeof(message),
             "%s: expected %s values equal within atol %g and rtol %g, but "
             "%lld of %lld elements differ; the first%s: expected %s, got %s "
             "(off by %.3g)",
             where, actual_shape, args->atol, args->rtol, (long long)differing,
             (long long)count, index, want, got,
             fabs(load_float(actual, first) - load_float(expected, first)));
    break;
  }
  record_failure(runtime, message);
}

/*--- API -----------------------------------------------------------------*/

size_t kiln_runtime_checks_run(const kiln_runtime *runtime) {
  return runtime->checks_run;
}

size_t kiln_runtime_check_failure_count(const kiln_runtime *runtime) {
  return runtime->check_failure_count;
}

const char *kiln_runtime_check_failure(const kiln_runtime *runtime,
                                       size_t index) {
  return index < runtime->check_failure_count ? runtime->check_failures[index]
                                              : NULL;
}

void kiln_runtime_reset_checks(kiln_runtime *runtime) {
  for (size_t i = 0; i < runtime->check_failure_count; ++i)
    free(runtime->check_failures[i]);
  free(runtime->check_failures);
  runtime->check_failures = NULL;
  runtime->check_failure_count = 0;
  runtime->checks_run = 0;
}

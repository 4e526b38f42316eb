/*===- buffer.c - Buffers and element types ------------------------------===*
 *
 * Dense, row-major, reference-counted tensors in host memory.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct kiln_buffer {
  atomic_int references;
  kiln_element_type element_type;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  int64_t element_count;
  size_t byte_size;
  void *data;
  /* What holds `data`: released with free(), or given back to `cache` when
   * `capacity` (its size class there) is not 0. */
  void *allocation;
  kiln_block_cache *cache;
  size_t capacity;
  /* A wrapped buffer's (kiln_buffer_wrap): called instead of freeing. */
  void (*release)(void *user);
  void *release_user;
  int wrapped;
};

static const struct {
  kiln_element_type type;
  const char *name;
  size_t size;
} element_types[] = {
    {KILN_ELEMENT_I1, "i1", 1},     {KILN_ELEMENT_I8, "i8", 1},
    {KILN_ELEMENT_I16, "i16", 2},   {KILN_ELEMENT_I32, "i32", 4},
    {KILN_ELEMENT_I64, "i64", 8},   {KILN_ELEMENT_F16, "f16", 2},
    {KILN_ELEMENT_BF16, "bf16", 2}, {KILN_ELEMENT_F32, "f32", 4},
    {KILN_ELEMENT_F64, "f64", 8},
};

#define ELEMENT_TYPE_COUNT (sizeof(element_types) / sizeof(element_types[0]))

const char *kiln_element_type_name(kiln_element_type type) {
  for (size_t i = 0; i < ELEMENT_TYPE_COUNT; ++i)
    if (element_types[i].type == type)
      return element_types[i].name;
  return "invalid";
}

kiln_element_type kiln_element_type_from_name(const char *name) {
  for (size_t i = 0; name && i < ELEMENT_TYPE_COUNT; ++i)
    if (strcmp(element_types[i].name, name) == 0)
      return element_types[i].type;
  return KILN_ELEMENT_INVALID;
}

size_t kiln_element_type_size(kiln_element_type type) {
  for (size_t i = 0; i < ELEMENT_TYPE_COUNT; ++i)
    if (element_types[i].type == type)
      return element_types[i].size;
  return 0;
}

/* Checks the shape and computes the element count; NULL on success. */
static kiln_error *check_shape(kiln_element_type type, int32_t rank,
                               const int64_t *dims, int64_t *count) {
  if (kiln_element_type_size(type) == 0)
    return kiln_make_error("invalid element type %d", (int)type);
  if (rank < 0 || rank > KILN_MAX_RANK)
    return kiln_make_error("rank %d is out of range (0 to %d)", (int)rank,
                           KILN_MAX_RANK);
  if (rank > 0 && !dims)
    return kiln_make_error("a buffer of rank %d needs dims", (int)rank);
  int64_t total = 1;
  for (int32_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return kiln_make_error("dim %d is negative (%lld)", (int)i,
                             (long long)dims[i]);
    if (dims[i] != 0 && total > INT64_MAX / dims[i])
      return kiln_make_error("buffer of %d dims is too large", (int)rank);
    total *= dims[i];
  }
  if (total > (int64_t)(SIZE_MAX / 2 / kiln_element_type_size(type)))
    return kiln_make_error("buffer of %lld elements is too large",
                           (long long)total);
  *count = total;
  return NULL;
}

static kiln_buffer *new_buffer(kiln_element_type type, int32_t rank,
                               const int64_t *dims, int64_t count) {
  kiln_buffer *buffer = calloc(1, sizeof(*buffer));
  if (!buffer)
    return NULL;
  atomic_init(&buffer->references, 1);
  buffer->element_type = type;
  buffer->rank = rank;
  for (int32_t i = 0; i < rank; ++i)
    buffer->dims[i] = dims[i];
  buffer->element_count = count;
  buffer->byte_size = (size_t)count * kiln_element_type_size(type);
  return buffer;
}

kiln_error *kiln_buffer_create(kiln_element_type type, int32_t rank,
                               const int64_t *dims, kiln_buffer **out) {
  int64_t count = 0;
  kiln_error *error = check_shape(type, rank, dims, &count);
  if (error)
    return error;
  kiln_buffer *buffer = new_buffer(type, rank, dims, count);
  /* 64-byte aligned, whole cache lines, never zero bytes. */
  size_t capacity = (buffer ? buffer->byte_size + 63 : 64) / 64 * 64;
  void *data = buffer ? aligned_alloc(64, capacity ? capacity : 64) : NULL;
  if (!data) {
    free(buffer);
    return kiln_make_error("out of memory allocating a buffer of %lld "
                           "elements",
                           (long long)count);
  }
  memset(data, 0, capacity ? capacity : 64);
  buffer->data = data;
  buffer->allocation = data;
  *out = buffer;
  return NULL;
}

kiln_error *kiln_buffer_create_from_data(kiln_element_type type, int32_t rank,
                                         const int64_t *dims, const void *data,
                                         size_t data_size, kiln_buffer **out) {
  kiln_buffer *buffer = NULL;
  kiln_error *error = kiln_buffer_create(type, rank, dims, &buffer);
  if (error)
    return error;
  if (data_size != buffer->byte_size) {
    size_t expected = buffer->byte_size;
    kiln_buffer_release(buffer);
    return kiln_make_error("data has %zu bytes but the buffer needs %zu",
                           data_size, expected);
  }
  if (data_size)
    memcpy(buffer->data, data, data_size);
  *out = buffer;
  return NULL;
}

kiln_error *kiln_buffer_wrap(kiln_element_type type, int32_t rank,
                             const int64_t *dims, void *data, size_t data_size,
                             void (*release)(void *user), void *user,
                             kiln_buffer **out) {
  int64_t count = 0;
  kiln_error *error = check_shape(type, rank, dims, &count);
  if (error)
    return error;
  kiln_buffer *buffer = new_buffer(type, rank, dims, count);
  if (!buffer)
    return kiln_make_error("out of memory wrapping a buffer");
  if (data_size != buffer->byte_size) {
    size_t expected = buffer->byte_size;
    free(buffer);
    return kiln_make_error("data has %zu bytes but the buffer needs %zu",
                           data_size, expected);
  }
  if ((uintptr_t)data % KILN_BUFFER_ALIGNMENT != 0) {
    free(buffer);
    return kiln_make_error("data at %p is not aligned to %d bytes", data,
                           KILN_BUFFER_ALIGNMENT);
  }
  buffer->data = data;
  buffer->wrapped = 1;
  buffer->release = release;
  buffer->release_user = user;
  *out = buffer;
  return NULL;
}

kiln_buffer *kiln_buffer_adopt(kiln_element_type type, int32_t rank,
                               const int64_t *dims, void *allocation,
                               void *data, kiln_block_cache *cache,
                               size_t capacity) {
  int64_t count = 1;
  for (int32_t i = 0; i < rank; ++i)
    count *= dims[i];
  kiln_buffer *buffer = new_buffer(type, rank, dims, count);
  if (!buffer)
    return NULL;
  buffer->allocation = allocation;
  buffer->data = data;
  if (capacity) {
    kiln_block_cache_retain(cache);
    buffer->cache = cache;
    buffer->capacity = capacity;
  }
  return buffer;
}

void kiln_buffer_retain(kiln_buffer *buffer) {
  if (buffer)
    atomic_fetch_add_explicit(&buffer->references, 1, memory_order_relaxed);
}

void kiln_buffer_release(kiln_buffer *buffer) {
  if (!buffer || atomic_fetch_sub_explicit(&buffer->references, 1,
                                           memory_order_acq_rel) != 1)
    return;
  if (buffer->wrapped) {
    if (buffer->release)
      buffer->release(buffer->release_user);
  } else if (buffer->capacity) {
    kiln_block_cache_give(buffer->cache, buffer->allocation, buffer->capacity);
    kiln_block_cache_release(buffer->cache);
  } else {
    free(buffer->allocation);
  }
  free(buffer);
}

kiln_element_type kiln_buffer_element_type(const kiln_buffer *buffer) {
  return buffer->element_type;
}
int32_t kiln_buffer_rank(const kiln_buffer *buffer) { return buffer->rank; }
const int64_t *kiln_buffer_dims(const kiln_buffer *buffer) {
  return buffer->dims;
}
int64_t kiln_buffer_element_count(const kiln_buffer *buffer) {
  return buffer->element_count;
}
size_t kiln_buffer_byte_size(const kiln_buffer *buffer) {
  return buffer->byte_size;
}
void *kiln_buffer_data(kiln_buffer *buffer) { return buffer->data; }

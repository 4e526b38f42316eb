/*===- onednn_conv.c - Time oneDNN's convolution and pooling --------------===*
 *
 *   onednn-conv op=conv|maxpool|avgpool n= h= w= c= [k=] [r=] [s=]
 *               [stride=1] [pad=0] [dilation=1] [groups=1] [relu=0]
 *               [repetitions=20] [warmup=3]
 *
 * Times one oneDNN primitive on f32 data, forward inference, and prints
 * one JSON object: median, min and max milliseconds and GFLOP/s of the
 * median. The input is n x c x h x w; a convolution has k output channels,
 * an r x s window, a bias and, with relu=1, a fused ReLU; `groups` splits
 * channels (groups = c = k: depthwise). oneDNN picks the memory layouts and
 * the algorithm it is fastest with (format_tag_any); reorders into them
 * are not timed. Pooling reads the blocked layout a convolution of oneDNN
 * would hand it (nChw16c when c is a multiple of 16). Threads come from
 * OMP_NUM_THREADS, set by the benchmark driver.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "bench_timing.h"

#include <dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(dnnl_status_t status, const char *what) {
  if (status != dnnl_success) {
    fprintf(stderr, "onednn-conv: %s failed (dnnl status %d)\n", what,
            (int)status);
    exit(1);
  }
}

/* A buffer for `md`, filled with values in [-1, 1). */
static dnnl_memory_t make_memory(const dnnl_memory_desc_t *md,
                                 dnnl_engine_t engine) {
  size_t bytes = dnnl_memory_desc_get_size(md);
  float *data = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!data) {
    fprintf(stderr, "onednn-conv: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < bytes / sizeof(float); ++i)
    data[i] = (float)rand() / RAND_MAX * 2 - 1;
  dnnl_memory_t memory;
  check(dnnl_memory_create(&memory, md, engine, data), "dnnl_memory_create");
  return memory;
}

struct options {
  const char *op;
  long n, h, w, c, k, r, s, stride, pad, dilation, groups, relu;
  long repetitions, warmup;
};

static void parse(int argc, char **argv, struct options *o) {
  *o = (struct options){.op = "conv",
                        .k = 0,
                        .r = 1,
                        .s = 1,
                        .stride = 1,
                        .dilation = 1,
                        .groups = 1,
                        .repetitions = 20,
                        .warmup = 3};
  struct {
    const char *name;
    long *value;
  } keys[] = {{"n", &o->n},
              {"h", &o->h},
              {"w", &o->w},
              {"c", &o->c},
              {"k", &o->k},
              {"r", &o->r},
              {"s", &o->s},
              {"stride", &o->stride},
              {"pad", &o->pad},
              {"dilation", &o->dilation},
              {"groups", &o->groups},
              {"relu", &o->relu},
              {"repetitions", &o->repetitions},
              {"warmup", &o->warmup}};
  for (int i = 1; i < argc; ++i) {
    char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "onednn-conv: '%s' is not key=value\n", argv[i]);
      exit(1);
    }
    *eq = 0;
    if (!strcmp(argv[i], "op")) {
      o->op = eq + 1;
      continue;
    }
    int found = 0;
    for (size_t j = 0; j < sizeof(keys) / sizeof(keys[0]); ++j) {
      if (!strcmp(argv[i], keys[j].name)) {
        char *end;
        *keys[j].value = strtol(eq + 1, &end, 10);
        found = *end == 0 && end != eq + 1;
      }
    }
    if (!found) {
      fprintf(stderr, "onednn-conv: unknown key or bad number in '%s=%s'\n",
              argv[i], eq + 1);
      exit(1);
    }
  }
  if (o->k == 0)
    o->k = o->c;
  if (o->n <= 0 || o->h <= 0 || o->w <= 0 || o->c <= 0 || o->k <= 0 ||
      o->r <= 0 || o->s <= 0 || o->stride <= 0 || o->pad < 0 ||
      o->dilation <= 0 || o->groups <= 0 || o->c % o->groups ||
      o->k % o->groups || o->repetitions <= 0 || o->warmup < 0) {
    fprintf(stderr, "onednn-conv: sizes must be positive and groups must "
                    "divide the channels\n");
    exit(1);
  }
}

int main(int argc, char **argv) {
  struct options o;
  parse(argc, argv, &o);
  int isConv = !strcmp(o.op, "conv");
  if (!isConv && strcmp(o.op, "maxpool") && strcmp(o.op, "avgpool")) {
    fprintf(stderr, "onednn-conv: op must be conv, maxpool or avgpool\n");
    return 1;
  }
  long oh = (o.h + 2 * o.pad - o.dilation * (o.r - 1) - 1) / o.stride + 1;
  long ow = (o.w + 2 * o.pad - o.dilation * (o.s - 1) - 1) / o.stride + 1;
  if (oh <= 0 || ow <= 0) {
    fprintf(stderr, "onednn-conv: the window is larger than the image\n");
    return 1;
  }

  dnnl_engine_t engine;
  dnnl_stream_t stream;
  check(dnnl_engine_create(&engine, dnnl_cpu, 0), "dnnl_engine_create");
  check(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags),
        "dnnl_stream_create");
  dnnl_dims_t strides = {o.stride, o.stride};
  dnnl_dims_t padding = {o.pad, o.pad};
  dnnl_dims_t dilates = {o.dilation - 1, o.dilation - 1};
  dnnl_primitive_desc_t pd;
  double flops;
  dnnl_exec_arg_t args[4];
  int nargs = 0;
  srand(1);

  if (isConv) {
    dnnl_memory_desc_t src, weights, bias, dst;
    dnnl_dims_t srcDims = {o.n, o.c, o.h, o.w};
    dnnl_dims_t dstDims = {o.n, o.k, oh, ow};
    dnnl_dims_t biasDims = {o.k};
    check(dnnl_memory_desc_init_by_tag(&src, 4, srcDims, dnnl_f32,
                                       dnnl_format_tag_any),
          "src desc");
    check(dnnl_memory_desc_init_by_tag(&dst, 4, dstDims, dnnl_f32,
                                       dnnl_format_tag_any),
          "dst desc");
    check(dnnl_memory_desc_init_by_tag(&bias, 1, biasDims, dnnl_f32, dnnl_x),
          "bias desc");
    if (o.groups == 1) {
      dnnl_dims_t weightDims = {o.k, o.c, o.r, o.s};
      check(dnnl_memory_desc_init_by_tag(&weights, 4, weightDims, dnnl_f32,
                                         dnnl_format_tag_any),
            "weights desc");
    } else {
      dnnl_dims_t weightDims = {o.groups, o.k / o.groups, o.c / o.groups, o.r,
                                o.s};
      check(dnnl_memory_desc_init_by_tag(&weights, 5, weightDims, dnnl_f32,
                                         dnnl_format_tag_any),
            "weights desc");
    }
    dnnl_convolution_desc_t desc;
    check(dnnl_dilated_convolution_forward_desc_init(
              &desc, dnnl_forward_inference, dnnl_convolution_direct, &src,
              &weights, &bias, &dst, strides, dilates, padding, padding),
          "convolution desc");
    dnnl_primitive_attr_t attr;
    check(dnnl_primitive_attr_create(&attr), "attr");
    if (o.relu) {
      dnnl_post_ops_t ops;
      check(dnnl_post_ops_create(&ops), "post ops");
      check(dnnl_post_ops_append_eltwise(ops, 1.0f, dnnl_eltwise_relu, 0, 0),
            "relu post op");
      check(dnnl_primitive_attr_set_post_ops(attr, ops), "set post ops");
      dnnl_post_ops_destroy(ops);
    }
    check(dnnl_primitive_desc_create(&pd, &desc, attr, engine, NULL),
          "convolution primitive desc");
    dnnl_primitive_attr_destroy(attr);
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_SRC,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0),
                    engine)};
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_WEIGHTS,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0),
                    engine)};
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_BIAS,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 1),
                    engine)};
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_DST,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0),
                    engine)};
    flops = 2.0 * o.n * oh * ow * o.k * (o.c / o.groups) * o.r * o.s;
  } else {
    dnnl_memory_desc_t src, dst;
    dnnl_dims_t srcDims = {o.n, o.c, o.h, o.w};
    dnnl_dims_t dstDims = {o.n, o.c, oh, ow};
    dnnl_format_tag_t tag = o.c % 16 == 0 ? dnnl_nChw16c : dnnl_nhwc;
    check(dnnl_memory_desc_init_by_tag(&src, 4, srcDims, dnnl_f32, tag),
          "src desc");
    check(dnnl_memory_desc_init_by_tag(&dst, 4, dstDims, dnnl_f32,
                                       dnnl_format_tag_any),
          "dst desc");
    dnnl_dims_t kernel = {o.r, o.s};
    dnnl_pooling_v2_desc_t desc;
    check(dnnl_pooling_v2_forward_desc_init(
              &desc, dnnl_forward_inference,
              !strcmp(o.op, "maxpool") ? dnnl_pooling_max
                                       : dnnl_pooling_avg_include_padding,
              &src, &dst, strides, kernel, dilates, padding, padding),
          "pooling desc");
    check(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL),
          "pooling primitive desc");
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_SRC,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0),
                    engine)};
    args[nargs++] = (dnnl_exec_arg_t){
        DNNL_ARG_DST,
        make_memory(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0),
                    engine)};
    flops = 1.0 * o.n * oh * ow * o.c * o.r * o.s;
  }

  dnnl_primitive_t primitive;
  check(dnnl_primitive_create(&primitive, pd), "primitive");
  const char *impl = "";
  dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  double *times = malloc(sizeof(double) * o.repetitions);
  if (!times) {
    fprintf(stderr, "onednn-conv: out of memory\n");
    return 1;
  }
  for (long call = 0; call < o.warmup + o.repetitions; ++call) {
    double start = bench_now_ms();
    check(dnnl_primitive_execute(primitive, stream, nargs, args), "execute");
    check(dnnl_stream_wait(stream), "wait");
    double end = bench_now_ms();
    if (call >= o.warmup)
      times[call - o.warmup] = end - start;
  }
  long reps = o.repetitions;
  double median = bench_median(times, reps);
  printf("{\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, "
         "\"gflops\": %.3f, \"implementation\": \"%s\"}\n",
         median, times[0], times[reps - 1], flops / (median * 1e6), impl);
  for (int i = 0; i < nargs; ++i) {
    void *data = NULL;
    dnnl_memory_get_data_handle(args[i].memory, &data);
    dnnl_memory_destroy(args[i].memory);
    free(data);
  }
  dnnl_primitive_destroy(primitive);
  dnnl_primitive_desc_destroy(pd);
  dnnl_stream_destroy(stream);
  dnnl_engine_destroy(engine);
  free(times);
  return 0;
}

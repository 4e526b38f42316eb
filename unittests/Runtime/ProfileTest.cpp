//===- ProfileTest.cpp - Dispatch profiles and traces ---------------------===//
//
// The dispatch table a module's metadata lists, the profile counted under
// it while the runtime profiles (and not otherwise), the trace of calls,
// dispatches and each thread's workgroups, and the metadata the parser
// refuses.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestSupport.h"

#include <string>
#include <vector>

// From the runtime's internal.h: the metadata parser without a module.
extern "C" kiln_error *kiln_module_check_info(kiln_runtime *runtime,
                                              const char *text);

namespace {

using namespace kiln_test;

/// Calls the fake module's `scale` on `rows` rows and releases the output.
void scaleRows(kiln_module *module, int64_t rows) {
  std::vector<float> values(rows * 4, 1.0f);
  kiln_buffer *output = nullptr;
  ASSERT_EQ(callScale(module, values, rows, &output), "");
  kiln_buffer_release(output);
}

TEST_F(RuntimeTest, ListsTheDispatchTable) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  ASSERT_EQ(kiln_module_dispatch_count(module), 2u);
  kiln_dispatch_profile scale = kiln_module_dispatch(module, 0);
  EXPECT_STREQ(scale.name, "scale_rows");
  EXPECT_STREQ(scale.op, "linalg.generic");
  EXPECT_STREQ(scale.loops, "?x4");
  EXPECT_STREQ(scale.element_type, "f32");
  EXPECT_EQ(scale.flops, 8);
  EXPECT_EQ(scale.bytes, 32);
  kiln_dispatch_profile never = kiln_module_dispatch(module, 1);
  EXPECT_STREQ(never.name, "never_run");
  EXPECT_STREQ(never.op, "?");
  kiln_dispatch_profile past = kiln_module_dispatch(module, 2);
  EXPECT_EQ(past.name, nullptr);
  EXPECT_EQ(past.calls, 0u);
}

TEST_F(RuntimeTest, CountsNothingWhileNotProfiling) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  EXPECT_EQ(kiln_runtime_profiling(runtime), KILN_PROFILING_OFF);
  scaleRows(module, 8);
  EXPECT_EQ(kiln_module_dispatch(module, 0).calls, 0u);
  EXPECT_EQ(kiln_module_dispatch(module, 0).total_ns, 0u);
  EXPECT_EQ(kiln_runtime_trace_event_count(runtime), 0u);
}

TEST_F(RuntimeTest, CountsEveryDispatchWhileProfiling) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  ASSERT_EQ(errorOf([&] {
              return kiln_runtime_set_profiling(runtime,
                                                KILN_PROFILING_DISPATCHES);
            }),
            "");
  for (int call = 0; call < 3; ++call)
    scaleRows(module, 64);
  // A dispatch outside the table (KILN_DISPATCH_UNKNOWN) runs, uncounted.
  const kiln_function *scratch = kiln_module_find_function(module, "scratch");
  int64_t dims[1] = {1}, bytes = 64;
  kiln_buffer *input = nullptr;
  ASSERT_EQ(errorOf([&] {
              return kiln_buffer_create_from_data(
                  KILN_ELEMENT_I64, 1, dims, &bytes, sizeof(bytes), &input);
            }),
            "");
  EXPECT_EQ(errorOf([&] {
              return kiln_function_call(scratch, &input, 1, nullptr, 0);
            }),
            "");
  kiln_buffer_release(input);

  kiln_dispatch_profile scale = kiln_module_dispatch(module, 0);
  EXPECT_EQ(scale.calls, 3u);
  EXPECT_GT(scale.total_ns, 0u);
  EXPECT_EQ(kiln_module_dispatch(module, 1).calls, 0u);
  // Dispatches only: no trace.
  EXPECT_EQ(kiln_runtime_trace_event_count(runtime), 0u);

  // Off again: the counts stay, and grow no more.
  ASSERT_EQ(errorOf([&] {
              return kiln_runtime_set_profiling(runtime, KILN_PROFILING_OFF);
            }),
            "");
  scaleRows(module, 64);
  EXPECT_EQ(kiln_module_dispatch(module, 0).calls, 3u);
  kiln_module_reset_profile(module);
  EXPECT_EQ(kiln_module_dispatch(module, 0).calls, 0u);
  EXPECT_EQ(kiln_module_dispatch(module, 0).total_ns, 0u);
}

TEST_F(RuntimeTest, TracesCallsDispatchesAndEachThreadsShare) {
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  ASSERT_EQ(errorOf([&] {
              return kiln_runtime_set_profiling(runtime, KILN_PROFILING_TRACE);
            }),
            "");
  const int64_t rows = 4097; // one workgroup per row
  scaleRows(module, rows);
  ASSERT_EQ(errorOf([&] {
              return kiln_runtime_set_profiling(runtime, KILN_PROFILING_OFF);
            }),
            "");
  size_t count = kiln_runtime_trace_event_count(runtime);
  const kiln_trace_event *call = nullptr, *dispatch = nullptr;
  std::vector<const kiln_trace_event *> shares;
  for (size_t i = 0; i < count; ++i) {
    const kiln_trace_event *event = kiln_runtime_trace_event(runtime, i);
    ASSERT_NE(event, nullptr);
    EXPECT_GE(event->thread, 0);
    EXPECT_LT(event->thread, 2);
    EXPECT_LE(event->begin_ns, event->end_ns);
    if (event->kind == KILN_TRACE_CALL)
      call = event;
    else if (event->kind == KILN_TRACE_DISPATCH)
      dispatch = event;
    else
      shares.push_back(event);
  }
  EXPECT_EQ(kiln_runtime_trace_event(runtime, count), nullptr);
  ASSERT_NE(call, nullptr);
  ASSERT_NE(dispatch, nullptr);
  EXPECT_EQ(call->thread, 0);
  EXPECT_STREQ(kiln_function_name(call->function), "scale");
  EXPECT_EQ(dispatch->thread, 0);
  EXPECT_EQ(dispatch->module, module);
  EXPECT_EQ(dispatch->dispatch, 0u);
  EXPECT_EQ(dispatch->workgroups, static_cast<uint64_t>(rows));
  EXPECT_LE(call->begin_ns, dispatch->begin_ns);
  EXPECT_GE(call->end_ns, dispatch->end_ns);
  // Every workgroup is in exactly one thread's share, within the dispatch.
  uint64_t workgroups = 0;
  for (const kiln_trace_event *share : shares) {
    EXPECT_EQ(share->dispatch, 0u);
    EXPECT_GE(share->begin_ns, dispatch->begin_ns);
    EXPECT_LE(share->end_ns, dispatch->end_ns);
    workgroups += share->workgroups;
  }
  EXPECT_EQ(workgroups, static_cast<uint64_t>(rows));
  EXPECT_EQ(kiln_runtime_trace_dropped(runtime), 0u);

  kiln_runtime_reset_trace(runtime);
  EXPECT_EQ(kiln_runtime_trace_event_count(runtime), 0u);
}

TEST_F(RuntimeTest, DropsTraceEventsPastTheLimit) {
  restart({1, 0});
  ASSERT_EQ(load(KILN_FAKE_MODULE), "");
  ASSERT_EQ(errorOf([&] {
              return kiln_runtime_set_profiling(runtime, KILN_PROFILING_TRACE);
            }),
            "");
  // A call, its dispatch and the one thread's share: 3 events a call.
  size_t calls = KILN_TRACE_MAX_EVENTS / 3 + 10;
  for (size_t call = 0; call < calls; ++call)
    scaleRows(module, 1);
  EXPECT_EQ(kiln_runtime_trace_event_count(runtime), KILN_TRACE_MAX_EVENTS);
  EXPECT_EQ(kiln_runtime_trace_dropped(runtime),
            3 * calls - KILN_TRACE_MAX_EVENTS);
  // The profile is not limited.
  EXPECT_EQ(kiln_module_dispatch(module, 0).calls, calls);
}

TEST_F(RuntimeTest, RefusesUnknownProfilingModes) {
  std::string message = errorOf([&] {
    return kiln_runtime_set_profiling(runtime, static_cast<kiln_profiling>(7));
  });
  EXPECT_TRUE(contains(message, "unknown profiling mode 7")) << message;
  EXPECT_EQ(kiln_runtime_profiling(runtime), KILN_PROFILING_OFF);
}

TEST_F(RuntimeTest, RefusesMalformedDispatchLines) {
  std::string header = "kiln-module " +
                       std::to_string(KILN_MODULE_ABI_VERSION) +
                       "\ntarget x86_64-unknown-linux-gnu generic\n"
                       "features -\n";
  auto check = [&](const std::string &lines) {
    std::string text = header + lines;
    return errorOf(
        [&] { return kiln_module_check_info(runtime, text.c_str()); });
  };
  EXPECT_EQ(check("dispatch d 2 8 linalg.matmul 1x2x3 f32\n"), "");
  EXPECT_TRUE(contains(check("dispatch d -2 8 linalg.matmul 1x2x3 f32\n"),
                       "metadata line 4: malformed dispatch 'd': its FLOPs "
                       "and bytes must be non-negative integers"));
  EXPECT_TRUE(contains(check("dispatch d 2 x linalg.matmul 1x2x3 f32\n"),
                       "malformed dispatch 'd'"));
  EXPECT_TRUE(contains(check("dispatch d 2 8 linalg.matmul 1x2x3\n"),
                       "metadata line 4: unexpected 'dispatch'"));
  EXPECT_TRUE(
      contains(check("function f malloc 0\ndispatch d 2 8 a b c\nend\n"),
               "metadata line 5: unexpected 'dispatch'"));
}

} // namespace

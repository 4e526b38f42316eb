//===- ExecutorTest.cpp - Running candidate jobs --------------------------===//
//
// Job arguments expand "{NAME}" to the job's files and leave other braces;
// a step succeeds only with exit 0 and, when asked, a word in its errors;
// the local executor runs a job's steps in order, stops after the first
// that fails, reports every job once, and removes the modules it made.
// The steps here are sh commands standing in for Kiln's tools.
//
//===----------------------------------------------------------------------===//

#include "kiln/Tuner/Executor.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>

using namespace kiln;

namespace {

JobStep shell(const std::string &script) {
  JobStep step;
  step.argv = {"sh", "-c", script};
  step.timeout = std::chrono::seconds(30);
  return step;
}

class ExecutorTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-executor", path));
    folder = std::string(path);
  }
  void TearDown() override { std::filesystem::remove_all(folder); }
  std::string folder;
};

TEST(JobArguments, ExpandsFilesAndKeepsOtherBraces) {
  std::vector<std::string> argv = expandJobArguments(
      {"kiln-compile", "{dispatch.mlir}", "--spec={spec.mlir}",
       "--pass=canonicalize{max-iterations=2}", "{a.npy}{b.npy}"},
      {{"dispatch.mlir", "/w/d.mlir"},
       {"spec.mlir", "/w/s.mlir"},
       {"a.npy", "/w/a"},
       {"b.npy", "/w/b"}});
  EXPECT_EQ(argv, (std::vector<std::string>{
                      "kiln-compile", "/w/d.mlir", "--spec=/w/s.mlir",
                      "--pass=canonicalize{max-iterations=2}", "/w/a/w/b"}));
}

TEST(JobSteps, SuccessNeedsTheReportAskedFor) {
  JobStep step = shell("true");
  ToolRun run;
  run.ok = true;
  run.errors = "tuning: configured by user spec x.mlir";
  EXPECT_TRUE(stepSucceeded(step, run));
  step.mustReport = "configured by user spec";
  EXPECT_TRUE(stepSucceeded(step, run));
  run.errors = "tuning: configured by the heuristic";
  EXPECT_FALSE(stepSucceeded(step, run));
  run.ok = false;
  run.errors = "configured by user spec";
  EXPECT_FALSE(stepSucceeded(step, run));
}

TEST_F(ExecutorTest, RunsStepsInOrderAndStopsAtAFailure) {
  std::string input = folder + "/input.txt";
  { std::ofstream(input) << "42\n"; }
  std::vector<CandidateJob> jobs(3);
  // 0: all three steps; the check reads the module the compile wrote.
  jobs[0].name = "good";
  jobs[0].inputs["input.txt"] = input;
  jobs[0].compile = shell("cat {input.txt} > {module.so}; echo configured >&2");
  jobs[0].compile.mustReport = "configured";
  jobs[0].check = shell("grep -q 42 {module.so}");
  jobs[0].time = shell("echo '{\"median_ms\": 1.5}'");
  // 1: a compile that does not report: no check, no timing.
  jobs[1].name = "silent";
  jobs[1].compile = shell(": > {module.so}");
  jobs[1].compile.mustReport = "configured";
  jobs[1].check = shell("true");
  jobs[1].time = shell("true");
  // 2: a failing check: no timing.
  jobs[2].name = "wrong";
  jobs[2].compile = shell(": > {module.so}; echo configured >&2");
  jobs[2].compile.mustReport = "configured";
  jobs[2].check = shell("echo 'output 0 differs from' >&2; exit 1");
  jobs[2].time = shell("true");

  std::unique_ptr<CandidateExecutor> executor =
      createLocalExecutor(folder, /*compileJobs=*/2);
  std::vector<std::optional<CandidateRun>> runs(jobs.size());
  ASSERT_FALSE(
      llvm::errorToBool(executor->run(jobs, [&](size_t i, CandidateRun run) {
        ASSERT_FALSE(runs[i].has_value()) << "job " << i << " reported twice";
        runs[i] = std::move(run);
      })));
  for (const std::optional<CandidateRun> &run : runs)
    ASSERT_TRUE(run.has_value());

  ASSERT_TRUE(runs[0]->compile);
  ASSERT_TRUE(runs[0]->compile->ok) << runs[0]->compile->failure;
  ASSERT_TRUE(runs[0]->check && runs[0]->time);
  EXPECT_TRUE(runs[0]->check->ok);
  EXPECT_EQ(parseLastJsonObject(runs[0]->time->output)->getNumber("median_ms"),
            1.5);
  EXPECT_EQ(runs[0]->worker, "local");
  EXPECT_TRUE(runs[0]->machine.empty()); // here: the record says so

  EXPECT_TRUE(runs[1]->compile && runs[1]->compile->ok);
  EXPECT_FALSE(runs[1]->check);
  EXPECT_FALSE(runs[1]->time);

  ASSERT_TRUE(runs[2]->check);
  EXPECT_FALSE(runs[2]->check->ok);
  EXPECT_NE(runs[2]->check->failure.find("sh exited with status 1: output 0 "
                                         "differs from"),
            std::string::npos)
      << runs[2]->check->failure;
  EXPECT_FALSE(runs[2]->time);

  // The modules are gone; the input stays.
  for (const char *name : {"good.so", "silent.so", "wrong.so"})
    EXPECT_FALSE(llvm::sys::fs::exists(folder + "/" + name)) << name;
  EXPECT_TRUE(llvm::sys::fs::exists(input));
}

TEST_F(ExecutorTest, ATimeoutIsReportedAsOne) {
  std::vector<CandidateJob> jobs(1);
  jobs[0].name = "slow";
  jobs[0].inputs["module.so"] = folder + "/none.so";
  jobs[0].time = shell("sleep 30");
  jobs[0].time.timeout = std::chrono::milliseconds(300);
  std::unique_ptr<CandidateExecutor> executor = createLocalExecutor(folder);
  std::optional<CandidateRun> result;
  ASSERT_FALSE(llvm::errorToBool(executor->run(
      jobs, [&](size_t, CandidateRun run) { result = std::move(run); })));
  ASSERT_TRUE(result && result->time);
  EXPECT_TRUE(result->time->timedOut);
  EXPECT_NE(result->time->failure.find("timed out"), std::string::npos);
}

} // namespace

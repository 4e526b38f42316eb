//===- OptionsBinderTest.cpp - Options bound to a session's structs -------===//
//
// A local binder parses flags into the fields it bound, in every form the
// command line takes, without touching LLVM's process-wide options; two
// local binders of the same names coexist.
//
//===----------------------------------------------------------------------===//

#include "kiln/Options/OptionsBinder.h"
#include "kiln/Pipeline/Pipeline.h"
#include "gtest/gtest.h"

using namespace kiln;

namespace {

struct Sample {
  bool flag = false;
  std::string name = "default";
  int64_t count = 7;
  unsigned jobs = 0;
  double seconds = 1.5;
  std::vector<std::string> list = {"first-default"};

  void bindOptions(OptionsBinder &binder) {
    binder.category("Sample");
    binder.opt("sample-flag", flag, llvm::cl::desc("a flag"));
    binder.opt("sample-name", name, llvm::cl::desc("a name"));
    binder.opt("sample-count", count, llvm::cl::desc("a count"));
    binder.opt("sample-jobs", jobs, llvm::cl::desc("jobs"));
    binder.opt("sample-seconds", seconds, llvm::cl::desc("seconds"));
    binder.list("sample-list", list, llvm::cl::desc("a list"),
                llvm::cl::CommaSeparated);
  }
};

std::string errorText(llvm::Error error) {
  return llvm::toString(std::move(error));
}

TEST(OptionsBinder, LocalParsesEveryForm) {
  Sample sample;
  OptionsBinder binder = OptionsBinder::local();
  sample.bindOptions(binder);
  // Defaults until given.
  EXPECT_FALSE(sample.flag);
  EXPECT_EQ(sample.name, "default");
  ASSERT_FALSE(static_cast<bool>(binder.parseArguments(
      {"--sample-flag", "-sample-name=x", "--sample-count", "-3",
       "--sample-jobs=0x10", "--sample-seconds=2.25", "--sample-list=a,b",
       "--sample-list", "c"})));
  EXPECT_TRUE(sample.flag);
  EXPECT_EQ(sample.name, "x");
  EXPECT_EQ(sample.count, -3);
  EXPECT_EQ(sample.jobs, 16u);
  EXPECT_EQ(sample.seconds, 2.25);
  // The default list is replaced, not extended.
  EXPECT_EQ(sample.list, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_FALSE(
      static_cast<bool>(binder.parseArguments({"--sample-flag=false"})));
  EXPECT_FALSE(sample.flag);
}

TEST(OptionsBinder, LocalErrorsNameTheFlag) {
  Sample sample;
  OptionsBinder binder = OptionsBinder::local();
  sample.bindOptions(binder);
  EXPECT_EQ(errorText(binder.parseArguments({"--sample-count=many"})),
            "--sample-count='many': expected an integer");
  EXPECT_EQ(errorText(binder.parseArguments({"--sample-jobs=-1"})),
            "--sample-jobs='-1': expected a non-negative integer");
  EXPECT_EQ(errorText(binder.parseArguments({"--sample-flag=maybe"})),
            "--sample-flag='maybe': expected true or false");
  EXPECT_EQ(errorText(binder.parseArguments({"--sample-seconds=soon"})),
            "--sample-seconds='soon': expected a number");
  EXPECT_EQ(errorText(binder.parseArguments({"--sample-name"})),
            "--sample-name needs a value");
  EXPECT_EQ(errorText(binder.parseArguments({"--no-such"})),
            "unknown flag '--no-such'");
  EXPECT_EQ(errorText(binder.parseArguments({"value"})),
            "'value' is not a flag (flags start with --)");
}

// Two sessions' options of the same names, each with its own values, and
// none of them on the process's command line.
TEST(OptionsBinder, LocalBindersAreIndependent) {
  PipelineOptions first, second;
  OptionsBinder firstBinder = OptionsBinder::local();
  OptionsBinder secondBinder = OptionsBinder::local();
  first.bindOptions(firstBinder);
  second.bindOptions(secondBinder);
  ASSERT_FALSE(static_cast<bool>(firstBinder.parseArguments(
      {"--kiln-target-cpu=znver4", "--kiln-target=llvm-cpu,other"})));
  ASSERT_FALSE(static_cast<bool>(
      secondBinder.parseArguments({"--kiln-tuning-spec=a.mlir"})));
  EXPECT_EQ(first.target.cpus, (std::vector<std::string>{"znver4"}));
  EXPECT_EQ(first.target.backends,
            (std::vector<std::string>{"llvm-cpu", "other"}));
  EXPECT_EQ(second.target.cpus, (std::vector<std::string>{"host"}));
  EXPECT_EQ(second.target.backends, (std::vector<std::string>{"llvm-cpu"}));
  EXPECT_EQ(second.tuning.specFiles, (std::vector<std::string>{"a.mlir"}));
  EXPECT_TRUE(first.tuning.specFiles.empty());
  EXPECT_EQ(llvm::cl::getRegisteredOptions().count("kiln-target-cpu"), 0u);
}

} // namespace

//===- DatabaseTest.cpp - The autotuner's database ------------------------===//
//
// Records round-trip through their JSON lines; damaged lines (not JSON, a
// field missing, another format, cut short) are skipped with a warning
// naming the line while the rest is read; appends after a cut line start
// a line of their own; two processes appending at once lose nothing; the
// best record of each workload and CPU; paths that are no regular file.
//
//===----------------------------------------------------------------------===//

#include "kiln/Tuner/Database.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace kiln;

namespace {

Measurement makeMeasurement(const std::string &key, const std::string &cpu,
                            double ms, bool baseline = false) {
  Measurement m;
  m.key = key;
  m.workload = "linalg.matmul 64x64x128 f32";
  m.cpu = cpu;
  m.features = "+avx2,+fma";
  m.config = "#kiln.lowering_config<pipeline = \"cpu-contraction\", "
             "register = [4, 16, 1]>";
  m.baseline = baseline;
  m.compileStatus = "ok";
  m.runStatus = ms > 0 ? "ok" : "failed";
  m.timesMs = {ms, ms};
  m.medianMs = ms;
  m.buildId = "test";
  m.machine = "test machine";
  m.date = "2026-11-27T00:00:00Z";
  return m;
}

class DatabaseTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("kiln-db-test", dir));
    folder = std::string(dir);
    path = folder + "/db.jsonl";
  }
  // std::filesystem: llvm::sys::fs::remove_directories leaves FIFOs.
  void TearDown() override { std::filesystem::remove_all(folder); }
  std::string line(const Measurement &m) {
    std::string text;
    llvm::raw_string_ostream(text) << toJSON(m);
    return text;
  }
  std::string folder, path;
};

TEST_F(DatabaseTest, RoundTrips) {
  Measurement m = makeMeasurement("kw1-0123456789abcdef", "znver3", 1.5, true);
  m.error = "none";
  ASSERT_FALSE(bool(TuningDatabase::append(path, m)));
  auto database = TuningDatabase::read(path);
  ASSERT_TRUE(bool(database));
  ASSERT_EQ(database->getMeasurements().size(), 1u);
  EXPECT_TRUE(database->getWarnings().empty());
  const Measurement &back = database->getMeasurements().front();
  EXPECT_EQ(line(back), line(m));
  EXPECT_TRUE(back.baseline);
  EXPECT_TRUE(back.succeeded());
}

TEST_F(DatabaseTest, MissingFileIsEmpty) {
  auto database = TuningDatabase::read(folder + "/none.jsonl");
  ASSERT_TRUE(bool(database));
  EXPECT_TRUE(database->getMeasurements().empty());
}

TEST_F(DatabaseTest, SkipsDamagedLinesAndSaysWhich) {
  Measurement good = makeMeasurement("kw1-0123456789abcdef", "znver3", 1.0);
  std::string other = line(good);
  other.replace(other.find("\"format\":1"), 10, "\"format\":7");
  std::string missing = line(good);
  missing.replace(missing.find("\"key\""), 5, "\"kee\"");
  {
    std::ofstream file(path);
    file << line(good) << "\n"
         << "{\"format\": 1, \"key\": \n" // line 2: not JSON
         << other << "\n"                 // line 3: another format
         << missing << "\n"               // line 4: no key
         << "\n"                          // line 5: empty, fine
         << "[1, 2]\n"                    // line 6: not an object
         << line(good) << "\n"            // line 7
         << line(good).substr(0, 40);     // line 8: cut short
  }
  auto database = TuningDatabase::read(path);
  ASSERT_TRUE(bool(database));
  EXPECT_EQ(database->getMeasurements().size(), 2u);
  const std::vector<std::string> &warnings = database->getWarnings();
  ASSERT_EQ(warnings.size(), 5u);
  EXPECT_NE(warnings[0].find("db.jsonl:2: skipped: not JSON"),
            std::string::npos)
      << warnings[0];
  EXPECT_NE(warnings[1].find(":3: skipped: format 7, this Kiln reads format 1"),
            std::string::npos)
      << warnings[1];
  EXPECT_NE(warnings[2].find(":4: skipped: no string \"key\""),
            std::string::npos)
      << warnings[2];
  EXPECT_NE(warnings[3].find(":6: skipped: not a JSON object"),
            std::string::npos)
      << warnings[3];
  EXPECT_NE(warnings[4].find(":8: skipped: the line is incomplete"),
            std::string::npos)
      << warnings[4];

  // An append after the cut line starts a line of its own.
  ASSERT_FALSE(bool(TuningDatabase::append(path, good)));
  database = TuningDatabase::read(path);
  ASSERT_TRUE(bool(database));
  EXPECT_EQ(database->getMeasurements().size(), 3u);
  EXPECT_NE(database->getWarnings().back().find(":8: skipped: not JSON"),
            std::string::npos)
      << database->getWarnings().back();
}

TEST_F(DatabaseTest, ConcurrentAppendsLoseNothing) {
  constexpr int kProcesses = 2, kRecords = 300;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (int i = 0; i < kRecords; ++i) {
        Measurement m = makeMeasurement(
            "kw1-000000000000000" + std::to_string(p), "znver3", 1.0 + i);
        if (TuningDatabase::append(path, m)) // an error: exit 1
          _exit(1);
      }
      _exit(0);
    }
    children.push_back(child);
  }
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  auto database = TuningDatabase::read(path);
  ASSERT_TRUE(bool(database));
  EXPECT_TRUE(database->getWarnings().empty());
  EXPECT_EQ(database->getMeasurements().size(), size_t(kProcesses * kRecords));
}

TEST_F(DatabaseTest, BestRecordPerWorkloadAndCPU) {
  std::vector<Measurement> all = {
      makeMeasurement("kw1-aaaaaaaaaaaaaaaa", "znver3", 2.0, true),
      makeMeasurement("kw1-aaaaaaaaaaaaaaaa", "znver3", 1.5),
      makeMeasurement("kw1-aaaaaaaaaaaaaaaa", "znver3", 0), // failed
      makeMeasurement("kw1-aaaaaaaaaaaaaaaa", "znver3", 1.7),
      makeMeasurement("kw1-aaaaaaaaaaaaaaaa", "znver5", 0.5),
      makeMeasurement("kw1-bbbbbbbbbbbbbbbb", "znver3", 0), // only failures
  };
  std::vector<BestRecord> best = findBestRecords(all);
  ASSERT_EQ(best.size(), 3u);
  EXPECT_EQ(best[0].best, &all[1]);
  EXPECT_EQ(best[0].baseline, &all[0]);
  EXPECT_EQ(best[0].count, 4u);
  EXPECT_EQ(best[1].best, &all[4]);
  EXPECT_EQ(best[1].baseline, nullptr);
  EXPECT_EQ(best[2].best, nullptr);
  EXPECT_EQ(best[2].first, &all[5]);
}

TEST_F(DatabaseTest, RefusesPathsThatAreNoRegularFile) {
  Measurement m = makeMeasurement("kw1-0123456789abcdef", "znver3", 1.0);
  llvm::Error error = TuningDatabase::append(folder, m);
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("cannot"), std::string::npos);
  auto database = TuningDatabase::read(folder);
  ASSERT_FALSE(bool(database));
  EXPECT_NE(llvm::toString(database.takeError()).find("not a regular file"),
            std::string::npos);
  // A FIFO neither blocks a reader nor a writer.
  std::string fifo = folder + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  database = TuningDatabase::read(fifo);
  ASSERT_FALSE(bool(database));
  llvm::consumeError(database.takeError());
  error = TuningDatabase::append(fifo, m);
  ASSERT_TRUE(bool(error));
  llvm::consumeError(std::move(error));
}

} // namespace

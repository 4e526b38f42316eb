//===- CompileStatistics.cpp - Where one compile spent its time -----------===//

#include "kiln/Instrumentation/CompileStatistics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::CompileStatistics)

CompileStatistics::Executable &
CompileStatistics::getExecutable(llvm::StringRef name) {
  auto [it, inserted] = executables.try_emplace(name);
  if (inserted)
    executableOrder.push_back(name.str());
  return it->second;
}

void CompileStatistics::beginPhase(llvm::StringRef name, size_t count) {
  std::lock_guard<std::mutex> lock(mutex);
  Clock::time_point now = Clock::now();
  if (!phase.empty())
    phases.push_back(
        {phase, std::chrono::duration<double>(now - phaseStart).count()});
  phase = name.str();
  phaseStart = now;
  executableCount = count;
  doneInPhase = 0;
}

void CompileStatistics::endPhase() {
  std::lock_guard<std::mutex> lock(mutex);
  if (phase.empty())
    return;
  phases.push_back({phase, secondsSince(phaseStart)});
  phase.clear();
}

void CompileStatistics::recordCodegen(llvm::StringRef name, double seconds) {
  std::lock_guard<std::mutex> lock(mutex);
  getExecutable(name).codegenSeconds = seconds;
  ++doneInPhase;
}

void CompileStatistics::recordObject(llvm::StringRef name, double seconds) {
  std::lock_guard<std::mutex> lock(mutex);
  getExecutable(name).llvmSeconds = seconds;
  ++doneInPhase;
}

void CompileStatistics::recordCacheLookup(llvm::StringRef name, bool hit) {
  std::lock_guard<std::mutex> lock(mutex);
  getExecutable(name).cacheHit = hit;
}

void CompileStatistics::recordStep(llvm::StringRef name, double seconds) {
  std::lock_guard<std::mutex> lock(mutex);
  steps.push_back({name.str(), seconds});
}

CompileStatistics::Progress CompileStatistics::getProgress() const {
  std::lock_guard<std::mutex> lock(mutex);
  Progress progress;
  progress.phase = phase;
  progress.countsExecutables =
      phase == "executable-codegen" || phase == "serialization";
  progress.done = std::min(doneInPhase, executableCount);
  progress.total = executableCount;
  return progress;
}

llvm::json::Value CompileStatistics::toJSON() const {
  std::lock_guard<std::mutex> lock(mutex);
  auto seconds = [](double value) -> llvm::json::Value {
    if (value < 0)
      return nullptr;
    return value;
  };
  llvm::json::Array phaseList;
  for (const PhaseTime &entry : phases)
    phaseList.push_back(
        llvm::json::Object{{"name", entry.name}, {"seconds", entry.seconds}});
  llvm::json::Array stepList;
  for (const PhaseTime &entry : steps)
    stepList.push_back(
        llvm::json::Object{{"name", entry.name}, {"seconds", entry.seconds}});
  llvm::json::Array executableList;
  size_t hits = 0, misses = 0;
  // By name (dispatch_2 before dispatch_10), not in the order threads
  // finished them.
  std::vector<std::string> names = executableOrder;
  llvm::sort(names, [](const std::string &a, const std::string &b) {
    return llvm::StringRef(a).compare_numeric(b) < 0;
  });
  for (const std::string &name : names) {
    const Executable &entry = executables.find(name)->second;
    llvm::json::Value cache = nullptr;
    if (entry.cacheHit >= 0) {
      cache = entry.cacheHit ? "hit" : "miss";
      (entry.cacheHit ? hits : misses)++;
    }
    executableList.push_back(
        llvm::json::Object{{"name", name},
                           {"codegen_seconds", seconds(entry.codegenSeconds)},
                           {"llvm_seconds", seconds(entry.llvmSeconds)},
                           {"cache", std::move(cache)}});
  }
  return llvm::json::Object{
      {"total_seconds", secondsSince(start)},
      {"phases", std::move(phaseList)},
      {"steps", std::move(stepList)},
      {"object_cache",
       llvm::json::Object{{"hits", static_cast<int64_t>(hits)},
                          {"misses", static_cast<int64_t>(misses)}}},
      {"executables", std::move(executableList)}};
}

void CompileStatistics::printSummary(llvm::raw_ostream &os) const {
  std::lock_guard<std::mutex> lock(mutex);
  os << "===" << std::string(73, '-') << "===\n"
     << "                    ... Kiln compile statistics ...\n"
     << "===" << std::string(73, '-') << "===\n";
  for (const PhaseTime &entry : phases)
    os << llvm::format("  %9.4f s  phase %s\n", entry.seconds,
                       entry.name.c_str());
  for (const PhaseTime &entry : steps)
    os << llvm::format("  %9.4f s  %s\n", entry.seconds, entry.name.c_str());
  double codegen = 0, llvmTime = 0;
  size_t lowered = 0, compiled = 0, hits = 0, misses = 0;
  for (const auto &entry : executables) {
    const Executable &executable = entry.second;
    if (executable.codegenSeconds >= 0) {
      codegen += executable.codegenSeconds;
      ++lowered;
    }
    if (executable.llvmSeconds >= 0) {
      llvmTime += executable.llvmSeconds;
      ++compiled;
    }
    if (executable.cacheHit >= 0)
      (executable.cacheHit ? hits : misses)++;
  }
  os << llvm::format("  %zu executables: codegen of %zu took %.4f s, LLVM "
                     "on %zu %.4f s (summed over threads)\n",
                     executables.size(), lowered, codegen, compiled, llvmTime);
  if (hits + misses)
    os << llvm::format("  object cache: %zu hits, %zu misses\n", hits, misses);
}

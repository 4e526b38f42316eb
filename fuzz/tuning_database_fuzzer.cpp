//===- tuning_database_fuzzer.cpp - Any tuning database, read and exported ===//
//
// The input is a tuning database file (kiln-tune's JSON lines): read as
// `kiln-tune db list` reads it, every measurement written back and read
// again (what a line says must survive the round trip), then the best
// records exported as `db export` exports them and the spec loaded as the
// compiler loads one. A line that does not parse is a warning; a crash, a
// sanitizer report, a hang, runaway memory or a measurement that changes on
// the round trip is a bug.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Tuner/Database.h"
#include "kiln/Tuner/SpecWriter.h"
#include "kiln/TuningSpecs/TransformOps.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

/// The dialects kiln-tune reads specs with (it links the libraries it
/// needs, not libKilnCompiler.so; so does this target).
static mlir::DialectRegistry &getRegistry() {
  static mlir::DialectRegistry *registry = [] {
    auto *registry = new mlir::DialectRegistry;
    mlir::registerAllDialects(*registry);
    mlir::registerAllExtensions(*registry);
    registry->insert<kiln::KilnDialect>();
    kiln::registerTransformExtension(*registry);
    return registry;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)getRegistry();
  return 0;
}

/// Whether `a` and `b` say the same (times compared as JSON numbers).
static bool same(const kiln::Measurement &a, const kiln::Measurement &b) {
  return a.key == b.key && a.workload == b.workload && a.cpu == b.cpu &&
         a.features == b.features && a.config == b.config &&
         a.baseline == b.baseline && a.compileStatus == b.compileStatus &&
         a.runStatus == b.runStatus && a.error == b.error &&
         a.compileSeconds == b.compileSeconds && a.timesMs == b.timesMs &&
         a.medianMs == b.medianMs && a.buildId == b.buildId &&
         a.machine == b.machine && a.date == b.date && a.worker == b.worker;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef contents(reinterpret_cast<const char *>(data), size);
  kiln::TuningDatabase database =
      kiln::TuningDatabase::parse(contents, "<fuzz input>");
  for (const kiln::Measurement &measurement : database.getMeasurements()) {
    std::string line;
    llvm::raw_string_ostream os(line);
    os << kiln::toJSON(measurement);
    os.flush();
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value)
      __builtin_trap(); // Kiln wrote JSON it cannot read.
    kiln::Measurement again;
    std::string why;
    if (!kiln::fromJSON(*value, again, why) || !same(measurement, again))
      __builtin_trap(); // A measurement changed on its way to disk and back.
  }
  std::vector<kiln::SpecEntry> entries;
  for (const kiln::BestRecord &record :
       kiln::findBestRecords(database.getMeasurements()))
    if (record.best && !record.best->baseline)
      entries.push_back({record.best->key, record.best->workload,
                         record.best->config, record.best->machine});
  std::string spec = kiln::writeTuningSpec(entries, {"fuzz"});
  mlir::MLIRContext context(getRegistry(),
                            mlir::MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  (void)kiln::loadTuningSpec(&context, "<fuzz spec>", spec);
  return 0;
}

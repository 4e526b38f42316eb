//===- TuningLibrary.cpp - Tuning specs in the configuration phase --------===//
//
// MaterializeTuningLibrary gathers the specs (user files and
// KILN_TUNING_SPEC_PATH, then plugins, then the default for the target CPU),
// links them and attaches the library to the program as bytecode.
// ApplyTuningLibrary parses it once and applies a copy to the kernel module
// of every variant, in parallel, then drops it. ExplainTuning prints what
// configured each dispatch.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/TuningLibrary.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Support/WriteFile.h"
#include "kiln/Target/TargetBackend.h"
#include "kiln/TuningSpecs/DefaultSpecs.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Threading.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace kiln;

static bool hasVariants(ModuleOp module) {
  for (auto executable : module.getOps<ExecutableOp>())
    if (!executable.getVariantOps().empty())
      return true;
  return false;
}

/// Writes `op` to `path`; a failure is a warning (dumps are for debugging).
static void dump(Operation *op, llvm::StringRef path) {
  llvm::Error error = writeFile(path, [&](llvm::raw_ostream &os) {
    op->print(os);
    os << "\n";
    return llvm::Error::success();
  });
  if (error)
    op->emitWarning() << llvm::toString(std::move(error));
}

/// A file name for a spec's source description.
static std::string slug(llvm::StringRef text) {
  std::string name;
  for (char c : text) {
    bool keep = llvm::isAlnum(c) || c == '-' || c == '_';
    if (keep)
      name.push_back(c);
    else if (!name.empty() && name.back() != '_')
      name.push_back('_');
  }
  if (name.size() > 60)
    name = name.substr(name.size() - 60);
  return name;
}

namespace {

class MaterializeTuningLibraryPass
    : public PassWrapper<MaterializeTuningLibraryPass,
                         OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MaterializeTuningLibraryPass)

  explicit MaterializeTuningLibraryPass(TuningOptions options)
      : options(std::move(options)) {}
  StringRef getArgument() const override {
    return "kiln-materialize-tuning-library";
  }
  StringRef getDescription() const override {
    return "Link the tuning specs and attach the library to the program";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasVariants(module))
      return;
    std::vector<TuningSpecInput> common;
    std::vector<std::string> commonDumpNames; // one per input
    if (failed(loadUserAndPluginSpecs(module, common, commonDumpNames)))
      return signalPassFailure();

    // One library per CPU the variants are compiled for: the user's and
    // the plugins' specs, then that CPU's default chain.
    SmallVector<TargetAttr> cpuTargets = getVariantCPUTargets(module);
    bool perVariant = cpuTargets.size() > 1;
    for (TargetAttr target : cpuTargets) {
      std::vector<TuningSpecInput> inputs;
      for (TuningSpecInput &input : common)
        inputs.push_back({input.source, input.spec->clone()});
      std::vector<std::string> dumpNames = commonDumpNames;
      if (failed(loadDefaultSpecs(module, target, inputs, dumpNames)))
        return signalPassFailure();
      std::string dumpDir = options.dumpDir;
      if (perVariant && !dumpDir.empty()) {
        SmallString<256> path(dumpDir);
        llvm::sys::path::append(path, target.getCPU());
        dumpDir = path.str().str();
      }
      FailureOr<Attribute> library =
          buildLibrary(module, std::move(inputs), dumpNames, dumpDir,
                       perVariant ? target.getCPU() : StringRef());
      if (failed(library))
        return signalPassFailure();
      if (!*library)
        continue;
      if (!perVariant) {
        module->setAttr(KilnDialect::getTuningLibraryAttrName(), *library);
        continue;
      }
      for (auto executable : module.getOps<ExecutableOp>())
        for (auto variant : executable.getVariantOps())
          if (sameCPU(variant.getTarget(), target))
            variant->setAttr(KilnDialect::getTuningLibraryAttrName(), *library);
    }
  }

private:
  static bool sameCPU(TargetAttr a, TargetAttr b) {
    return a.getCPU() == b.getCPU() && a.getCPUFeatures() == b.getCPUFeatures();
  }

  /// The distinct CPUs (and features) of the module's variants, in order;
  /// the module's target when no variant names one.
  static SmallVector<TargetAttr> getVariantCPUTargets(ModuleOp module) {
    SmallVector<TargetAttr> targets;
    for (auto executable : module.getOps<ExecutableOp>())
      for (auto variant : executable.getVariantOps())
        if (!llvm::any_of(targets, [&](TargetAttr seen) {
              return sameCPU(seen, variant.getTarget());
            }))
          targets.push_back(variant.getTarget());
    if (targets.size() <= 1) {
      // One CPU: the module's target, as a program resumed from an
      // earlier phase says it.
      if (auto target = module->getAttrOfType<TargetAttr>(
              KilnDialect::getTargetAttrName()))
        return {target};
    }
    return targets;
  }

  /// The user's specs (flags, then KILN_TUNING_SPEC_PATH), then the
  /// plugins'; each failure is reported, and all are.
  LogicalResult loadUserAndPluginSpecs(ModuleOp module,
                                       std::vector<TuningSpecInput> &inputs,
                                       std::vector<std::string> &dumpNames) {
    MLIRContext *context = module.getContext();
    bool anyFailed = false;

    for (const std::string &file : options.specFiles) {
      OwningOpRef<ModuleOp> spec = loadTuningSpec(context, file);
      if (!spec) {
        module.emitError() << "--kiln-tuning-spec='" << file
                           << "' is not a tuning spec Kiln can use (see the "
                              "error above)";
        anyFailed = true;
        continue;
      }
      inputs.push_back({"user spec " + file, std::move(spec)});
      dumpNames.push_back("user-" + llvm::sys::path::stem(file).str());
    }
    for (const std::string &entry : options.searchPath) {
      std::vector<std::string> files;
      if (failed(expandSearchPathEntry(entry, files))) {
        module.emitError() << "KILN_TUNING_SPEC_PATH names '" << entry
                           << "', which is neither a folder nor a file";
        anyFailed = true;
        continue;
      }
      for (const std::string &file : files) {
        OwningOpRef<ModuleOp> spec = loadTuningSpec(context, file);
        if (!spec) {
          module.emitError() << "'" << file << "' (on KILN_TUNING_SPEC_PATH) "
                             << "is not a tuning spec Kiln can use (see the "
                                "error above)";
          anyFailed = true;
          continue;
        }
        inputs.push_back({"user spec " + file, std::move(spec)});
        dumpNames.push_back("user-" + llvm::sys::path::stem(file).str());
      }
    }
    for (const TuningOptions::PluginSpec &pluginSpec : options.pluginSpecs) {
      OwningOpRef<ModuleOp> spec =
          loadTuningSpec(context, pluginSpec.name, pluginSpec.contents);
      if (!spec) {
        module.emitError() << "the tuning spec '" << pluginSpec.name
                           << "' of plugin '" << pluginSpec.plugin
                           << "' is not one Kiln can use (see the error "
                              "above)";
        anyFailed = true;
        continue;
      }
      inputs.push_back({"plugin spec " + pluginSpec.name + " (plugin " +
                            pluginSpec.plugin + ")",
                        std::move(spec)});
      dumpNames.push_back("plugin-" + pluginSpec.plugin + "-" +
                          slug(pluginSpec.name));
    }
    return failure(anyFailed);
  }

  /// Kiln's default spec for `target`'s CPU, then each one it extends, each
  /// once; none with --kiln-no-default-tuning-specs.
  LogicalResult loadDefaultSpecs(ModuleOp module, TargetAttr target,
                                 std::vector<TuningSpecInput> &inputs,
                                 std::vector<std::string> &dumpNames) {
    MLIRContext *context = module.getContext();
    if (!options.noDefaults) {
      StringRef cpu = target ? target.getCPU() : "";
      StringRef features = target ? target.getCPUFeatures() : "";
      std::string why;
      const EmbeddedTuningSpec *chosen =
          &selectDefaultTuningSpec(cpu, features, why);
      // The chosen spec, then each one it extends, each once.
      llvm::StringSet<> loaded;
      for (; chosen && loaded.insert(chosen->name).second;
           chosen = findEmbeddedTuningSpec(chosen->extends)) {
        auto start = std::chrono::steady_clock::now();
        OwningOpRef<ModuleOp> spec =
            loadTuningSpec(context, chosen->path, chosen->getBytecode());
        double loadMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
        if (!spec) {
          module.emitError() << "Kiln's default tuning spec '" << chosen->name
                             << "' does not load (see above); compile with "
                                "--kiln-no-default-tuning-specs";
          return failure();
        }
        if (options.explain)
          llvm::errs() << "tuning: default spec '" << chosen->name << "' ("
                       << chosen->path << ") for CPU '" << cpu
                       << "', chosen by " << why << "; loaded in "
                       << llvm::format("%.3f", loadMs) << " ms\n";
        inputs.push_back({"default spec " + std::string(chosen->name) + " (" +
                              chosen->path + ")",
                          std::move(spec)});
        dumpNames.push_back("default-" + std::string(chosen->name));
        why = "'" + std::string(chosen->name) + "', which extends it";
      }
    }
    return success();
  }

  /// Links `inputs` into one library as bytecode in a dense resource; a
  /// null attribute when there is nothing to link. `cpu`, when set, says
  /// which of several CPUs' libraries this is.
  FailureOr<Attribute> buildLibrary(ModuleOp module,
                                    std::vector<TuningSpecInput> inputs,
                                    ArrayRef<std::string> dumpNames,
                                    StringRef dumpDir, StringRef cpu) {
    MLIRContext *context = module.getContext();
    if (options.explain) {
      llvm::errs() << "tuning: " << inputs.size() << " spec(s)"
                   << (cpu.empty() ? "" : " for the " + cpu.str() + " variants")
                   << ", first match wins:\n";
      for (auto [index, input] : llvm::enumerate(inputs))
        llvm::errs() << "tuning:   " << index + 1 << ". " << input.source
                     << "\n";
    }
    if (!dumpDir.empty()) {
      if (std::error_code error = llvm::sys::fs::create_directories(dumpDir)) {
        module.emitError() << "--kiln-dump-tuning-specs-to='" << dumpDir
                           << "': cannot create the folder: "
                           << error.message();
        return failure();
      }
      for (auto [index, input] : llvm::enumerate(inputs)) {
        SmallString<256> path(dumpDir);
        llvm::sys::path::append(path, std::to_string(index + 1) + "-" +
                                          dumpNames[index] + ".mlir");
        dump(*input.spec, path);
      }
    }
    if (inputs.empty())
      return Attribute();

    FailureOr<OwningOpRef<ModuleOp>> library =
        linkTuningSpecs(context, std::move(inputs));
    if (mlir::failed(library)) {
      module.emitError() << "linking the tuning specs failed (see above)";
      return failure();
    }
    if (!dumpDir.empty()) {
      SmallString<256> path(dumpDir);
      llvm::sys::path::append(path, "linked.mlir");
      dump(**library, path);
    }
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (mlir::failed(writeBytecodeToFile(**library, os))) {
      module.emitError() << "cannot write the tuning library as bytecode";
      return failure();
    }
    auto type = RankedTensorType::get({static_cast<int64_t>(bytecode.size())},
                                      IntegerType::get(context, 8));
    return Attribute(DenseResourceElementsAttr::get(
        type, "kiln_tuning_library",
        HeapAsmResourceBlob::allocateAndCopyInferAlign(
            ArrayRef<char>(bytecode.data(), bytecode.size()))));
  }

  /// A file, or the specs in a folder in name order.
  static LogicalResult expandSearchPathEntry(llvm::StringRef entry,
                                             std::vector<std::string> &files) {
    if (llvm::sys::fs::is_regular_file(entry)) {
      files.push_back(entry.str());
      return success();
    }
    if (!llvm::sys::fs::is_directory(entry))
      return failure();
    std::error_code error;
    for (llvm::sys::fs::directory_iterator it(entry, error), end;
         it != end && !error; it.increment(error)) {
      llvm::StringRef path = it->path();
      if (path.ends_with(".mlir") || path.ends_with(".mlirbc"))
        files.push_back(path.str());
    }
    std::sort(files.begin(), files.end());
    return success(!error);
  }

  TuningOptions options;
};

class ApplyTuningLibraryPass
    : public PassWrapper<ApplyTuningLibraryPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApplyTuningLibraryPass)

  StringRef getArgument() const override { return "kiln-apply-tuning-library"; }
  StringRef getDescription() const override {
    return "Apply the attached tuning library to every variant";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef attrName = KilnDialect::getTuningLibraryAttrName();
    // The module's library applies to every variant; a variant's own (one
    // per CPU, in a module for several) to it alone.
    auto moduleLibrary =
        module->getAttrOfType<DenseResourceElementsAttr>(attrName);
    module->removeAttr(attrName);
    MLIRContext *context = &getContext();
    llvm::DenseMap<Attribute, std::pair<OwningOpRef<ModuleOp>, std::string>>
        libraries;
    SmallVector<ExecutableVariantOp> variants;
    SmallVector<Attribute> variantLibraries;
    for (auto executable : module.getOps<ExecutableOp>())
      for (auto variant : executable.getVariantOps()) {
        auto attr = variant->getAttrOfType<DenseResourceElementsAttr>(attrName);
        variant->removeAttr(attrName);
        if (!attr)
          attr = moduleLibrary;
        if (!attr || !variant.getInnerModule() || isLoweredToLLVM(variant))
          continue;
        auto &[library, entryName] = libraries[attr];
        if (!library) {
          ArrayRef<char> data = attr.getData();
          library = parseSourceString<ModuleOp>(
              StringRef(data.data(), data.size()), ParserConfig(context),
              "tuning library");
          if (!library) {
            module.emitError() << "the attached tuning library does not parse";
            return signalPassFailure();
          }
          FailureOr<transform::NamedSequenceOp> entry =
              verifyTuningSpec(*library);
          if (mlir::failed(entry))
            return signalPassFailure();
          entryName = entry->getSymName().str();
        }
        variants.push_back(variant);
        variantLibraries.push_back(attr);
      }

    // Each variant gets its own copy of the library: the interpreter runs
    // on several at once.
    SmallVector<OwningOpRef<ModuleOp>> copies;
    SmallVector<StringRef> entryNames;
    for (Attribute attr : variantLibraries) {
      copies.push_back(libraries[attr].first->clone());
      entryNames.push_back(libraries[attr].second);
    }
    ParallelDiagnosticHandler diagnostics(context);
    auto indices = llvm::seq<size_t>(0, variants.size());
    LogicalResult result =
        failableParallelForEach(context, indices, [&](size_t index) {
          diagnostics.setOrderIDForThread(index);
          auto copyEntry =
              copies[index]->lookupSymbol<transform::NamedSequenceOp>(
                  entryNames[index]);
          LogicalResult applied = transform::applyTransformNamedSequence(
              variants[index].getInnerModule(), copyEntry, ModuleOp(),
              transform::TransformOptions());
          if (mlir::failed(applied))
            variants[index].emitError()
                << "the tuning specs failed on this variant (see the "
                   "spec's error above)";
          diagnostics.eraseOrderIDForThread();
          return applied;
        });
    if (mlir::failed(result))
      signalPassFailure();
  }
};

/// The static loop sizes of an op, as "AxBxC" ("?" for dynamic ones).
static std::string describeLoops(Operation *op) {
  auto tilingOp = dyn_cast<TilingInterface>(op);
  if (!tilingOp)
    return "";
  SmallVector<int64_t> sizes;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    sizes = linalgOp.getStaticLoopRanges();
  if (sizes.empty())
    return "";
  std::string text;
  for (auto [index, size] : llvm::enumerate(sizes)) {
    if (index)
      text += "x";
    text += ShapedType::isDynamic(size) ? "?" : std::to_string(size);
  }
  return " (loops " + text + ")";
}

class ExplainTuningPass
    : public PassWrapper<ExplainTuningPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExplainTuningPass)

  StringRef getArgument() const override { return "kiln-explain-tuning"; }
  StringRef getDescription() const override {
    return "Print what configured each dispatch";
  }

  void runOnOperation() override {
    std::string text;
    llvm::raw_string_ostream os(text);
    for (auto executable : getOperation().getOps<ExecutableOp>())
      for (auto variant : executable.getVariantOps())
        explainVariant(executable, variant, os);
    llvm::errs() << text;
  }

private:
  static void explainVariant(ExecutableOp executable,
                             ExecutableVariantOp variant,
                             llvm::raw_ostream &os) {
    std::string name = "@" + executable.getSymName().str() + "::@" +
                       variant.getSymName().str();
    if (isLoweredToLLVM(variant)) {
      os << "tuning: " << name
         << ": already in the LLVM dialect (a preprocessing tool compiled "
            "it); not configured\n";
      return;
    }
    auto claimant =
        variant->getAttrOfType<StringAttr>(KilnDialect::getClaimedByAttrName());
    if (claimant)
      os << "tuning: " << name << ": claimed by plugin '" << claimant.getValue()
         << "', which configures it its own way\n";
    ModuleOp kernels = variant.getInnerModule();
    if (!kernels)
      return;
    StringRef configName = KilnDialect::getLoweringConfigAttrName();
    kernels.walk([&](Operation *op) {
      auto config = op->getAttrOfType<LoweringConfigAttr>(configName);
      if (!config)
        return;
      os << "tuning: " << name << ": " << op->getName() << describeLoops(op)
         << ": ";
      auto by = op->getAttrOfType<DictionaryAttr>(
          KilnDialect::getConfiguredByAttrName());
      StringAttr spec = by ? by.getAs<StringAttr>("spec") : StringAttr();
      StringAttr heuristic =
          by ? by.getAs<StringAttr>("heuristic") : StringAttr();
      if (claimant) {
        os << "configured by plugin '" << claimant.getValue() << "'";
        if (spec)
          os << " (the tuning spec that matched it first, " << spec.getValue()
             << " @" << by.getAs<StringAttr>("sequence").getValue()
             << ", ran before the claim)";
      } else if (spec) {
        os << "configured by " << spec.getValue() << ", @"
           << by.getAs<StringAttr>("sequence").getValue() << " at "
           << by.getAs<StringAttr>("location").getValue();
      } else if (heuristic) {
        os << "no tuning spec matched; configured by the "
           << heuristic.getValue() << " heuristic";
      } else if (by && by.get("input")) {
        os << "configured in the input program";
      } else {
        os << "configured outside the tuning specs and heuristics (a pass "
              "or a plugin)";
      }
      os << "\ntuning:     " << config << "\n";
      if (auto overridden =
              by ? by.getAs<ArrayAttr>("overridden") : ArrayAttr())
        for (auto other : overridden.getAsRange<StringAttr>())
          os << "tuning:     also matched, lower precedence, not applied: "
             << other.getValue() << "\n";
    });
  }
};

} // namespace

std::unique_ptr<Pass>
kiln::createMaterializeTuningLibraryPass(TuningOptions options) {
  return std::make_unique<MaterializeTuningLibraryPass>(std::move(options));
}

std::unique_ptr<Pass> kiln::createApplyTuningLibraryPass() {
  return std::make_unique<ApplyTuningLibraryPass>();
}

std::unique_ptr<Pass> kiln::createExplainTuningPass() {
  return std::make_unique<ExplainTuningPass>();
}

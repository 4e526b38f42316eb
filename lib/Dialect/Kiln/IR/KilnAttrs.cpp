//===- KilnAttrs.cpp - Kiln attributes --------------------------*- C++ -*-===//
//
// Parsing, printing and verification of #kiln.target, #kiln.object and
// #kiln.lowering_config.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "kiln/Files/FilesRead.h"
#include "kiln/Files/InputFiles.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;
using namespace kiln;

#include "kiln/Dialect/Kiln/IR/KilnEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Kiln/IR/KilnAttrs.cpp.inc"

void KilnDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "kiln/Dialect/Kiln/IR/KilnAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr backend,
                                 DictionaryAttr configuration) {
  if (!backend || backend.getValue().empty())
    return emitError() << "target backend name must not be empty";
  if (!configuration)
    return success();
  for (StringRef key : {"cpu", "cpu_features", "triple"}) {
    Attribute value = configuration.get(key);
    if (value && !isa<StringAttr>(value))
      return emitError() << "target configuration key '" << key
                         << "' must be a string, got " << value;
  }
  return success();
}

StringRef TargetAttr::getConfigString(StringRef key) const {
  if (!getConfiguration())
    return {};
  if (auto value = getConfiguration().getAs<StringAttr>(key))
    return value.getValue();
  return {};
}

bool TargetAttr::hasCPUFeature(StringRef name) const {
  SmallVector<StringRef> items;
  getCPUFeatures().split(items, ',');
  return llvm::any_of(items, [&](StringRef item) {
    item = item.trim();
    return item.consume_front("+") && item == name;
  });
}

//===----------------------------------------------------------------------===//
// ObjectAttr
//===----------------------------------------------------------------------===//

LogicalResult ObjectAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr path) {
  if (!path || path.getValue().empty())
    return emitError() << "object file path must not be empty";
  return success();
}

std::string ObjectAttr::getAbsolutePath() const {
  SmallString<256> path(getPath().getValue());
  (void)llvm::sys::fs::make_absolute(path);
  return std::string(path);
}

llvm::Error ObjectAttr::checkLinkable() const {
  std::string path = getAbsolutePath();
  // A regular file, read whole: a FIFO or a link to a device is an error
  // here, not a compile that hangs or a linker that reads forever.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      readInputFile(path, "object file");
  if (!bytes)
    return bytes.takeError();
  noteFileRead(getContext(), path, "the object file of a custom dispatch");
  llvm::file_magic magic = llvm::identify_magic((*bytes)->getBuffer());
  if (magic != llvm::file_magic::elf_relocatable &&
      magic != llvm::file_magic::archive)
    return llvm::createStringError(
        "'" + path +
        "' is not a relocatable ELF object (.o) or an archive (.a)");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// LoweringConfigAttr
//===----------------------------------------------------------------------===//

namespace {
/// The tile-size lists of a lowering config, with the keys they print as.
struct TileLevel {
  StringLiteral key;
  ArrayRef<int64_t> sizes;
};
} // namespace

static SmallVector<TileLevel, 4> getTileLevels(ArrayRef<int64_t> workgroup,
                                               ArrayRef<int64_t> cache,
                                               ArrayRef<int64_t> registerTile,
                                               ArrayRef<int64_t> vector) {
  return {{"workgroup", workgroup},
          {"cache", cache},
          {"register", registerTile},
          {"vector", vector}};
}

Attribute LoweringConfigAttr::parse(AsmParser &parser, Type) {
  StringAttr pipeline;
  SmallVector<int64_t> levels[4];
  bool seen[4] = {false, false, false, false};
  const StringLiteral keys[4] = {"workgroup", "cache", "register", "vector"};

  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "pipeline") {
      if (pipeline)
        return parser.emitError(keyLoc, "'pipeline' given more than once");
      std::string value;
      if (parser.parseString(&value))
        return failure();
      pipeline = parser.getBuilder().getStringAttr(value);
      return success();
    }
    const auto *it = llvm::find(keys, key);
    if (it == std::end(keys))
      return parser.emitError(keyLoc)
             << "unknown lowering config key '" << key
             << "' (expected pipeline, workgroup, cache, register or vector)";
    unsigned index = it - std::begin(keys);
    if (seen[index])
      return parser.emitError(keyLoc) << "'" << key << "' given more than once";
    seen[index] = true;
    return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                          [&]() -> ParseResult {
                                            int64_t size;
                                            if (parser.parseInteger(size))
                                              return failure();
                                            levels[index].push_back(size);
                                            return success();
                                          });
  };

  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseCommaSeparatedList(parseEntry) ||
      parser.parseGreater())
    return {};
  if (!pipeline) {
    parser.emitError(loc, "lowering config needs a 'pipeline'");
    return {};
  }
  return parser.getChecked<LoweringConfigAttr>(loc, parser.getContext(),
                                               pipeline, levels[0], levels[1],
                                               levels[2], levels[3]);
}

void LoweringConfigAttr::print(AsmPrinter &printer) const {
  printer << "<pipeline = \"" << getPipeline().getValue() << "\"";
  for (const TileLevel &level :
       getTileLevels(getWorkgroupTile(), getCacheTile(), getRegisterTile(),
                     getVectorSizes())) {
    if (level.sizes.empty())
      continue;
    printer << ", " << level.key << " = [";
    llvm::interleaveComma(level.sizes, printer);
    printer << "]";
  }
  printer << ">";
}

LogicalResult LoweringConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringAttr pipeline,
    ArrayRef<int64_t> workgroup, ArrayRef<int64_t> cache,
    ArrayRef<int64_t> registerTile, ArrayRef<int64_t> vector) {
  if (!pipeline || pipeline.getValue().empty())
    return emitError() << "lowering config pipeline must not be empty";
  std::optional<TileLevel> first;
  for (const TileLevel &level :
       getTileLevels(workgroup, cache, registerTile, vector)) {
    if (level.sizes.empty())
      continue;
    for (int64_t size : level.sizes)
      if (size < 0 || size > kMaxTileSize)
        return emitError() << "lowering config '" << level.key
                           << "' sizes must be between 0 and " << kMaxTileSize
                           << ", got " << size;
    if (!first) {
      first = level;
      continue;
    }
    if (level.sizes.size() != first->sizes.size())
      return emitError() << "lowering config '" << level.key << "' has "
                         << level.sizes.size() << " sizes but '" << first->key
                         << "' has " << first->sizes.size()
                         << "; every level needs one size per loop";
  }
  return success();
}

LogicalResult LoweringConfigAttr::verifyForLoopCount(
    function_ref<InFlightDiagnostic()> emitError, unsigned numLoops) const {
  for (const TileLevel &level :
       getTileLevels(getWorkgroupTile(), getCacheTile(), getRegisterTile(),
                     getVectorSizes())) {
    if (!level.sizes.empty() && level.sizes.size() != numLoops)
      return emitError() << "lowering config '" << level.key << "' has "
                         << level.sizes.size() << " sizes but the op has "
                         << numLoops << " loops";
  }
  return success();
}

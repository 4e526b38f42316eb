//===- RecognizeModel.cpp - Is it an ONNX model, and where is it damaged -===//
//
// A ModelProto is recognized by its top-level fields, read by hand as
// protobuf's wire format (tags, varints, lengths) without parsing the
// messages: that tells a model from MLIR text or bytecode on its first
// bytes, and names the byte where a truncated or corrupted file stops
// making sense.
//
//===----------------------------------------------------------------------===//

#include "RecognizeModel.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Reads a protobuf varint at `pos`; false past the end or over 10 bytes.
static bool readVarint(StringRef bytes, size_t &pos, uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 70 && pos < bytes.size(); shift += 7) {
    uint8_t byte = bytes[pos++];
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

/// The name of ModelProto's field `field`, for messages.
static StringRef getModelFieldName(uint64_t field) {
  switch (field) {
  case 1:
    return "ir_version";
  case 2:
    return "producer_name";
  case 3:
    return "producer_version";
  case 4:
    return "domain";
  case 5:
    return "model_version";
  case 6:
    return "doc_string";
  case 7:
    return "graph";
  case 8:
    return "opset_import";
  case 14:
    return "metadata_props";
  case 20:
    return "training_info";
  case 25:
    return "functions";
  default:
    return "";
  }
}

namespace {
/// What a walk over a ModelProto's top-level fields found.
struct ModelFields {
  /// Every field read has a ModelProto field number and its wire type.
  bool wellFormed = true;
  /// The bytes end inside the last field.
  bool truncated = false;
  bool sawGraph = false;
  /// The first field is ir_version, which every ONNX writer puts first.
  bool startsWithVersion = false;
  /// Why the walk stopped before the end, naming the byte.
  std::string problem;
};
} // namespace

static ModelFields walkModelFields(StringRef bytes) {
  ModelFields found;
  size_t pos = 0;
  // A varint that did not read: cut off by the end, or over 10 bytes.
  auto badVarint = [&](const llvm::Twine &what, size_t start) {
    found.truncated = pos >= bytes.size();
    found.wellFormed = found.truncated;
    found.problem =
        found.truncated
            ? ("the file ends at byte " + llvm::Twine(bytes.size()) +
               ", inside " + what + " at byte " + llvm::Twine(start) +
               " (a truncated file?)")
                  .str()
            : (what + " at byte " + llvm::Twine(start) +
               " is over 10 bytes long (a corrupted file?)")
                  .str();
    return found;
  };
  while (pos < bytes.size()) {
    size_t start = pos;
    uint64_t tag;
    if (!readVarint(bytes, pos, tag))
      return badVarint("the tag of a field", start);
    uint64_t field = tag >> 3, wire = tag & 7;
    if (start == 0)
      found.startsWithVersion = field == 1 && wire == 0;
    bool varintField = field == 1 || field == 5;
    bool lengthField = (field >= 2 && field <= 4) ||
                       (field >= 6 && field <= 8) || field == 14 ||
                       field == 20 || field == 25;
    std::string name = ("field '" + getModelFieldName(field) + "'").str();
    uint64_t value;
    if (varintField && wire == 0) {
      if (!readVarint(bytes, pos, value))
        return badVarint("the value of " + name, start);
    } else if (lengthField && wire == 2) {
      if (!readVarint(bytes, pos, value))
        return badVarint("the length of " + name, start);
      found.sawGraph |= field == 7;
      if (value > bytes.size() - pos) {
        found.truncated = true;
        found.problem =
            ("the file ends at byte " + llvm::Twine(bytes.size()) +
             ", inside " + name + ", which starts at byte " +
             llvm::Twine(start) + " and needs " + llvm::Twine(value) +
             " bytes after its length (a truncated file?)")
                .str();
        return found;
      }
      pos += value;
    } else {
      found.wellFormed = false;
      found.problem =
          ("byte " + llvm::Twine(start) + " starts field " +
           llvm::Twine(field) + " of wire type " + llvm::Twine(wire) +
           ", which a ModelProto does not have (a corrupted "
           "file?)")
              .str();
      return found;
    }
  }
  return found;
}

bool onnx_plugin::looksLikeModel(StringRef bytes) {
  ModelFields found = walkModelFields(bytes);
  if (!found.wellFormed)
    return false;
  return found.truncated ? found.startsWithVersion : found.sawGraph;
}

std::string onnx_plugin::findModelDamage(StringRef bytes) {
  return walkModelFields(bytes).problem;
}

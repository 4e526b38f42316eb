//===- Npy.cpp - numpy's .npy files in and out of Kiln's tools ------------===//
//
// Reads and writes the .npy format (version 1 to 3, little-endian, C
// order), and reads tensor files by their kind (.npy or ONNX TensorProto).
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"
#include "kiln/Support/ReadFile.h"

#include <algorithm>
#include <cctype>
#include <cstring>

using namespace kiln;
using namespace kiln::tooling;

//===----------------------------------------------------------------------===//
// .npy files
//===----------------------------------------------------------------------===//

static const char kNpyMagic[] = "\x93NUMPY";

/// The numpy dtype of a Kiln element type.
static const char *toDescr(kiln_element_type type) {
  switch (type) {
  case KILN_ELEMENT_I1:
    return "|b1";
  case KILN_ELEMENT_I8:
    return "|i1";
  case KILN_ELEMENT_I16:
    return "<i2";
  case KILN_ELEMENT_I32:
    return "<i4";
  case KILN_ELEMENT_I64:
    return "<i8";
  case KILN_ELEMENT_F16:
    return "<f2";
  case KILN_ELEMENT_F32:
    return "<f4";
  case KILN_ELEMENT_F64:
    return "<f8";
  default:
    return nullptr;
  }
}

static kiln_element_type fromDescr(const std::string &descr) {
  static const std::pair<const char *, kiln_element_type> table[] = {
      {"|b1", KILN_ELEMENT_I1},  {"|i1", KILN_ELEMENT_I8},
      {"|u1", KILN_ELEMENT_I8},  {"<i2", KILN_ELEMENT_I16},
      {"<u2", KILN_ELEMENT_I16}, {"<i4", KILN_ELEMENT_I32},
      {"<u4", KILN_ELEMENT_I32}, {"<i8", KILN_ELEMENT_I64},
      {"<u8", KILN_ELEMENT_I64}, {"<f2", KILN_ELEMENT_F16},
      {"<f4", KILN_ELEMENT_F32}, {"<f8", KILN_ELEMENT_F64},
  };
  for (const auto &[name, type] : table)
    if (descr == name)
      return type;
  return KILN_ELEMENT_INVALID;
}

namespace {
/// What a .npy header says. The header is a Python dict literal; numpy
/// reads it with ast.literal_eval and accepts exactly these three keys.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  std::string shapeText; // as written, for errors
};

/// Reads the header dict the way Python reads the forms numpy writes:
/// keys and strings in either quote, True or False, a tuple of
/// non-negative integers. A key given twice takes its last value, as in
/// Python (numpy's own reading), so a file means what numpy says it means.
class HeaderParser {
public:
  explicit HeaderParser(const std::string &text) : text(text) {}

  bool parse(NpyHeader &header, std::string &error) {
    bool sawDescr = false, sawFortran = false, sawShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("the header is not a dict (it does not start with '{')",
                  error);
    for (;;) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail("expected a quoted key at byte " + std::to_string(at) +
                        " of the header",
                    error);
      skipSpace();
      if (!consume(':'))
        return fail("expected ':' after '" + key + "'", error);
      skipSpace();
      if (key == "descr") {
        if (!parseString(header.descr))
          return fail("descr is not a string", error);
        sawDescr = true;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          header.fortranOrder = true;
        else if (consumeWord("False"))
          header.fortranOrder = false;
        else
          return fail("fortran_order is neither True nor False", error);
        sawFortran = true;
      } else if (key == "shape") {
        if (!parseShape(header))
          return fail("malformed shape '" + header.shapeText +
                          "' (expected a tuple of sizes)",
                      error);
        sawShape = true;
      } else {
        return fail("unexpected key '" + key +
                        "' (a header has descr, fortran_order and shape)",
                    error);
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return fail("expected ',' or '}' at byte " + std::to_string(at) +
                      " of the header",
                  error);
    }
    skipSpace();
    if (at != text.size())
      return fail("text after the header's dict at byte " + std::to_string(at),
                  error);
    if (!sawDescr || !sawFortran || !sawShape)
      return fail(std::string("the header lacks ") + (!sawDescr ? "descr"
                                                      : !sawFortran
                                                          ? "fortran_order"
                                                          : "shape"),
                  error);
    return true;
  }

private:
  static bool fail(const std::string &what, std::string &error) {
    error = what;
    return false;
  }
  void skipSpace() {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' ||
                                text[at] == '\r' || text[at] == '\n'))
      ++at;
  }
  bool consume(char c) {
    if (at < text.size() && text[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  bool consumeWord(const char *word) {
    size_t length = std::strlen(word);
    if (text.compare(at, length, word) != 0)
      return false;
    size_t end = at + length;
    if (end < text.size() &&
        (std::isalnum(static_cast<unsigned char>(text[end])) ||
         text[end] == '_'))
      return false;
    at = end;
    return true;
  }
  /// A string without escapes in ' or " quotes.
  bool parseString(std::string &value) {
    if (at >= text.size() || (text[at] != '\'' && text[at] != '"'))
      return false;
    char quote = text[at];
    size_t end = text.find(quote, at + 1);
    if (end == std::string::npos ||
        text.find('\\', at + 1) < end) // escapes: not what numpy writes
      return false;
    value = text.substr(at + 1, end - at - 1);
    at = end + 1;
    return true;
  }
  /// `()`, `(4,)`, `(2, 3)`, `(2, 3,)`: a one-element tuple needs its comma
  /// (`(4)` is an int in Python).
  bool parseShape(NpyHeader &header) {
    size_t start = at;
    // The shape as written, for errors: up to its ')', or to the next
    // ',' or '}' when it is no tuple.
    auto finish = [&](bool ok) {
      size_t end = at;
      if (!ok) {
        size_t close = text.find(')', start);
        end = text[start] == '(' && close != std::string::npos
                  ? close + 1
                  : std::min(text.find_first_of(",}", start), text.size());
      }
      header.shapeText = text.substr(start, end - start);
      return ok;
    };
    header.shape.clear();
    if (!consume('('))
      return finish(false);
    bool trailingComma = false;
    for (;;) {
      skipSpace();
      if (consume(')'))
        break;
      size_t digits = at;
      while (at < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[at])))
        ++at;
      if (at == digits || at - digits > 18) // more than 10^18: no file has it
        return finish(false);
      header.shape.push_back(std::stoll(text.substr(digits, at - digits)));
      skipSpace();
      trailingComma = consume(',');
      if (!trailingComma) {
        skipSpace();
        if (!consume(')'))
          return finish(false);
        break;
      }
    }
    return finish(header.shape.size() != 1 || trailingComma);
  }

  const std::string &text;
  size_t at = 0;
};
} // namespace

Buffer kiln::tooling::readTensorFile(const std::string &path,
                                     std::string &error) {
  // A regular file read to its end: /proc/self/mem is a read error, not
  // an abort.
  std::string contents;
  if (!readRegularFile(path, contents, error)) {
    error = "cannot read '" + path + "': " + error;
    return nullptr;
  }
  auto endsWith = [&](const std::string &suffix) {
    return path.size() > suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) ==
               0;
  };
  if (contents.compare(0, 6, kNpyMagic) == 0 || endsWith(".npy"))
    return parseNpy(contents, path, error);
  if (endsWith(".pb"))
    return parseTensorProto(contents, path, error);
  error = "'" + path +
          "' is neither a .npy file (it does not start with "
          "numpy's magic) nor an ONNX TensorProto (its name does not end in "
          "'.pb')";
  return nullptr;
}

Buffer kiln::tooling::parseNpy(const std::string &contents,
                               const std::string &name, std::string &error) {
  auto fail = [&](const std::string &what) -> Buffer {
    error = "'" + name + "' is not a valid .npy file: " + what;
    return nullptr;
  };
  if (contents.size() < 10 || contents.compare(0, 6, kNpyMagic) != 0)
    return fail("it does not start with the .npy magic");
  unsigned major = static_cast<unsigned char>(contents[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = static_cast<unsigned char>(contents[8]) |
                   (static_cast<unsigned char>(contents[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12)
      return fail("truncated header");
    headerLength = 0;
    for (int i = 0; i < 4; ++i)
      headerLength |=
          static_cast<size_t>(static_cast<unsigned char>(contents[8 + i]))
          << (8 * i);
    headerStart = 12;
  } else {
    return fail("unsupported version " + std::to_string(major));
  }
  if (headerStart + headerLength > contents.size())
    return fail("truncated header");

  NpyHeader header;
  std::string what;
  if (!HeaderParser(contents.substr(headerStart, headerLength))
           .parse(header, what))
    return fail(what);
  const std::string &descr = header.descr;
  kiln_element_type type = fromDescr(descr);
  if (type == KILN_ELEMENT_INVALID)
    return fail("unsupported dtype '" + descr +
                "' (expected a little-endian bool, int, uint or float)");
  // Kiln's buffers are in C order; reading a Fortran-ordered array as one
  // would transpose it without a word.
  if (header.fortranOrder)
    return fail("Fortran-ordered arrays are not supported; save a C-ordered "
                "array (numpy.ascontiguousarray)");
  const std::vector<int64_t> &dims = header.shape;

  // The data must be there before the buffer is: a header that promises
  // terabytes is an error, not an allocation.
  size_t dataStart = headerStart + headerLength;
  uint64_t needed = kiln_element_type_size(type);
  bool overflow = false;
  for (int64_t dim : dims)
    overflow |=
        __builtin_mul_overflow(needed, static_cast<uint64_t>(dim), &needed);
  if (overflow || needed != contents.size() - dataStart)
    return fail(
        "its data has " + std::to_string(contents.size() - dataStart) +
        " bytes but shape " + header.shapeText + " of " + descr + " needs " +
        (overflow ? std::string("more than 2^64") : std::to_string(needed)));
  kiln_buffer *raw = nullptr;
  if (kiln_error *err = kiln_buffer_create(
          type, static_cast<int32_t>(dims.size()), dims.data(), &raw)) {
    error = "'" + name + "': " + kiln_error_message(err);
    kiln_error_free(err);
    return nullptr;
  }
  Buffer buffer(raw);
  size_t bytes = kiln_buffer_byte_size(raw);
  if (bytes)
    std::memcpy(kiln_buffer_data(raw), contents.data() + dataStart, bytes);
  return buffer;
}

bool kiln::tooling::writeNpy(OutputFile &file, kiln_buffer *buffer,
                             std::string &error) {
  const char *descr = toDescr(kiln_buffer_element_type(buffer));
  if (!descr) {
    error = std::string("numpy has no type for ") +
            kiln_element_type_name(kiln_buffer_element_type(buffer));
    return false;
  }
  std::string shape = "(";
  int32_t rank = kiln_buffer_rank(buffer);
  for (int32_t i = 0; i < rank; ++i)
    shape += std::to_string(kiln_buffer_dims(buffer)[i]) + ", ";
  if (rank > 1)
    shape.erase(shape.size() - 2);
  else if (rank == 1)
    shape.erase(shape.size() - 1);
  shape += ")";
  std::string header = std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic, version and length take 10 bytes; pad the header so the data
  // starts 64-byte aligned, ending in a newline.
  size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
  header.append(total - 10 - header.size() - 1, ' ');
  header.push_back('\n');

  unsigned char prefix[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
  prefix[8] = static_cast<unsigned char>(header.size() & 0xff);
  prefix[9] = static_cast<unsigned char>(header.size() >> 8);
  return file.write(prefix, sizeof(prefix), error) &&
         file.write(header.data(), header.size(), error) &&
         file.write(kiln_buffer_data(buffer), kiln_buffer_byte_size(buffer),
                    error) &&
         file.commit(error);
}

//===- Compare.cpp - An output against the expected one -------------------===//
//
// kiln-run --expected-output: floats compare as numpy.isclose does
// (|actual - expected| <= atol + rtol * |expected|, NaN equal to NaN, an
// infinity only to itself), integers and bools exactly.
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"

#include <cmath>
#include <cstdio>
#include <sstream>

using namespace kiln;
using namespace kiln::tooling;

/// `[1, 0, 2]`: the position of flat element `index` of `buffer`.
static std::string formatPosition(kiln_buffer *buffer, int64_t index) {
  int32_t rank = kiln_buffer_rank(buffer);
  const int64_t *dims = kiln_buffer_dims(buffer);
  std::vector<int64_t> position(rank);
  for (int32_t d = rank - 1; d >= 0; --d) {
    position[d] = dims[d] ? index % dims[d] : 0;
    index = dims[d] ? index / dims[d] : 0;
  }
  std::string text = "[";
  for (int32_t d = 0; d < rank; ++d)
    text += (d ? ", " : "") + std::to_string(position[d]);
  return text + "]";
}

static std::string formatShape(kiln_buffer *buffer) {
  std::string text;
  for (int32_t d = 0; d < kiln_buffer_rank(buffer); ++d)
    text += std::to_string(kiln_buffer_dims(buffer)[d]) + "x";
  return text + kiln_element_type_name(kiln_buffer_element_type(buffer));
}

static std::string formatNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}

bool kiln::tooling::compareBuffers(kiln_buffer *actual, kiln_buffer *expected,
                                   const Tolerance &tolerance,
                                   std::string &report) {
  kiln_element_type type = kiln_buffer_element_type(actual);
  bool sameShape = type == kiln_buffer_element_type(expected) &&
                   kiln_buffer_rank(actual) == kiln_buffer_rank(expected);
  for (int32_t d = 0; sameShape && d < kiln_buffer_rank(actual); ++d)
    sameShape = kiln_buffer_dims(actual)[d] == kiln_buffer_dims(expected)[d];
  if (!sameShape) {
    report =
        "it is " + formatShape(actual) + ", expected " + formatShape(expected);
    return false;
  }

  const char *got = static_cast<const char *>(kiln_buffer_data(actual));
  const char *want = static_cast<const char *>(kiln_buffer_data(expected));
  size_t size = kiln_element_type_size(type);
  int64_t count = kiln_buffer_element_count(actual);
  int64_t mismatches = 0, first = -1, largestAt = -1;
  double largest = 0;
  bool floating = isFloat(type);
  for (int64_t i = 0; i < count; ++i) {
    const char *a = got + i * size, *e = want + i * size;
    bool close;
    double difference;
    if (floating) {
      double x = loadFloat(type, a), y = loadFloat(type, e);
      if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y)) {
        close = (std::isnan(x) && std::isnan(y)) || x == y;
        difference = close ? 0 : INFINITY;
      } else {
        difference = std::fabs(x - y);
        close = difference <= tolerance.atol + tolerance.rtol * std::fabs(y);
      }
    } else {
      int64_t x = loadInt(type, a), y = loadInt(type, e);
      close = x == y;
      difference = std::fabs(static_cast<double>(x) - static_cast<double>(y));
    }
    if (difference > largest || largestAt < 0) {
      largest = difference;
      largestAt = i;
    }
    if (!close && mismatches++ == 0)
      first = i;
  }
  auto value = [&](const char *base, int64_t i) {
    return floating ? formatNumber(loadFloat(type, base + i * size))
                    : std::to_string(loadInt(type, base + i * size));
  };
  if (mismatches) {
    report = "element " + formatPosition(actual, first) + " is " +
             value(got, first) + ", expected " + value(want, first);
    if (floating)
      report += " (rtol " + formatNumber(tolerance.rtol) + ", atol " +
                formatNumber(tolerance.atol) + ")";
    report += "; " + std::to_string(mismatches) + " of " +
              std::to_string(count) + " elements differ, the largest by " +
              formatNumber(largest) + " at " +
              formatPosition(actual, largestAt);
    return false;
  }
  report =
      std::to_string(count) + " element" + (count == 1 ? "" : "s") + " match";
  if (floating && count)
    report += " (largest difference " + formatNumber(largest) + " at " +
              formatPosition(actual, largestAt) + ")";
  return true;
}

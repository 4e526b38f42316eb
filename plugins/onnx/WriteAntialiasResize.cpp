//===- WriteAntialiasResize.cpp - Resize with antialias in opset 17's ops -===//
//
// Resize's antialias (opset 18) widens the linear or cubic filter by the
// downscaling factor, so each output element averages every input
// element under it (as Pillow and ONNX Runtime resample). Opset 17 has no
// such form; this writes it as one MatMul per resized axis with an
// interpolation matrix [out, in] computed at run time from the axis's
// sizes (so a dynamic input stays dynamic):
//
//   A[o, j] = filter((j - x(o)) * min(scale, 1)) / (sum of the row)
//
// where x(o) is o mapped into the input by the coordinate transformation
// mode and the filter is the triangle (linear) or Keys' cubic kernel with
// cubic_coeff_a. Taps that fall outside the input read its edge element
// (their weights go to the first or last column) unless exclude_outside
// drops them; the row sum counts what it keeps, as ONNX Runtime
// normalizes. Axes whose constant scale is 1 are left alone.
//
//===----------------------------------------------------------------------===//

#include "WriteNewOps.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// Writes the interpolation of one axis.
struct AxisWriter {
  NodeWriter &w;
  const std::string &x; // whose element type the arithmetic takes
  std::string mode, transform;
  float cubicA;
  bool excludeOutside;

  std::string constant(float value) { return w.floats(x, value); }

  /// The filter at distances `t` (already scaled).
  std::string filter(const std::string &t) {
    std::string a = w.add("Abs", {t});
    if (mode == "linear")
      return w.add("Relu", {w.add("Sub", {constant(1), a})});
    // |t| < 1: ((A + 2)|t| - (A + 3)) t^2 + 1
    // |t| < 2: (((|t| - 5)|t| + 8)|t| - 4) A
    std::string square = w.add("Mul", {a, a});
    std::string near = w.add(
        "Add",
        {w.add("Mul", {w.add("Sub", {w.add("Mul", {a, constant(cubicA + 2)}),
                                     constant(cubicA + 3)}),
                       square}),
         constant(1)});
    std::string far = w.add(
        "Mul",
        {w.add("Sub",
               {w.add("Mul",
                      {w.add("Add",
                             {w.add("Mul", {w.add("Sub", {a, constant(5)}), a}),
                              constant(8)}),
                       a}),
                constant(4)}),
         constant(cubicA)});
    return w.add("Where", {w.add("Less", {a, constant(1)}), near,
                           w.add("Where", {w.add("Less", {a, constant(2)}), far,
                                           constant(0)})});
  }

  /// Integers start .. limit - 1 (1-element INT64s) in x's type, shaped
  /// `dims` (one -1).
  std::string range(const std::string &start, const std::string &limit,
                    std::vector<int64_t> dims) {
    std::string values = w.add(
        "Range", {w.element(start, 0), w.element(limit, 0), w.ints({1}, true)});
    return w.add("Reshape", {w.add("CastLike", {values, x}), w.ints(dims)});
  }

  /// x(o) for outputs o [out, 1] of an axis of `in` elements (x's type),
  /// `out` of them, at `scale` (out / in as given).
  std::string coordinates(const std::string &outputs, const std::string &in,
                          const std::string &out, const std::string &scale) {
    std::string half = constant(0.5f);
    std::string halfPixel = w.add(
        "Sub", {w.add("Div", {w.add("Add", {outputs, half}), scale}), half});
    if (transform == "half_pixel")
      return halfPixel;
    if (transform == "pytorch_half_pixel")
      return w.add("Where", {w.add("Greater", {out, constant(1)}), halfPixel,
                             constant(0)});
    if (transform == "asymmetric")
      return w.add("Div", {outputs, scale});
    if (transform == "tf_half_pixel_for_nn")
      return w.add("Div", {w.add("Add", {outputs, half}), scale});
    if (transform == "align_corners") {
      // o (in - 1) / (out - 1), 0 where out is 1.
      std::string one = constant(1);
      std::string denominator = w.add("Sub", {out, one});
      std::string safe =
          w.add("Where",
                {w.add("Equal", {denominator, constant(0)}), one, denominator});
      return w.add("Mul",
                   {outputs, w.add("Div", {w.add("Sub", {in, one}), safe})});
    }
    // half_pixel_symmetric: half_pixel moved so the output is centred on
    // the input: in / 2 (1 - out / (scale in)).
    std::string adjustment = w.add("Div", {out, w.add("Mul", {scale, in})});
    std::string offset =
        w.add("Mul", {w.add("Mul", {in, half}),
                      w.add("Sub", {constant(1), adjustment})});
    return w.add("Add", {offset, halfPixel});
  }

  /// The matrix [out, in] of one axis.
  std::string matrix(const std::string &inCount, const std::string &outCount,
                     const std::string &scale) {
    std::string zero = w.ints({0});
    std::string in = w.add("CastLike", {inCount, x});
    std::string out = w.add("CastLike", {outCount, x});
    std::string outputs = range(zero, outCount, {-1, 1});
    std::string mapped = coordinates(outputs, in, out, scale);
    std::string shrink = w.add("Min", {scale, constant(1)});
    auto weightsAt = [&](const std::string &taps) {
      return filter(w.add("Mul", {w.add("Sub", {taps, mapped}), shrink}));
    };
    std::string columns = range(zero, inCount, {1, -1});
    std::string weights = weightsAt(columns); // [out, in]
    if (!excludeOutside) {
      // Taps k = 1 .. ceil(support) + 1 past each edge read the edge
      // element; support is the filter's half width over min(scale, 1).
      std::string support =
          w.add("Div", {constant(mode == "linear" ? 1.0f : 2.0f), shrink});
      std::string ceiling = w.add("Cast", {w.add("Ceil", {support})});
      setInt(w.last(), "to", onnx::TensorProto::INT64);
      std::string beyond =
          w.add("Reshape", {ceiling, w.ints({1})}); // k - 1 = 0 .. ceil
      std::string steps = w.add(
          "Add", {range(zero, w.add("Add", {beyond, w.ints({1})}), {1, -1}),
                  constant(1)}); // [1, K]: 1 .. K
      auto edgeSum = [&](const std::string &taps) {
        std::string sum =
            w.add("ReduceSum", {weightsAt(taps), w.ints({1})}); // keepdims
        return sum;                                             // [out, 1]
      };
      std::string before = edgeSum(w.add("Neg", {steps}));
      std::string last = w.add("Sub", {in, constant(1)});
      std::string after = edgeSum(w.add("Add", {last, steps}));
      auto at = [&](const std::string &column) {
        return w.add("CastLike",
                     {w.add("Equal", {columns, column}), x}); // [1, in]
      };
      weights =
          w.add("Add",
                {weights, w.add("Add", {w.add("Mul", {before, at(constant(0))}),
                                        w.add("Mul", {after, at(last)})})});
    }
    std::string total = w.add("ReduceSum", {weights, w.ints({1})});
    std::string safe = w.add(
        "Where", {w.add("Equal", {total, constant(0)}), constant(1), total});
    return w.add("Div", {weights, safe});
  }
};
} // namespace

llvm::Error onnx_plugin::writeAntialiasResize(onnx::NodeProto &node,
                                              NodeWriter &w,
                                              const GraphFacts &facts,
                                              int64_t version) {
  auto given = [&](int i) { return hasInput(node, i); };
  auto text = [&](llvm::StringRef name, llvm::StringRef fallback) {
    return getStringAttribute(node, name, fallback);
  };
  std::string x = node.input(0);
  std::string mode = text("mode", "nearest");
  std::string transform = text("coordinate_transformation_mode", "half_pixel");
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel",
                           "half_pixel_symmetric", "align_corners",
                           "asymmetric", "tf_half_pixel_for_nn"},
                          transform))
    return w.fail(version, "antialias with coordinate_transformation_mode '" +
                               transform + "' is not supported");
  if (text("keep_aspect_ratio_policy", "stretch") != "stretch")
    return w.fail(version, "antialias with keep_aspect_ratio_policy '" +
                               text("keep_aspect_ratio_policy", "") +
                               "' is not supported (only 'stretch')");
  float cubicA = -0.75f;
  if (onnx::AttributeProto *attribute = findAttribute(node, "cubic_coeff_a"))
    cubicA = attribute->f();
  AxisWriter axisWriter{
      w,         x,      mode,
      transform, cubicA, getIntAttribute(node, "exclude_outside", 0) != 0};

  // Which axes the scales or sizes are for, and the rank.
  std::optional<std::vector<int64_t>> sizes =
      given(3) ? facts.constantInts(node.input(3)) : std::nullopt;
  std::vector<int64_t> axes = getIntsAttribute(node, "axes", {});
  int64_t rank = facts.rank(x);
  std::vector<float> scales;
  if (given(2) && !given(3)) {
    std::optional<std::vector<float>> constants =
        facts.constantFloats(node.input(2));
    if (!constants)
      return w.fail(version, "with antialias, its scales (input 2) must be "
                             "a constant");
    scales = *constants;
  } else if (!given(3)) {
    return w.fail(version, "it has neither scales nor sizes");
  }
  size_t count = given(3) ? (sizes ? sizes->size() : 0) : scales.size();
  if (axes.empty()) {
    if (rank < 0)
      rank = count;
    if (rank <= 0)
      return w.fail(version, "with antialias and sizes that are not a "
                             "constant, the rank of its input must be known");
    axes.resize(rank);
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (count != 0 && count != axes.size())
    return w.fail(version, "it has " + llvm::Twine(count) +
                               " scales or sizes "
                               "for " +
                               llvm::Twine(axes.size()) + " axes");
  if (rank < 0)
    return w.fail(version, "with antialias and axes, the rank of its input "
                           "must be known");
  for (int64_t &axis : axes) {
    if (axis < -rank || axis >= rank)
      return w.fail(version, "axis " + llvm::Twine(axis) +
                                 " is out of range for rank " +
                                 llvm::Twine(rank));
    axis = axis < 0 ? axis + rank : axis;
  }

  std::string shape = w.add("Shape", {x});
  std::string sizesGiven;
  if (given(3)) {
    sizesGiven = w.add("Cast", {node.input(3)});
    setInt(w.last(), "to", onnx::TensorProto::INT64);
  }
  std::string current = x;
  // The last axis first, as ONNX Runtime computes.
  for (int64_t i = static_cast<int64_t>(axes.size()) - 1; i >= 0; --i) {
    int64_t d = axes[i];
    if (!scales.empty() && scales[i] == 1.0f)
      continue;
    std::string inCount = w.dim(shape, d);
    std::string in = w.add("CastLike", {inCount, x});
    std::string scale, outCount;
    if (!scales.empty()) {
      scale = axisWriter.constant(scales[i]);
      // floor(in scale), as the scales form of Resize sizes its output.
      outCount = w.add("Cast", {w.add("Floor", {w.add("Mul", {in, scale})})});
      setInt(w.last(), "to", onnx::TensorProto::INT64);
    } else {
      outCount = w.dim(sizesGiven, i);
      scale = w.add("Div", {w.add("CastLike", {outCount, x}), in});
    }
    std::string matrix = axisWriter.matrix(inCount, outCount, scale);
    std::string transposed = w.add("Transpose", {matrix});
    setInts(w.last(), "perm", {1, 0});
    if (d == rank - 1) {
      current = w.add("MatMul", {current, transposed});
    } else if (d == rank - 2) {
      current = w.add("MatMul", {matrix, current});
    } else {
      // Axis d to the end and back.
      std::vector<int64_t> perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::swap(perm[d], perm[rank - 1]);
      std::string moved = w.add("Transpose", {current});
      setInts(w.last(), "perm", perm);
      std::string resized = w.add("MatMul", {moved, transposed});
      current = w.add("Transpose", {resized});
      setInts(w.last(), "perm", perm);
    }
  }
  w.add("Identity", {current}, node.output(0));
  return llvm::Error::success();
}

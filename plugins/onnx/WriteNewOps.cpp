//===- WriteNewOps.cpp - New ops written in opset 17's ops ----------------===//
//
// Ops that opsets 18 to 20 added, which Debian's ONNX 1.12 does not know,
// written as the opset-17 nodes that compute them (PrepareDowngrade.cpp
// calls these). Sizes come from Shape at run time wherever the op reads
// them from its inputs, so a dynamic input stays dynamic; FoldShapes.cpp
// folds that arithmetic where the sizes are static.
//
//   CenterCropPad (18)  Slice the centred window of each axis larger than
//                       the target, then Pad each smaller one, centred
//                       (the extra element of an odd difference at the
//                       end, as the op's definition has it)
//   Col2Im (18)         a ConvTranspose of the blocks (rows of N x C)
//                       with a one-hot filter: each block element lands
//                       where its window puts it, overlaps summed
//   AffineGrid (20)     theta times each output position's normalized
//                       coordinates (x, y[, z], 1), written as a sum of
//                       broadcast products per coordinate
//   DeformConv (19)     each kernel tap sampled with GridSample (bilinear,
//                       zero outside, as the op samples) at its position
//                       plus offset, times the mask, then a grouped
//                       MatMul with the weights
//
//===----------------------------------------------------------------------===//

#include "WriteNewOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

#include <algorithm>
#include <numeric>

using namespace kiln;
using namespace kiln::onnx_plugin;

bool onnx_plugin::hasOpset17Form(llvm::StringRef opType) {
  return llvm::is_contained(
      {"CenterCropPad", "Col2Im", "AffineGrid", "DeformConv"}, opType);
}

static std::string joinInts(llvm::ArrayRef<int64_t> values) {
  std::string text = "[";
  for (auto [i, value] : llvm::enumerate(values))
    text += (i ? ", " : "") + std::to_string(value);
  return text + "]";
}

llvm::Expected<std::string>
onnx_plugin::writeFullPads(NodeWriter &w, const std::string &data,
                           llvm::ArrayRef<int64_t> axes, int64_t rank,
                           const std::string &begins, const std::string &ends,
                           int64_t version) {
  if (rank >= 0) {
    // Known rank: a Concat of constants and elements, which folds.
    std::vector<int> position(rank, -1);
    for (auto [i, axis] : llvm::enumerate(axes)) {
      if (axis < -rank || axis >= rank)
        return w.fail(version, "axis " + llvm::Twine(axis) +
                                   " is out of range for its rank-" +
                                   llvm::Twine(rank) + " data");
      int64_t d = axis < 0 ? axis + rank : axis;
      if (position[d] >= 0)
        return w.fail(version, "axis " + llvm::Twine(d) + " is given twice");
      position[d] = i;
    }
    std::vector<std::string> pieces;
    for (const std::string *side : {&begins, &ends})
      for (int64_t d = 0; d < rank; ++d)
        pieces.push_back(position[d] < 0 ? w.ints({0})
                                         : w.dim(*side, position[d]));
    return w.concat(pieces);
  }
  // Rank known at run time only: zeros for 2 x rank pads, scattered into.
  // Shape inference still gives the Pad its input's rank.
  for (auto [i, axis] : llvm::enumerate(axes))
    if (llvm::is_contained(axes.take_front(i), axis))
      return w.fail(version, "axis " + llvm::Twine(axis) + " is given twice");
  std::string rankOf = w.add("Shape", {w.add("Shape", {data})});
  std::string zeros =
      w.add("ConstantOfShape", {w.add("Mul", {rankOf, w.ints({2})})});
  onnx::TensorProto zero;
  zero.set_data_type(onnx::TensorProto::INT64);
  zero.add_dims(1);
  zero.add_int64_data(0);
  setTensor(w.last(), "value", std::move(zero));
  // (axis + rank) mod rank: negative axes counted from the end.
  std::string normalized =
      w.add("Mod", {w.add("Add", {w.ints(axes), rankOf}), rankOf});
  std::string indices = w.add(
      "Unsqueeze", {w.concat({normalized, w.add("Add", {normalized, rankOf})}),
                    w.ints({1})});
  return w.add("ScatterND", {zeros, indices, w.concat({begins, ends})});
}

static llvm::Error writeCenterCropPad(onnx::NodeProto &node, NodeWriter &w,
                                      const GraphFacts &facts,
                                      int64_t version) {
  if (!hasInput(node, 0) || !hasInput(node, 1) || node.output_size() != 1)
    return w.fail(version, "it takes input_data and shape, and gives one "
                           "output");
  std::string x = node.input(0);
  std::string target =
      w.add("Cast", {node.input(1)}); // int32 or int64, computed in int64
  setInt(w.last(), "to", onnx::TensorProto::INT64);
  int64_t rank = facts.rank(x);
  std::vector<int64_t> axes = getIntsAttribute(node, "axes", {});
  if (axes.empty()) {
    // Every axis: shape has one size per dim.
    if (rank < 0)
      if (std::optional<std::vector<int64_t>> sizes =
              facts.constantInts(node.input(1)))
        rank = sizes->size();
    if (rank < 0)
      return w.fail(version, "without axes, the rank of its input or its "
                             "shape (input 1, a constant) must be known");
    axes.resize(rank);
    std::iota(axes.begin(), axes.end(), 0);
  }
  std::string sizes = w.add("Gather", {w.add("Shape", {x}), w.ints(axes)});
  std::string zero = w.ints({0}), two = w.ints({2});
  // The centred window of the axes to crop: start (in - out) / 2. A
  // Gather of that range per axis, not a Slice: ONNX 1.12's inference
  // keeps a Gather's rank, and drops a Slice's whose bounds it does not
  // know.
  std::string crop = w.add("Max", {w.add("Sub", {sizes, target}), zero});
  std::string start = w.add("Div", {crop, two});
  std::string end = w.add("Add", {start, w.add("Min", {sizes, target})});
  std::string cropped = x;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    std::string window = w.add(
        "Range", {w.element(start, i), w.element(end, i), w.ints({1}, true)});
    cropped = w.add("Gather", {cropped, window});
    setInt(w.last(), "axis", axis);
  }
  // Then the axes to pad: (out - in) / 2 before, the rest after.
  std::string pad = w.add("Max", {w.add("Sub", {target, sizes}), zero});
  std::string before = w.add("Div", {pad, two});
  std::string after = w.add("Sub", {pad, before});
  llvm::Expected<std::string> pads =
      writeFullPads(w, x, axes, rank, before, after, version);
  if (!pads)
    return pads.takeError();
  w.add("Pad", {cropped, *pads}, node.output(0));
  return llvm::Error::success();
}

/// The largest window size, stride, dilation, pad or group count the
/// writers take: far past any model's, and small enough that their
/// products stay in int64.
static constexpr int64_t kMaxWindowValue = int64_t(1) << 24;
/// The most elements a writer puts in one constant it computes.
static constexpr int64_t kMaxConstantElements = int64_t(1) << 24;

/// An error unless every one of `values` (`what`) is at most
/// kMaxWindowValue.
static llvm::Error checkWindowValues(NodeWriter &w, int64_t version,
                                     const llvm::Twine &what,
                                     llvm::ArrayRef<int64_t> values) {
  for (int64_t value : values)
    if (value > kMaxWindowValue)
      return w.fail(
          version, what + " " + joinInts(values) + " has a value above " +
                       llvm::Twine(kMaxWindowValue) + ", more than Kiln takes");
  return llvm::Error::success();
}

/// The INTS attribute `name` of `node`, `count` values of at least
/// `minimum` and at most kMaxWindowValue, or `fallback` repeated when
/// absent.
static llvm::Expected<std::vector<int64_t>>
getWindowInts(onnx::NodeProto &node, NodeWriter &w, int64_t version,
              llvm::StringRef name, size_t count, int64_t fallback,
              int64_t minimum) {
  std::vector<int64_t> values =
      getIntsAttribute(node, name, std::vector<int64_t>(count, fallback));
  if (values.size() != count)
    return w.fail(version, name + " has " + llvm::Twine(values.size()) +
                               " values; it needs " + llvm::Twine(count));
  for (int64_t value : values)
    if (value < minimum)
      return w.fail(version, name + " " + joinInts(values) +
                                 " has a value below " + llvm::Twine(minimum));
  if (llvm::Error failure = checkWindowValues(w, version, name, values))
    return std::move(failure);
  return values;
}

static llvm::Error writeCol2Im(onnx::NodeProto &node, NodeWriter &w,
                               const GraphFacts &facts, int64_t version) {
  if (!hasInput(node, 0) || !hasInput(node, 1) || !hasInput(node, 2) ||
      node.output_size() != 1)
    return w.fail(version, "it takes input, image_shape and block_shape, "
                           "and gives one output");
  std::optional<std::vector<int64_t>> image = facts.constantInts(node.input(1));
  std::optional<std::vector<int64_t>> block = facts.constantInts(node.input(2));
  if (!image || !block)
    return w.fail(version, "its image_shape and block_shape (inputs 1 and "
                           "2) must be constants");
  size_t r = image->size();
  if (r == 0 || block->size() != r)
    return w.fail(version, "image_shape " + joinInts(*image) +
                               " and block_shape " + joinInts(*block) +
                               " must have one size per spatial dim each");
  for (int64_t size : llvm::concat<int64_t>(*image, *block))
    if (size < 1)
      return w.fail(version, "image_shape " + joinInts(*image) +
                                 " and block_shape " + joinInts(*block) +
                                 " must be positive");
  if (llvm::Error failure =
          checkWindowValues(w, version, "image_shape", *image))
    return failure;
  if (llvm::Error failure =
          checkWindowValues(w, version, "block_shape", *block))
    return failure;
  // K, a block's elements; the one-hot filter has K^2 entries.
  int64_t blockSize = 1;
  for (int64_t size : *block)
    blockSize = std::min(blockSize * size, kMaxConstantElements + 1);
  if (blockSize > kMaxConstantElements / blockSize)
    return w.fail(version, "block_shape " + joinInts(*block) +
                               " needs a filter of more than " +
                               llvm::Twine(kMaxConstantElements) +
                               " elements, more than Kiln writes");
  llvm::Expected<std::vector<int64_t>> strides =
      getWindowInts(node, w, version, "strides", r, 1, 1);
  if (!strides)
    return strides.takeError();
  llvm::Expected<std::vector<int64_t>> dilations =
      getWindowInts(node, w, version, "dilations", r, 1, 1);
  if (!dilations)
    return dilations.takeError();
  llvm::Expected<std::vector<int64_t>> pads =
      getWindowInts(node, w, version, "pads", 2 * r, 0, 0);
  if (!pads)
    return pads.takeError();
  // Blocks per dim, and what of the image the last block leaves (the
  // ConvTranspose's output_padding).
  std::vector<int64_t> counts, rest;
  for (size_t d = 0; d < r; ++d) {
    int64_t extent = (*dilations)[d] * ((*block)[d] - 1) + 1;
    int64_t span = (*image)[d] + (*pads)[d] + (*pads)[d + r] - extent;
    if (span < 0)
      return w.fail(version, "block " + joinInts(*block) +
                                 " does not fit in image " + joinInts(*image) +
                                 " with its pads");
    counts.push_back(span / (*strides)[d] + 1);
    rest.push_back(span % (*strides)[d]);
  }
  std::vector<int64_t> rowsShape = {-1, blockSize};
  llvm::append_range(rowsShape, counts);
  std::string rows =
      w.add("Reshape", {node.input(0), w.ints(rowsShape)}); // [N C, K, ...]
  // Filter [K, 1, block...]: element k of a block goes to position k of
  // the window.
  std::vector<float> filter(blockSize * blockSize, 0.0f);
  for (int64_t k = 0; k < blockSize; ++k)
    filter[k * blockSize + k] = 1.0f;
  std::vector<int64_t> filterDims = {blockSize, 1};
  llvm::append_range(filterDims, *block);
  std::string spread = w.add(
      "ConvTranspose", {rows, w.floats(node.input(0), filter, filterDims)});
  setInts(w.last(), "kernel_shape", *block);
  setInts(w.last(), "strides", *strides);
  setInts(w.last(), "dilations", *dilations);
  setInts(w.last(), "pads", *pads);
  if (llvm::any_of(rest, [](int64_t r) { return r != 0; }))
    setInts(w.last(), "output_padding", rest);
  std::string batch = w.dim(w.add("Shape", {node.input(0)}), 0);
  w.add("Reshape", {spread, w.concat({batch, w.ints({-1}), w.ints(*image)})},
        node.output(0));
  return llvm::Error::success();
}

static llvm::Error writeAffineGrid(onnx::NodeProto &node, NodeWriter &w,
                                   const GraphFacts &facts, int64_t version) {
  if (!hasInput(node, 0) || !hasInput(node, 1) || node.output_size() != 1)
    return w.fail(version, "it takes theta and size, and gives one output");
  std::optional<std::vector<int64_t>> size = facts.constantInts(node.input(1));
  if (!size)
    return w.fail(version, "its size (input 1) must be a constant");
  if (size->size() != 4 && size->size() != 5)
    return w.fail(version, "size " + joinInts(*size) +
                               " must be [N, C, H, W] or [N, C, D, H, W]");
  for (int64_t dim : llvm::drop_begin(*size, 2)) {
    if (dim < 1)
      return w.fail(version,
                    "size " + joinInts(*size) + " has a spatial size below 1");
    if (dim > kMaxConstantElements)
      return w.fail(version, "size " + joinInts(*size) +
                                 " has a spatial size above " +
                                 llvm::Twine(kMaxConstantElements) +
                                 ", more than Kiln writes as coordinates");
  }
  bool alignCorners = getIntAttribute(node, "align_corners", 0) != 0;
  std::string theta = node.input(0);
  int64_t r = size->size() - 2;
  // Output [N, spatial..., r]: coordinate j (x, y, z) runs along spatial
  // dim r - 1 - j; theta's column j, as [N, 1..., r], scales it.
  auto column = [&](int64_t j) {
    std::string slice =
        w.add("Slice", {theta, w.ints({j}), w.ints({j + 1}), w.ints({2})});
    std::vector<int64_t> shape(r + 2, 1);
    shape.front() = -1;
    shape.back() = r;
    return w.add("Reshape", {slice, w.ints(shape)});
  };
  std::string sum = column(r); // the translation
  for (int64_t j = 0; j < r; ++j) {
    int64_t dim = r - 1 - j;
    int64_t count = (*size)[2 + dim];
    std::vector<float> coordinates;
    for (int64_t i = 0; i < count; ++i) {
      double value = alignCorners
                         ? (count == 1 ? -1.0 : -1.0 + 2.0 * i / (count - 1))
                         : (2.0 * i + 1.0) / count - 1.0;
      coordinates.push_back(static_cast<float>(value));
    }
    std::vector<int64_t> dims(r + 2, 1);
    dims[1 + dim] = count;
    std::string term =
        w.add("Mul", {w.floats(theta, coordinates, dims), column(j)});
    sum = w.add("Add", {sum, term});
  }
  w.add("Identity", {sum}, node.output(0));
  return llvm::Error::success();
}

static llvm::Error writeDeformConv(onnx::NodeProto &node, NodeWriter &w,
                                   const GraphFacts &facts, int64_t version) {
  if (!hasInput(node, 0) || !hasInput(node, 1) || !hasInput(node, 2) ||
      node.input_size() > 5 || node.output_size() != 1)
    return w.fail(version, "it takes X, W, offset, B and mask (the last two "
                           "optional), and gives one output");
  std::string x = node.input(0), weights = node.input(1),
              offset = node.input(2);
  if (facts.rank(x) >= 0 && facts.rank(x) != 4)
    return w.fail(version, "only 2-D deformable convolution (X of rank 4) "
                           "is supported");
  std::vector<int64_t> kernel;
  if (findAttribute(node, "kernel_shape")) {
    llvm::Expected<std::vector<int64_t>> given =
        getWindowInts(node, w, version, "kernel_shape", 2, 1, 1);
    if (!given)
      return given.takeError();
    kernel = *given;
  } else if (std::optional<std::vector<int64_t>> dims =
                 facts.constantDims(weights)) {
    if (dims->size() != 4 || (*dims)[2] < 1 || (*dims)[3] < 1)
      return w.fail(version, "W has dims " + joinInts(*dims) +
                                 "; it needs [M, C / group, kH, kW]");
    if (llvm::Error failure =
            checkWindowValues(w, version, "W's kernel",
                              llvm::ArrayRef<int64_t>(*dims).drop_front(2)))
      return failure;
    kernel.assign(dims->begin() + 2, dims->end());
  } else {
    return w.fail(version, "kernel_shape must be given, or W be a constant");
  }
  llvm::Expected<std::vector<int64_t>> strides =
      getWindowInts(node, w, version, "strides", 2, 1, 1);
  if (!strides)
    return strides.takeError();
  llvm::Expected<std::vector<int64_t>> dilations =
      getWindowInts(node, w, version, "dilations", 2, 1, 1);
  if (!dilations)
    return dilations.takeError();
  llvm::Expected<std::vector<int64_t>> pads =
      getWindowInts(node, w, version, "pads", 4, 0, 0);
  if (!pads)
    return pads.takeError();
  int64_t groups = getIntAttribute(node, "group", 1);
  int64_t offsetGroups = getIntAttribute(node, "offset_group", 1);
  if (groups < 1 || offsetGroups < 1)
    return w.fail(version, "group and offset_group must be positive");
  if (llvm::Error failure = checkWindowValues(
          w, version, "group and offset_group", {groups, offsetGroups}))
    return failure;
  int64_t taps = kernel[0] * kernel[1];
  if (taps > kMaxConstantElements)
    return w.fail(version, "kernel " + joinInts(kernel) + " has more than " +
                               llvm::Twine(kMaxConstantElements) +
                               " taps, more than Kiln writes");

  std::string xShape = w.add("Shape", {x});
  std::string batch = w.dim(xShape, 0);
  std::string offsetShape = w.add("Shape", {offset});
  std::string outH = w.dim(offsetShape, 2), outW = w.dim(offsetShape, 3);
  // Where each tap of each output position reads, before its offset:
  // rows [taps, oH, 1] and columns [taps, 1, oW].
  auto positions = [&](int d, const std::string &count) {
    std::string index = w.add(
        "Range", {w.ints({0}, true), w.element(count, 0), w.ints({1}, true)});
    std::string scaled =
        w.add("Add", {w.add("Mul", {w.add("CastLike", {index, x}),
                                    w.floats(x, float((*strides)[d]))}),
                      w.floats(x, float(-(*pads)[d]))});
    std::vector<float> tapOffsets;
    for (int64_t i = 0; i < kernel[0]; ++i)
      for (int64_t j = 0; j < kernel[1]; ++j)
        tapOffsets.push_back(float((d == 0 ? i : j) * (*dilations)[d]));
    std::vector<int64_t> along = d == 0 ? std::vector<int64_t>{1, -1, 1}
                                        : std::vector<int64_t>{1, 1, -1};
    return w.add("Add", {w.add("Reshape", {scaled, w.ints(along)}),
                         w.floats(x, tapOffsets, {taps, 1, 1})});
  };
  std::string rows = positions(0, outH), columns = positions(1, outW);
  // offset [N, og * taps * 2, oH, oW] as [N, og, taps, (dy, dx), oH, oW].
  std::string offsets = w.add(
      "Reshape",
      {offset, w.concat({batch, w.ints({offsetGroups, taps, 2}), outH, outW})});
  auto coordinate = [&](int64_t which, const std::string &base,
                        int64_t sizeDim) {
    std::string delta = w.add("Gather", {offsets, w.ints({which}, true)});
    setInt(w.last(), "axis", 3);
    std::string at = w.add("Add", {delta, base}); // [N, og, taps, oH, oW]
    // GridSample's normalized coordinate (align_corners 0) of pixel p is
    // (2 p + 1) / size - 1.
    std::string size = w.add("CastLike", {w.dim(xShape, sizeDim), x});
    std::string normalized = w.add(
        "Sub",
        {w.add("Div", {w.add("Add", {w.add("Mul", {at, w.floats(x, 2.0f)}),
                                     w.floats(x, 1.0f)}),
                       size}),
         w.floats(x, 1.0f)});
    return w.add("Unsqueeze", {normalized, w.ints({-1})});
  };
  std::string gridX = coordinate(1, columns, 3);
  std::string gridY = coordinate(0, rows, 2);
  std::string grid = w.add("Concat", {gridX, gridY});
  setInt(w.last(), "axis", -1);
  std::string grid4 =
      w.add("Reshape",
            {grid, w.concat({w.ints({-1}), w.add("Mul", {w.ints({taps}), outH}),
                             outW, w.ints({2})})}); // [N og, taps oH, oW, 2]
  std::string image =
      w.add("Reshape",
            {x, w.concat({w.add("Mul", {batch, w.ints({offsetGroups})}),
                          w.ints({-1}), w.dim(xShape, 2), w.dim(xShape, 3)})});
  std::string sampled = w.add("GridSample", {image, grid4});
  setString(w.last(), "mode", "bilinear");
  setString(w.last(), "padding_mode", "zeros");
  setInt(w.last(), "align_corners", 0);
  // [N og, C / og, taps oH, oW] as [N, og, C / og, taps, oH, oW].
  std::string taps6 =
      w.add("Reshape",
            {sampled,
             w.concat({batch, w.ints({offsetGroups, -1, taps}), outH, outW})});
  if (hasInput(node, 4))
    taps6 = w.add(
        "Mul", {taps6, w.add("Reshape",
                             {node.input(4),
                              w.concat({batch, w.ints({offsetGroups, 1, taps}),
                                        outH, outW})})});
  // Columns [N, group, C / group * taps, oH oW] (channel-major, as W's
  // [oC, C / group, kH, kW] flattens), times W as [group, oC / group, ...].
  std::string pixels = w.add("Mul", {outH, outW});
  std::string columnsMatrix = w.add(
      "Reshape", {taps6, w.concat({batch, w.ints({groups, -1}), pixels})});
  std::string perGroup =
      w.add("Mul", {w.dim(w.add("Shape", {weights}), 1), w.ints({taps})});
  std::string filter =
      w.add("Reshape", {weights, w.concat({w.ints({groups, -1}), perGroup})});
  std::string product = w.add("MatMul", {filter, columnsMatrix});
  std::string output =
      hasInput(node, 3) ? "" : node.output(0); // the last node names it
  std::string result =
      w.add("Reshape", {product, w.concat({batch, w.ints({-1}), outH, outW})},
            output);
  if (hasInput(node, 3))
    w.add("Add",
          {result, w.add("Reshape", {node.input(3), w.ints({-1, 1, 1})})},
          node.output(0));
  return llvm::Error::success();
}

llvm::Error onnx_plugin::writeNewOp(onnx::NodeProto &node, NodeWriter &w,
                                    const GraphFacts &facts, int64_t version) {
  llvm::StringRef type = node.op_type();
  if (type == "CenterCropPad")
    return writeCenterCropPad(node, w, facts, version);
  if (type == "Col2Im")
    return writeCol2Im(node, w, facts, version);
  if (type == "AffineGrid")
    return writeAffineGrid(node, w, facts, version);
  assert(type == "DeformConv" && "an op hasOpset17Form accepts");
  return writeDeformConv(node, w, facts, version);
}

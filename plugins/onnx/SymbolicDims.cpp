//===- SymbolicDims.cpp - Symbolic sizes checked at the call --------------===//

#include "SymbolicDims.h"

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/RuntimeChecks/Checks.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/StringMap.h"

#include "onnx/onnx_pb.h"

using namespace mlir;
using namespace kiln;

void onnx_plugin::checkSymbolicDims(
    OpBuilder &b, Location loc, ArrayRef<const onnx::ValueInfoProto *> infos,
    ValueRange arguments) {
  // Where each symbol is first seen: the input and its dim.
  struct Occurrence {
    unsigned input;
    int64_t dim;
  };
  llvm::StringMap<Occurrence> first;
  auto describe = [&](unsigned input, int64_t dim) {
    return "dimension " + std::to_string(dim) + " of '" + infos[input]->name() +
           "' (input " + std::to_string(input) + ")";
  };
  for (auto [input, info] : llvm::enumerate(infos)) {
    auto type = dyn_cast<RankedTensorType>(arguments[input].getType());
    if (!type || !info->type().has_tensor_type() ||
        !info->type().tensor_type().has_shape())
      continue;
    const onnx::TensorShapeProto &shape = info->type().tensor_type().shape();
    for (int64_t dim = 0; dim < shape.dim_size() && dim < type.getRank();
         ++dim) {
      const onnx::TensorShapeProto_Dimension &proto = shape.dim(dim);
      if (!proto.has_dim_param() || proto.dim_param().empty() ||
          !type.isDynamicDim(dim))
        continue;
      auto [seen, inserted] = first.try_emplace(
          proto.dim_param(), Occurrence{unsigned(input), dim});
      if (inserted)
        continue;
      const Occurrence &earlier = seen->second;
      Value expected =
          createDimSize(b, loc, arguments[earlier.input], earlier.dim);
      Value actual = createDimSize(b, loc, arguments[input], dim);
      Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         expected, actual);
      createAssert(b, loc, same,
                   describe(input, dim) + " is {1}, but '" + proto.dim_param() +
                       "' is {0} (" + describe(earlier.input, earlier.dim) +
                       ")",
                   {expected, actual});
    }
  }
}

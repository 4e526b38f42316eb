//===- ONNXOps.cpp - The onnx dialect -------------------------------------===//

#include "ONNX.h"

using namespace mlir;
using namespace kiln::onnx_plugin;

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include "ONNXDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ONNXTypes.cpp.inc"

#define GET_OP_CLASSES
#include "ONNXOps.cpp.inc"

void ONNXDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ONNXTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "ONNXOps.cpp.inc"
      >();
}

std::string kiln::onnx_plugin::describeNode(NodeOp node) {
  std::string name;
  if (auto named = dyn_cast<NameLoc>(node.getLoc()))
    name = named.getName().str();
  std::string text = "node ";
  if (!name.empty())
    text += "'" + name + "' ";
  text += "(" + node.getOpType().str();
  if (!node.getDomain().empty())
    text += ", domain '" + node.getDomain().str() + "'";
  text += ", opset " + std::to_string(node.getOpset()) + ")";
  return text;
}

LogicalResult NodeOp::verify() {
  size_t named = getGraphAttrs() ? getGraphAttrs()->size() : 0;
  if (named != getBodies().size())
    return emitOpError() << "has " << getBodies().size()
                         << " regions but names " << named
                         << " graph attributes; graph_attrs names each region";
  return success();
}

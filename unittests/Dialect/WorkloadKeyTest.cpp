//===- WorkloadKeyTest.cpp - Keys of what root ops compute ----------------===//
//
// Equal keys for ops that compute the same thing on the same shapes, in any
// function and whatever Kiln recorded on them; different keys for other
// shapes, element types, ops, indexing or bodies.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/Utils/WorkloadKey.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;

namespace {

const char *kProgram = R"mlir(
#id = affine_map<(i, j) -> (i, j)>
func.func @f(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
func.func @same_elsewhere(%x: tensor<8xf32>, %c: tensor<64x16xf32>, %b: tensor<32x16xf32>, %a: tensor<64x32xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [1, 8, 1]>} ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32> loc("elsewhere.mlir":3:4)
  return %r : tensor<64x16xf32>
}
func.func @other_shape(%a: tensor<64x32xf32>, %b: tensor<32x8xf32>, %c: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x8xf32>) outs(%c : tensor<64x8xf32>) -> tensor<64x8xf32>
  return %r : tensor<64x8xf32>
}
func.func @other_type(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x16xf16>) outs(%c : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
func.func @add(%a: tensor<64x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x16xf32>) outs(%c : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
func.func @mul(%a: tensor<64x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<64x16xf32>) outs(%c : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
)mlir";

class WorkloadKeyTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    linalg::registerTilingInterfaceExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, tensor::TensorDialect,
                        kiln::KilnDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
    ASSERT_TRUE(module);
  }
  std::string keyOf(StringRef function) {
    Operation *root = nullptr;
    module->lookupSymbol<func::FuncOp>(function).walk(
        [&](linalg::LinalgOp op) { root = op; });
    return kiln::computeWorkloadKey(root);
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(WorkloadKeyTest, SameWorkloadSameKey) {
  std::string key = keyOf("f");
  EXPECT_EQ(key.rfind(kiln::kWorkloadKeyPrefix, 0), 0u);
  EXPECT_EQ(key.size(), 4u + 16u);
  EXPECT_EQ(key, keyOf("f"));
  // Other argument order, a config and a location: the same workload.
  EXPECT_EQ(key, keyOf("same_elsewhere"));
}

TEST_F(WorkloadKeyTest, OtherWorkloadsOtherKeys) {
  std::string key = keyOf("f");
  EXPECT_NE(key, keyOf("other_shape"));
  EXPECT_NE(key, keyOf("other_type"));
  EXPECT_NE(key, keyOf("add"));
  EXPECT_NE(keyOf("add"), keyOf("mul"));
}

TEST_F(WorkloadKeyTest, TheTextHasNoKilnAttributesOrLocations) {
  Operation *root = nullptr;
  module->lookupSymbol<func::FuncOp>("same_elsewhere")
      .walk([&](linalg::LinalgOp op) { root = op; });
  std::string text = kiln::printWorkloadKeyText(root);
  EXPECT_EQ(text.find("kiln."), std::string::npos) << text;
  EXPECT_EQ(text.find("elsewhere.mlir"), std::string::npos) << text;
  EXPECT_NE(text.find("linalg.matmul"), std::string::npos) << text;
  // The IR it was taken from is unchanged.
  EXPECT_TRUE(root->hasAttr("kiln.lowering_config"));
}

} // namespace

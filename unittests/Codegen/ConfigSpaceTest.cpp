//===- ConfigSpaceTest.cpp - The configs an autotuner searches ------------===//
//
// The llvm-cpu config space of a matmul, a convolution and an elementwise
// op: the heuristic's config is its base point, every point fits the
// registers and caches and passes codegen's verifier, and the axes follow
// the CPU.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln;

namespace {

std::string debugString(Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

const char *kProgram = R"mlir(
func.func @matmul(%a: tensor<256x384xf32>, %b: tensor<384x512xf32>, %c: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x384xf32>, tensor<384x512xf32>) outs(%c : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
func.func @conv(%i: tensor<1x16x16x16xf32>, %f: tensor<32x3x3x16xf32>, %o: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  %r = linalg.conv_2d_nhwc_fhwc ins(%i, %f : tensor<1x16x16x16xf32>, tensor<32x3x3x16xf32>) outs(%o : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %r : tensor<1x14x14x32xf32>
}
func.func @add(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.add ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%b : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
)mlir";

/// An AVX2 core with Zen 3's caches, and an AVX-512 one.
CPUTargetInfo avx2() {
  CPUTargetInfo cpu;
  cpu.vectorBits = 256;
  cpu.vectorRegisters = 16;
  cpu.l1Bytes = 32 * 1024;
  cpu.l2Bytes = 512 * 1024;
  cpu.hasFMA = true;
  return cpu;
}
CPUTargetInfo avx512() {
  CPUTargetInfo cpu = avx2();
  cpu.vectorBits = 512;
  cpu.vectorRegisters = 32;
  cpu.l2Bytes = 1024 * 1024;
  return cpu;
}

class ConfigSpaceTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    linalg::registerTilingInterfaceExternalModels(registry);
    context.appendDialectRegistry(registry);
    context.loadDialect<arith::ArithDialect, func::FuncDialect,
                        linalg::LinalgDialect, math::MathDialect,
                        tensor::TensorDialect, KilnDialect>();
    module = parseSourceString<ModuleOp>(kProgram, &context);
    ASSERT_TRUE(module);
  }
  /// The first linalg op of function `name`.
  Operation *root(StringRef name) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    Operation *found = nullptr;
    func.walk([&](linalg::LinalgOp op) { found = op; });
    return found;
  }
  /// Checks what every config of `space` must be, for `cpu`.
  void checkConfigs(Operation *op, const ConfigSpace &space,
                    const CPUTargetInfo &cpu, size_t limit) {
    std::vector<LoweringConfigAttr> configs = space.enumerate(limit);
    ASSERT_FALSE(configs.empty());
    EXPECT_EQ(configs.front(), space.getBase());
    EXPECT_LE(configs.size(), limit);
    llvm::DenseSet<Attribute> seen;
    for (LoweringConfigAttr config : configs) {
      EXPECT_TRUE(seen.insert(config).second)
          << "twice: " << debugString(config);
      EXPECT_TRUE(succeeded(verifyCPULoweringConfig(op, config, [&] {
        return emitError(op->getLoc());
      }))) << debugString(config);
      EXPECT_EQ(config.getPipeline(), space.getBase().getPipeline());
    }
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ConfigSpaceTest, MatmulAxesAroundTheHeuristic) {
  Operation *op = root("matmul");
  CPUTargetInfo cpu = avx2();
  std::optional<ConfigSpace> space = ConfigSpace::get(op, cpu);
  ASSERT_TRUE(space.has_value());
  EXPECT_EQ(space->getBase(), selectCPULoweringConfig(op, cpu));
  std::vector<std::string> names;
  for (const ConfigAxis &axis : space->getAxes())
    names.push_back(axis.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "register rows", "register columns", "cache depth",
                       "workgroup rows", "workgroup columns"}));
  // The base point gives the base config.
  EXPECT_EQ(space->getConfig(space->getBasePoint()), space->getBase());
  checkConfigs(op, *space, cpu, 100000);

  // Every config fits: accumulators, a row of B and a broadcast in 16
  // registers; a kc x nc block of B in L2, a kc x nr panel in L1; no
  // workgroup past the loop by a register tile.
  std::vector<LoweringConfigAttr> configs = space->enumerate(100000);
  EXPECT_GT(configs.size(), 100u);
  for (LoweringConfigAttr config : configs) {
    ArrayRef<int64_t> reg = config.getRegisterTile();
    ArrayRef<int64_t> cache = config.getCacheTile();
    ArrayRef<int64_t> wg = config.getWorkgroupTile();
    int64_t vectors = (reg[1] + 7) / 8;
    EXPECT_LE(reg[0] * vectors + vectors + 1, 16) << debugString(config);
    EXPECT_LE(cache[2] * cache[1] * 4, 512 * 1024) << debugString(config);
    EXPECT_LE(cache[2] * reg[1] * 4, 32 * 1024) << debugString(config);
    EXPECT_LT(wg[0], 256 + reg[0]) << debugString(config);
    EXPECT_EQ(wg[0] % reg[0], 0) << debugString(config);
    EXPECT_EQ(wg[1] % reg[1], 0) << debugString(config);
  }
  // A point off an axis is outside the space.
  std::vector<size_t> past = space->getBasePoint();
  past[0] = space->getAxes()[0].values.size();
  EXPECT_FALSE(space->getConfig(past));
  EXPECT_FALSE(space->getConfig({}));
}

TEST_F(ConfigSpaceTest, WiderRegisterFilesTakeMoreRows) {
  Operation *op = root("matmul");
  std::optional<ConfigSpace> narrow = ConfigSpace::get(op, avx2());
  std::optional<ConfigSpace> wide = ConfigSpace::get(op, avx512());
  ASSERT_TRUE(narrow && wide);
  int64_t narrowRows = 0, wideRows = 0;
  for (LoweringConfigAttr config : narrow->enumerate(100000))
    narrowRows = std::max(narrowRows, config.getRegisterTile()[0]);
  for (LoweringConfigAttr config : wide->enumerate(100000))
    wideRows = std::max(wideRows, config.getRegisterTile()[0]);
  EXPECT_LE(narrowRows, 7); // 7 rows x 1 vector + 1 + 1 = 9 .. 14 x 1 = 16
  EXPECT_GT(wideRows, narrowRows);
  checkConfigs(op, *wide, avx512(), 100000);
}

TEST_F(ConfigSpaceTest, ConvolutionStripsAndWorkgroups) {
  Operation *op = root("conv");
  CPUTargetInfo cpu = avx2();
  std::optional<ConfigSpace> space = ConfigSpace::get(op, cpu);
  ASSERT_TRUE(space.has_value());
  EXPECT_EQ(space->getBase().getPipeline().getValue(), "cpu-convolution");
  EXPECT_FALSE(space->getAxes().empty());
  EXPECT_EQ(space->getConfig(space->getBasePoint()), space->getBase());
  checkConfigs(op, *space, cpu, 100000);
  EXPECT_GT(space->enumerate(100000).size(), 10u);
}

TEST_F(ConfigSpaceTest, OtherOpsAreTheBaseAlone) {
  Operation *op = root("add");
  std::optional<ConfigSpace> space = ConfigSpace::get(op, avx2());
  ASSERT_TRUE(space.has_value());
  EXPECT_TRUE(space->getAxes().empty());
  std::vector<LoweringConfigAttr> configs = space->enumerate(10);
  ASSERT_EQ(configs.size(), 1u);
  EXPECT_EQ(configs.front(), selectCPULoweringConfig(op, avx2()));
  EXPECT_TRUE(space->enumerate(0).empty());
}

} // namespace

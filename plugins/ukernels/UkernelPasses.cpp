//===- UkernelPasses.cpp - Matmuls through a hand-written micro-kernel ----===//
//
// The ukernels plugin's own path for f32 matmuls: its configuration (tiles
// sized for its micro-kernel) and the rewrite of each matmul, once
// bufferized, into a call of the micro-kernel below, which is MLIR written
// by hand and added to every variant that uses it.
//
//===----------------------------------------------------------------------===//

#include "UkernelPasses.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace kiln::ukernels {

/// C[M x N] += A[M x K] * B[K x N] in f32, for any sizes; rows are
/// contiguous (unit inner stride). For each 32 columns of C, blocks of up
/// to 256 rows of B are copied into a contiguous panel on the stack (rows
/// of B a power of two apart would fight over the same cache sets), and
/// each 6 x 32 tile of C is kept in six vector<32xf32> accumulators
/// (twelve AVX-512 registers) over the block: per k, each of six elements
/// of a column of A, broadcast, times a row of the panel. Rows and columns
/// past the last full tile take a scalar loop. One accumulator per row, not
/// a vector<6x32xf32>: LLVM keeps separate vectors in registers across the
/// loop, but not an array of them.
static constexpr llvm::StringLiteral kKernelSource = R"mlir(
!view = memref<?x?xf32, strided<[?, 1], offset: ?>>
func.func private @kiln_ukernels_matmul_f32(%A: !view, %B: !view, %C: !view) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %M = memref.dim %A, %c0 : !view
  %K = memref.dim %A, %c1 : !view
  %N = memref.dim %B, %c1 : !view
  %mRest = arith.remui %M, %c6 : index
  %mFull = arith.subi %M, %mRest : index
  %nRest = arith.remui %N, %c32 : index
  %nFull = arith.subi %N, %nRest : index
  // A panel of B: up to 256 rows of 32 columns, contiguous (32 KiB).
  %panel = memref.alloca() {alignment = 64 : i64} : memref<256x32xf32>
  scf.for %j = %c0 to %nFull step %c32 {
    scf.for %kk = %c0 to %K step %c256 {
      %kLeft = arith.subi %K, %kk : index
      %kc = arith.minui %kLeft, %c256 : index
      scf.for %k = %c0 to %kc step %c1 {
        %row = arith.addi %kk, %k : index
        %b = vector.load %B[%row, %j] : !view, vector<32xf32>
        vector.store %b, %panel[%k, %c0] : memref<256x32xf32>, vector<32xf32>
      }
      scf.for %i = %c0 to %mFull step %c6 {
        %i1 = arith.addi %i, %c1 : index
        %i2 = arith.addi %i, %c2 : index
        %i3 = arith.addi %i, %c3 : index
        %i4 = arith.addi %i, %c4 : index
        %i5 = arith.addi %i, %c5 : index
        %init0 = vector.load %C[%i, %j] : !view, vector<32xf32>
        %init1 = vector.load %C[%i1, %j] : !view, vector<32xf32>
        %init2 = vector.load %C[%i2, %j] : !view, vector<32xf32>
        %init3 = vector.load %C[%i3, %j] : !view, vector<32xf32>
        %init4 = vector.load %C[%i4, %j] : !view, vector<32xf32>
        %init5 = vector.load %C[%i5, %j] : !view, vector<32xf32>
        %tile:6 = scf.for %k = %c0 to %kc step %c1
            iter_args(%acc0 = %init0, %acc1 = %init1, %acc2 = %init2,
                      %acc3 = %init3, %acc4 = %init4, %acc5 = %init5)
            -> (vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>,
                vector<32xf32>, vector<32xf32>) {
          %b = vector.load %panel[%k, %c0] : memref<256x32xf32>, vector<32xf32>
          %col = arith.addi %kk, %k : index
          %a0 = memref.load %A[%i, %col] : !view
          %va0 = vector.broadcast %a0 : f32 to vector<32xf32>
          %next0 = vector.fma %va0, %b, %acc0 : vector<32xf32>
          %a1 = memref.load %A[%i1, %col] : !view
          %va1 = vector.broadcast %a1 : f32 to vector<32xf32>
          %next1 = vector.fma %va1, %b, %acc1 : vector<32xf32>
          %a2 = memref.load %A[%i2, %col] : !view
          %va2 = vector.broadcast %a2 : f32 to vector<32xf32>
          %next2 = vector.fma %va2, %b, %acc2 : vector<32xf32>
          %a3 = memref.load %A[%i3, %col] : !view
          %va3 = vector.broadcast %a3 : f32 to vector<32xf32>
          %next3 = vector.fma %va3, %b, %acc3 : vector<32xf32>
          %a4 = memref.load %A[%i4, %col] : !view
          %va4 = vector.broadcast %a4 : f32 to vector<32xf32>
          %next4 = vector.fma %va4, %b, %acc4 : vector<32xf32>
          %a5 = memref.load %A[%i5, %col] : !view
          %va5 = vector.broadcast %a5 : f32 to vector<32xf32>
          %next5 = vector.fma %va5, %b, %acc5 : vector<32xf32>
          scf.yield %next0, %next1, %next2, %next3, %next4, %next5
              : vector<32xf32>, vector<32xf32>, vector<32xf32>, vector<32xf32>,
                vector<32xf32>, vector<32xf32>
        }
        vector.store %tile#0, %C[%i, %j] : !view, vector<32xf32>
        vector.store %tile#1, %C[%i1, %j] : !view, vector<32xf32>
        vector.store %tile#2, %C[%i2, %j] : !view, vector<32xf32>
        vector.store %tile#3, %C[%i3, %j] : !view, vector<32xf32>
        vector.store %tile#4, %C[%i4, %j] : !view, vector<32xf32>
        vector.store %tile#5, %C[%i5, %j] : !view, vector<32xf32>
      }
    }
  }
  // Rows past the last full tile, then columns past it.
  scf.for %i = %mFull to %M step %c1 {
    scf.for %j = %c0 to %nFull step %c1 {
      func.call @kiln_ukernels_dot_f32(%A, %B, %C, %i, %j)
          : (!view, !view, !view, index, index) -> ()
    }
  }
  scf.for %i = %c0 to %M step %c1 {
    scf.for %j = %nFull to %N step %c1 {
      func.call @kiln_ukernels_dot_f32(%A, %B, %C, %i, %j)
          : (!view, !view, !view, index, index) -> ()
    }
  }
  return
}

// C[i, j] += A[i, :] . B[:, j]
func.func private @kiln_ukernels_dot_f32(%A: !view, %B: !view, %C: !view,
                                         %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %K = memref.dim %A, %c1 : !view
  %init = memref.load %C[%i, %j] : !view
  %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %init) -> (f32) {
    %a = memref.load %A[%i, %k] : !view
    %b = memref.load %B[%k, %j] : !view
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    scf.yield %s : f32
  }
  memref.store %sum, %C[%i, %j] : !view
  return
}
)mlir";

/// The register tile of the micro-kernel, and workgroup tiles that hold
/// whole register tiles.
static constexpr int64_t kTileM = 6 * 32;
static constexpr int64_t kTileN = 32 * 2;

static bool isF32Matmul(linalg::MatmulOp matmul) {
  return llvm::all_of(matmul->getOperandTypes(), [](Type type) {
    return getElementTypeOrSelf(type).isF32();
  });
}

bool hasF32Matmul(ExecutableVariantOp variant) {
  bool found = false;
  variant.walk([&](linalg::MatmulOp matmul) { found |= isF32Matmul(matmul); });
  return found;
}

namespace {

struct ConfigureMatmulPass
    : public PassWrapper<ConfigureMatmulPass,
                         OperationPass<ExecutableVariantOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ConfigureMatmulPass)

  llvm::StringRef getArgument() const override {
    return "ukernels-configure-matmul";
  }
  llvm::StringRef getDescription() const override {
    return "Set the ukernels plugin's lowering config on f32 matmuls";
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    getOperation().walk([&](linalg::MatmulOp matmul) {
      if (!isF32Matmul(matmul))
        return;
      auto config = LoweringConfigAttr::get(
          context, StringAttr::get(context, "ukernels-matmul"),
          {kTileM, kTileN, 0}, {}, {}, {});
      matmul->setAttr(KilnDialect::getLoweringConfigAttrName(), config);
    });
  }
};

struct MatmulToUkernelPass
    : public PassWrapper<MatmulToUkernelPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MatmulToUkernelPass)

  MatmulToUkernelPass() = default;
  MatmulToUkernelPass(const MatmulToUkernelPass &other) : PassWrapper(other) {}
  explicit MatmulToUkernelPass(KernelMode kernelMode) {
    mode = kernelMode == KernelMode::Import ? "import" : "inline";
  }

  llvm::StringRef getArgument() const override {
    return "ukernels-matmul-to-call";
  }
  llvm::StringRef getDescription() const override {
    return "Replace f32 matmuls on memrefs with calls of the ukernels "
           "plugin's micro-kernel";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect, KilnDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (mode != "inline" && mode != "import") {
      module.emitError() << "ukernels: mode '" << mode
                         << "' is neither 'inline' nor 'import'";
      return signalPassFailure();
    }
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp matmul) {
      if (isF32Matmul(matmul) && matmul.hasPureBufferSemantics())
        matmuls.push_back(matmul);
    });
    if (matmuls.empty())
      return;

    func::FuncOp kernel;
    MLIRContext *context = &getContext();
    Type f32 = Float32Type::get(context);
    auto viewType =
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, f32,
                        StridedLayoutAttr::get(context, ShapedType::kDynamic,
                                               {ShapedType::kDynamic, 1}));
    if (mode == "inline") {
      kernel = getOrAddKernel(module);
      if (!kernel)
        return signalPassFailure();
    }
    for (linalg::MatmulOp matmul : matmuls) {
      OpBuilder builder(matmul);
      SmallVector<Value> operands;
      for (Value operand : matmul->getOperands()) {
        auto type = cast<MemRefType>(operand.getType());
        if (!memref::CastOp::areCastCompatible(type, viewType)) {
          // Not rows of unit stride: left to Kiln's loops.
          matmul.emitRemark("ukernels: operand of type ")
              << type << " does not fit the micro-kernel; lowered as loops";
          operands.clear();
          break;
        }
        operands.push_back(memref::CastOp::create(builder, matmul.getLoc(),
                                                  viewType, operand));
      }
      if (operands.empty())
        continue;
      if (kernel)
        func::CallOp::create(builder, matmul.getLoc(), kernel, operands);
      else
        callExtension(builder, matmul.getLoc(), operands);
      matmul.erase();
    }
  }

  /// The extension's micro-kernel on A, B and C: (A, lda, B, ldb, C, ldc,
  /// M, N, K), pointers to the first elements and the rows' strides.
  static void callExtension(OpBuilder &builder, Location loc,
                            ArrayRef<Value> views) {
    SmallVector<Value> args;
    for (Value view : views) {
      auto metadata =
          memref::ExtractStridedMetadataOp::create(builder, loc, view);
      args.push_back(view);
      args.push_back(metadata.getStrides()[0]);
    }
    auto dim = [&](Value view, int64_t index) -> Value {
      return memref::DimOp::create(builder, loc, view, index);
    };
    args.push_back(dim(views[0], 0)); // M
    args.push_back(dim(views[1], 1)); // N
    args.push_back(dim(views[0], 1)); // K
    CallKernelExternOp::create(builder, loc, kExternName, args);
  }

  Option<std::string> mode{*this, "mode",
                           llvm::cl::desc("inline or import (the micro-kernel "
                                          "from the runtime extension)"),
                           llvm::cl::init("inline")};

  /// The micro-kernel, parsed into `module` the first time.
  func::FuncOp getOrAddKernel(ModuleOp module) {
    SymbolTable symbols(module);
    if (auto existing = symbols.lookup<func::FuncOp>(kKernelName))
      return existing;
    OwningOpRef<ModuleOp> source =
        parseSourceString<ModuleOp>(kKernelSource, module.getContext());
    if (!source) {
      module.emitError("ukernels: the micro-kernel source does not parse");
      return {};
    }
    for (Operation &op :
         llvm::make_early_inc_range(source->getBody()->getOperations())) {
      op.remove();
      symbols.insert(&op);
    }
    return symbols.lookup<func::FuncOp>(kKernelName);
  }
};

} // namespace

std::unique_ptr<Pass> createConfigureMatmulPass() {
  return std::make_unique<ConfigureMatmulPass>();
}

std::unique_ptr<Pass> createMatmulToUkernelPass(KernelMode mode) {
  return std::make_unique<MatmulToUkernelPass>(mode);
}

void registerPasses() {
  PassRegistration<ConfigureMatmulPass>();
  PassRegistration<MatmulToUkernelPass>();
}

} // namespace kiln::ukernels

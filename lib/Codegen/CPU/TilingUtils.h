//===- TilingUtils.h - Tiling steps the CPU pipelines share -----*- C++ -*-===//
//
// The steps of inner tiling that every CPU pipeline takes: tiling an op by
// one level of its config, peeling partial tiles, vectorizing a tile, and
// folding what tiling leaves behind.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CODEGEN_CPU_TILINGUTILS_H
#define KILN_LIB_CODEGEN_CPU_TILINGUTILS_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace kiln {

/// Folds what tiling leaves behind: constant tile sizes become static
/// shapes, slices of empty tensors empty tensors, and slices feeding vector
/// transfers fold into them.
llvm::LogicalResult cleanUpTiling(mlir::Operation *root);

/// Tiles `op` by `sizes` (0: not tiled) with scf.for loops, replacing it.
/// Returns the tiled op.
mlir::FailureOr<mlir::Operation *> tileOp(mlir::RewriterBase &rewriter,
                                          mlir::TilingInterface op,
                                          llvm::ArrayRef<int64_t> sizes);

/// Tiles `op` by `sizes` and peels the partial last tile of each tiled
/// parallel loop into a loop of its own, so that full tiles have static
/// shapes and vectorize without masks. The loops of `rowDims` (those whose
/// every index is a vector register of its own, like a matmul's rows) are
/// tiled first, the others inside each row tile; a partial row tile of a
/// size known only at run time is split into tiles of halving sizes (4, 2,
/// 1 rows of a tile of 8; the 4 still masked, the others static) instead
/// of one tile of 8 masked by rows, which computes all 8.
llvm::LogicalResult tileAndPeel(mlir::RewriterBase &rewriter,
                                mlir::TilingInterface op,
                                llvm::ArrayRef<int64_t> sizes,
                                llvm::ArrayRef<unsigned> rowDims = {});

/// Vectorizes `op`, masking it to `vectorSizes` when its shape is not
/// static. Leaves ops the vectorizer does not support alone.
void vectorizeOp(mlir::RewriterBase &rewriter, mlir::Operation *op,
                 llvm::ArrayRef<int64_t> vectorSizes, bool contraction);

/// `sizes` (one per loop of `op`, or fewer) with the loops of the other
/// kind than `parallel` zeroed.
llvm::SmallVector<int64_t> sizesOfKind(mlir::TilingInterface op,
                                       llvm::ArrayRef<int64_t> sizes,
                                       bool parallel);

/// The op in `scope` (a function, or a loop of it) that carries a
/// lowering config: the root, or what tiling and canonicalization made of
/// it.
mlir::Operation *findConfiguredOp(mlir::Operation *scope);

/// The ops in `scope` (a function, or a loop of it) that carry a lowering
/// config: the tiles of the root.
llvm::SmallVector<mlir::Operation *> findConfiguredOps(mlir::Operation *scope);

/// Packs the B operand of a cache-tiled matmul-like op into panels of the
/// register tile's width along N, [N/nr][K][nr], so that the register tile
/// streams through contiguous memory. Returns the packed op with a config
/// for its loops; fails, leaving `op`, where B's N is its innermost dim
/// and its rows are read in place (they are runs along N already; packed
/// only where they would collide in the L1 cache), or B is not found.
mlir::FailureOr<mlir::linalg::LinalgOp>
packContractionRhs(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                   LoweringConfigAttr config);

/// Whether the cpu-convolution pipeline pads each register strip of a
/// convolution on its own (reading the image in place away from the
/// borders, its window row by row at them) rather than its workgroup's
/// part of the image up front: for convolutions without input channels
/// (pooling, depthwise). A row of dynamic width ends in strips of static
/// widths too (its partial strip split, splitPartialStrips).
inline bool padsPerRegisterStrip(bool hasInputChannels, int64_t stripWidth) {
  return !hasInputChannels && stripWidth > 0;
}

/// Filter rows (one input channel's output channels, innermost in HWCF) at
/// least this many bytes apart are copied into a contiguous panel when a
/// workgroup takes one register tile's worth of output channels: a
/// register tile steps through one row per input channel and filter tap,
/// and rows 1-8 KiB apart put four or fewer of them in a page, which kept
/// ResNet's 3x3 convolution of 256 channels at 150 GFLOP/s on a Zen 5
/// where the same convolution with 32 or 64 output channels (rows 128 or
/// 256 bytes apart) ran at 210-220.
constexpr int64_t kMinStridedFilterRowBytes = 512;

/// The fewest register strips (of output width, one output row each) a
/// workgroup sweeps over a filter panel for the copy to pay: on ResNet's
/// 3x3 convolution of 512 channels at 7x7 (seven strips, a 590 KB panel
/// per workgroup) copying took a third of the time, as long as it saved.
constexpr int64_t kMinFilterPanelStrips = 8;

/// Whether the cpu-convolution pipeline copies a workgroup's panel of a
/// filter whose rows are `rowBytes` apart, swept by `strips` register
/// strips; the heuristic shapes workgroups for it by the same rule.
inline bool copiesFilterPanel(uint64_t rowBytes, uint64_t strips) {
  return rowBytes >= uint64_t(kMinStridedFilterRowBytes) &&
         strips >= uint64_t(kMinFilterPanelStrips);
}

/// The ops that consume `root`'s result one after another, element for
/// element: each the only user of the previous one's result, all-parallel
/// over the result's shape, reading it and writing its own result (of any
/// element type: a truncation or quantization ends an epilogue too) with
/// identity maps.
llvm::SmallVector<mlir::linalg::LinalgOp>
getEpilogue(mlir::linalg::LinalgOp root);

/// Tiles the parallel loops of `root` by `sizes` (one per loop of `root`;
/// its reduction loops are left whole) together with its epilogue (the
/// all-parallel ops that take its result element for element, one after
/// another: bias, activation, residual addition) and the fill that starts
/// its result, then peels partial tiles. With `markRegisterTiles`, the
/// tiles of the epilogue and of the fill are marked for
/// vectorizeRegisterEpilogues.
llvm::LogicalResult tileWithEpilogue(mlir::RewriterBase &rewriter,
                                     mlir::TilingInterface root,
                                     llvm::ArrayRef<int64_t> sizes,
                                     bool markRegisterTiles);

/// Vectorizes the marked tiles of epilogues and fills whole (static ones;
/// the others are left for the vector-sized tiling of parallel ops), so
/// that their vectors are the register tile's, and drops the marks.
void vectorizeRegisterEpilogues(mlir::RewriterBase &rewriter,
                                mlir::func::FuncOp func);

/// The loop of a convolution that a workgroup takes one of, and that
/// codegen drops (GroupedConvolution.cpp): the group of a grouped
/// convolution (one depth loop, in the image, the filter and the output,
/// beside input and output channels), or the panel of a filter packed in
/// panels (the outer of two output-channel loops, the inner one innermost
/// in the output: PackConvolutionFilters.cpp in global optimization).
/// Depthwise convolutions (no input channels) have none.
struct ConvolutionUnitLoop {
  enum class Kind { Group, FilterPanel };
  unsigned loop;
  Kind kind;
  bool isFilterPanel() const { return kind == Kind::FilterPanel; }
  /// "group" or "filter panel", for messages.
  llvm::StringRef name() const {
    return isFilterPanel() ? "filter panel" : "group";
  }
};
std::optional<ConvolutionUnitLoop>
getConvolutionUnitLoop(mlir::linalg::LinalgOp op);

/// The grouped or panel-packed convolution `root`, configured by
/// `config`, in a workgroup of one group or panel: that loop dropped from
/// it, its fill and its epilogue, and a multiply-add made a
/// linalg.conv_2d_nhwc_hwcf. Returns the new root and its config (the
/// loop's entries dropped), or `root` and `config` when `root` has no such
/// loop.
mlir::FailureOr<std::pair<mlir::Operation *, LoweringConfigAttr>>
dropConvolutionUnitLoop(mlir::RewriterBase &rewriter, mlir::Operation *root,
                        LoweringConfigAttr config);

/// How many groups of the grouped convolution `op` (a generic over NHWGC
/// images, its filter KH x KW x G x C x F, a multiply-add of one float type,
/// every loop but the batch static) a vector of `lanes` holds side by side,
/// (group, output channel) per lane: where a group has fewer output channels
/// than the vector has lanes, a divisor of them, and the groups divide
/// evenly (MultiGroupConvolution.cpp). None otherwise.
std::optional<int64_t> getGroupsPerVector(mlir::linalg::LinalgOp op,
                                          int64_t lanes);

/// The group loop of `op` when `registerTile` takes several groups of it
/// (a multi-group register tile), else none.
std::optional<unsigned> getMultiGroupLoop(mlir::linalg::LinalgOp op,
                                          llvm::ArrayRef<int64_t> registerTile);

/// Checks a config whose register tile takes several groups of `op`:
/// workgroup and cache tiles of as many groups, every output channel of
/// them, one output row of one image, the filter window and input channels
/// whole.
llvm::LogicalResult
verifyMultiGroupTiles(mlir::linalg::LinalgOp op, LoweringConfigAttr config,
                      llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// Vectorizes a register tile of several groups of a grouped convolution:
/// one vector of accumulators per output pixel, lanes (group, output
/// channel), carried through a loop over the filter's rows (its columns
/// unrolled); each input channel shuffled out of a pixel's run of the image
/// into its groups' lanes once, for every tap that reads the pixel.
llvm::LogicalResult vectorizeMultiGroupConvolution(mlir::RewriterBase &rewriter,
                                                   mlir::linalg::LinalgOp op);

/// Narrows the filter window of each configured linalg.conv_2d_nhwc_hwcf
/// tile of one output row whose image is (a slice of) a tensor.pad with
/// zeros, or the scf.if that workgroup tiling makes of one, to the filter
/// rows that meet image rows: the others multiply zeros
/// (SkipPaddingRows.cpp). Before the padding is materialized.
void skipPaddingRows(mlir::RewriterBase &rewriter, mlir::func::FuncOp func);

/// Tiles a configured convolution (its cache tile then its register tile),
/// decomposes each register tile into a 1-D convolution and vectorizes it:
/// a tile of output width x output channels accumulates in vector
/// registers across the filter window and input channels.
llvm::LogicalResult tileAndVectorizeConvolution(mlir::RewriterBase &rewriter,
                                                mlir::func::FuncOp func,
                                                mlir::Operation *root,
                                                LoweringConfigAttr config);

/// Uniform tensor.generate ops (what tiling makes of a tile entirely in
/// the padding) become fills, which vectorize and which slices fold into.
void materializeGenerates(mlir::RewriterBase &rewriter,
                          mlir::func::FuncOp func);

/// Padding fused into a convolution's tiles: each tensor.pad with a
/// constant padding value becomes a choice between reading the image in
/// place (a tile away from its borders) and a tile of the padded image (a
/// copy of the image's part and fills of the frame around it, linalg ops
/// that vectorize where tensor.pad would bufferize into element-by-element
/// copies). With `readRowsInPlace`, pads not padded along their innermost
/// dim are kept instead of the padded tile, for readPaddedWindows once
/// the tiles are vectorized. Tiles entirely in the padding become fills.
void materializePadding(mlir::RewriterBase &rewriter, mlir::func::FuncOp func,
                        bool readRowsInPlace);

/// Replaces `op`, which reads the one result of `ifOp` (a choice between
/// two tensors computed without side effects), with an scf.if on `ifOp`'s
/// condition whose branches each compute `ifOp`'s branch and a copy of
/// `op` reading what that branch yields:
///
///   %w = scf.if %c { yield %a } else { yield %b }
///   %r = op(%w)
/// ->
///   %r = scf.if %c { yield op(%a) } else { yield op(%b) }
///
/// `ifOp` stays for its other uses.
void versionOverIf(mlir::RewriterBase &rewriter, mlir::scf::IfOp ifOp,
                   mlir::Operation *op);

/// The windows that materializePadding kept as pads, once vectorized:
/// the op that reads a window (the loops over the filter window that
/// carry a register tile's accumulators) is versioned into one copy
/// reading the image in place and one reading the padded window, whose
/// reads become reads of the image row by row, rows in the padding masked
/// (no memory touched, the padding value read). Windows whose reads cannot
/// be made so become padded tiles as materializePadding makes them.
llvm::LogicalResult readPaddedWindows(mlir::RewriterBase &rewriter,
                                      mlir::func::FuncOp func);

/// Drops the unit dims that the vectors of register tiles lead with, after
/// their accumulators are hoisted out of the reduction loops: the fill that
/// starts them, the convolution that carries them and the epilogue that
/// finishes them then see one vector shape, and reads of vectors written in
/// the same tile fold away.
llvm::LogicalResult dropLeadingUnitDims(mlir::func::FuncOp func);

/// Tiles a reduction along its innermost loop (`root`, carrying `config`)
/// by the parallel loops of the register tile, then reduces each row into a
/// vector of partial results the reduction register tile wide, held in
/// registers across the row and merged once, and vectorizes it. Returns
/// false, leaving `root` as it was, when the op does not fit that scheme.
bool tileReductionIntoVectors(mlir::RewriterBase &rewriter,
                              mlir::func::FuncOp func, mlir::Operation *root,
                              LoweringConfigAttr config);

/// True for a linalg.softmax on tensors along its innermost dimension.
bool isRowSoftmax(mlir::Operation *op);

/// Tiles a row softmax by its cache tile (rows), decomposes each tile into
/// its reductions and elementwise steps, and reduces each row into vectors
/// of partial results as tileReductionIntoVectors does; the elementwise
/// steps are left for vectorizing with the function's other parallel ops.
llvm::LogicalResult tileAndVectorizeSoftmax(mlir::RewriterBase &rewriter,
                                            mlir::func::FuncOp func,
                                            mlir::Operation *root,
                                            LoweringConfigAttr config);

} // namespace kiln

#endif // KILN_LIB_CODEGEN_CPU_TILINGUTILS_H

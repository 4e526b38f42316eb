//===- ConfigureConvolution.cpp - The cpu-convolution heuristic -----------===//
//
// Lowering configs for convolutions and pooling with their channels
// innermost (NHWC), from the CPU's vector width, register count and cache
// sizes.
//
//===----------------------------------------------------------------------===//

#include "LoweringConfigUtils.h"
#include "TilingUtils.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include <numeric>

using namespace mlir;
using namespace kiln;

/// The extent of input that `outputs` consecutive outputs along the i-th
/// output image dim of a convolution read: the span of their windows.
/// Saturating: dynamic sizes count as 2^20, and strides and dilations are
/// whatever the program says.
static uint64_t getInputExtent(const linalg::ConvolutionDimensions &dims,
                               ArrayRef<int64_t> sizes, unsigned i,
                               int64_t outputs) {
  int64_t stride = i < dims.strides.size() ? dims.strides[i] : 1;
  int64_t dilation = i < dims.dilations.size() ? dims.dilations[i] : 1;
  int64_t window = i < dims.filterLoop.size() ? sizes[dims.filterLoop[i]] : 1;
  return llvm::SaturatingAdd(
      llvm::SaturatingMultiply<uint64_t>(outputs - 1, stride),
      llvm::SaturatingMultiply<uint64_t>(window - 1, dilation), uint64_t(1));
}

/// The bytes of a cache of `cacheBytes` that a panel of a filter can
/// occupy, its rows `panelRowBytes` long and `rowBytes` apart. The cache
/// picks a line's set by its address bits from the line up, a page's
/// offset among them, and rows at few offsets within a page fill only
/// those offsets' sets, however many pages they span: rows 8 KiB apart
/// (ResNet's 1x1 512>2048) one offset, 2 KiB apart (its 3x3 of 512
/// channels) two, 3840 bytes apart (MobileNetV2's 960>320) sixteen.
static uint64_t getStridedPanelCacheBytes(uint64_t rowBytes,
                                          uint64_t panelRowBytes,
                                          uint64_t cacheBytes) {
  constexpr uint64_t kPageBytes = 4096, kLineBytes = 64;
  uint64_t offsets =
      kPageBytes / std::gcd(std::max<uint64_t>(rowBytes, 1), kPageBytes);
  uint64_t lines =
      std::min(kPageBytes / kLineBytes,
               llvm::SaturatingMultiply(
                   offsets, llvm::divideCeil(panelRowBytes, kLineBytes)));
  return cacheBytes / (kPageBytes / kLineBytes) * lines;
}

/// The images of the batch that a workgroup with filter panels takes, so
/// that each copy of a panel serves all of them: a divisor of the batch
/// (every workgroup's shape static, as the copy needs), whose padded
/// images fit twice L2 (the scratch that holds them: batch 8 of ResNet's
/// 7x7x512, 1.3 MB), the largest that still leaves eight workgroups of
/// `panels` panels and gives a copy kMinFilterPanelStrips strips, else
/// the smallest that does, else 1. One image for a dynamic batch, or more
/// than one batch dim.
static int64_t chooseBatchTile(linalg::LinalgOp op,
                               const linalg::ConvolutionDimensions &dims,
                               ArrayRef<int64_t> sizes, uint64_t elementBytes,
                               uint64_t rowBytes, uint64_t imageStrips,
                               int64_t panels, const CPUTargetInfo &cpu) {
  if (dims.batch.size() != 1)
    return 1;
  int64_t batch = op.getStaticLoopRanges()[dims.batch.front()];
  if (ShapedType::isDynamic(batch) || batch <= 1)
    return 1;
  uint64_t imageBytes = elementBytes;
  for (unsigned loop : dims.inputChannel)
    imageBytes = llvm::SaturatingMultiply<uint64_t>(imageBytes, sizes[loop]);
  for (unsigned i = 0; i < dims.outputImage.size(); ++i)
    imageBytes = llvm::SaturatingMultiply<uint64_t>(
        imageBytes, getInputExtent(dims, sizes, i, sizes[dims.outputImage[i]]));
  // Tiles past the scratch bound are never taken: the search starts below
  // it, however large the batch.
  uint64_t maxScratch = 2 * uint64_t(cpu.l2Bytes);
  int64_t smallest = 0;
  for (int64_t tile = std::min<uint64_t>(
           batch, maxScratch / std::max<uint64_t>(imageBytes, 1));
       tile > 1; --tile) {
    if (batch % tile != 0 ||
        !copiesFilterPanel(
            rowBytes, llvm::SaturatingMultiply<uint64_t>(imageStrips, tile)))
      continue;
    if (llvm::SaturatingMultiply<uint64_t>(panels, batch / tile) >= 8)
      return tile;
    smallest = tile;
  }
  return smallest ? smallest : 1;
}

/// Convolutions and pooling with the channels innermost in the output
/// (NHWC): direct convolution. A register tile holds one output row's
/// strip of `wr` pixels times `cr` channels (2 vectors when there are that
/// many) and walks the filter window and input channels one step at a
/// time, as a matmul's register tile walks K. Cache tiles hold one output
/// row and one register panel of output channels, so a panel of the filter
/// stays in cache while the row is swept. Workgroups: output rows times
/// up to 256 channels.
LoweringConfigAttr kiln::configureConvolution(linalg::LinalgOp op,
                                              const CPUTargetInfo &cpu) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->outputImage.empty() || dims->filterLoop.empty())
    return {};
  // Strides and dilations past any model's go to cpu-default: tiling such
  // a convolution by rows sent canonicalization into a loop (a stride of
  // 2^30 hung the compile).
  constexpr int64_t kMaxStrideOrDilation = 1 << 12;
  if (llvm::any_of(llvm::concat<const int64_t>(dims->strides, dims->dilations),
                   [](int64_t v) { return v > kMaxStrideOrDilation; }))
    return {};
  // The channel loop innermost in the output: the output channels, the
  // depthwise channels, or (pooling) the channels carried through.
  unsigned numLoops = op.getNumLoops();
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto innermost = dyn_cast<AffineDimExpr>(outputMap.getResults().back());
  if (!innermost ||
      llvm::is_contained(dims->outputImage, innermost.getPosition()))
    return {};
  unsigned channel = innermost.getPosition();
  unsigned width = dims->outputImage.back();
  SmallVector<int64_t> sizes = getLoopSizes(cast<TilingInterface>(*op));
  int64_t lanes = cpu.lanes(getElementBits(op));

  // Pooling and depthwise convolutions (no input channels) are bound by
  // reading the image: 4 vectors of channels by 4 pixels read each pixel's
  // channels in longer runs than 2 by 8, for the same 16 accumulators
  // (Zen 5 VM, 2026-11-24, ms: 3x3/2 max pool over 8x112x112x64 2.13 ->
  // 1.58, depthwise 3x3 over 8x14x14x576 0.222 -> 0.191), where they are
  // a whole number of such tiles (96 channels as 64 and 32: depthwise
  // 3x3/2 over 112x112x96 0.111 -> 0.131).
  bool wholeWideTiles = sizes[channel] % (4 * lanes) == 0;
  int64_t wideVectors =
      dims->inputChannel.empty() && cpu.vectorRegisters >= 32 && wholeWideTiles
          ? 4
          : 2;
  int64_t cr = sizes[channel] >= wideVectors * lanes ? wideVectors * lanes
               : sizes[channel] >= 2 * lanes
                   ? 2 * lanes
                   : std::min<int64_t>(llvm::alignTo(sizes[channel], lanes),
                                       std::max<int64_t>(sizes[channel], 1));
  // All of more than one vector's channels but not whole vectors (24 of
  // 16 lanes, MobileNetV2's 1x1 projections): LLVM splits the odd-sized
  // vector into power-of-two parts and shuffles between them. Tiles of the
  // largest power of two that divides the channels run in place: 1x1 over
  // 56x56x144 into 24 channels on a Zen 5, one thread, MobileNetV2
  // through ONNX 13.5 -> 7.6 ms (2026-11-25).
  // (Convolutions with input channels; pools and depthwise ones keep
  // what they measured best.)
  if (!dims->inputChannel.empty() && cr == sizes[channel] && cr > lanes &&
      cr % lanes != 0)
    cr = std::min<int64_t>(
        lanes, int64_t(1) << llvm::countr_zero(static_cast<uint64_t>(cr)));
  int64_t channelVectors = llvm::divideCeil(cr, lanes);
  // Accumulators: what the register file holds beside the filter vectors
  // and a broadcast, at most 16 (8 pixels, as many as a matmul's rows, of
  // 2 vectors).
  int64_t maxWidth = std::min<int64_t>(
      std::max<int64_t>(1, 16 / channelVectors),
      std::max<int64_t>(1, (cpu.vectorRegisters - channelVectors - 2) /
                               channelVectors));
  // A strip width that divides the row keeps every strip whole, but one
  // that leaves a quarter or more of the accumulators unused loses more
  // than a peeled remainder strip costs: a 14-pixel row of 4 vectors of
  // channels in strips of 2 (the divisor of 14 at most 4) against strips
  // of 4 and one of 2 (depthwise 3x3 over 8x14x14x576 on a Zen 5, one
  // thread: 0.241 -> 0.170 ms).
  int64_t wr = clampTile(sizes[width], 1, maxWidth);
  if (wr * 4 < maxWidth * 3 && sizes[width] > maxWidth)
    wr = maxWidth;
  // Except that a peeled strip of one pixel, whose accumulators (one per
  // vector of channels) each wait on the FMA before, runs at a quarter of
  // the speed of a full strip or less: the fewest strips that cover the
  // row, as even as they can be, instead. ResNet's 3x3 convolutions of
  // 512 channels at 7x7, where the peeled seventh pixel took 29% of the
  // time: strips of 4 and 3, Zen 3, one thread, 4.52 -> 4.04 ms
  // (2026-11-27). Evening out larger remainders did not pay there: its
  // 14x14 convolution of 256 channels ran 3% slower in strips of 5, 5
  // and 4 than of 6, 6 and 2, and 33% slower in strips of 4.
  if (sizes[width] > wr && sizes[width] % wr == 1)
    wr = llvm::divideCeil(sizes[width],
                          llvm::divideCeil(sizes[width], maxWidth));
  // A strip too narrow to hold kMinAccumulators vectors (global pooling:
  // one pixel) takes more channels instead: each accumulator waits for
  // the previous add or FMA into it, and fewer independent ones leave the
  // vector units idle. ResNet's 7x7 average pool over 2048 channels (one
  // output pixel) on a Zen 5: 6.9 us with 2 vectors of channels, 4.4 with
  // 4, 4.1 with 8. A power of two of vectors: LLVM widens a vector of
  // 3, 5, 6 or 7 registers' worth to the next power of two and shuffles
  // its parts apart again (a 7x7 average pool over 96 channels, batch 8:
  // 2.0 us as 6 vectors, 1.4 as 2; a depthwise 3x3 strip of 4 pixels by
  // 6 vectors ran 4.4x slower than one of 8 by 2).
  constexpr int64_t kMinAccumulators = 8;
  if (wr * channelVectors < kMinAccumulators) {
    int64_t vectors = llvm::bit_floor(uint64_t(std::min<int64_t>(
        {int64_t(llvm::PowerOf2Ceil(llvm::divideCeil(kMinAccumulators, wr))),
         sizes[channel] / lanes, (cpu.vectorRegisters - 2) / (wr + 1)})));
    if (vectors > channelVectors) {
      channelVectors = vectors;
      cr = vectors * lanes;
    }
  }

  SmallVector<int64_t> workgroup(numLoops, 0), cache(numLoops, 0),
      registerTile(numLoops, 0);
  auto types = op.getIteratorTypesArray();
  for (unsigned loop = 0; loop < numLoops; ++loop) {
    registerTile[loop] = 1;
    if (types[loop] == utils::IteratorType::parallel) {
      workgroup[loop] = 1;
      cache[loop] = 1;
    }
  }
  // A grouped convolution with fewer output channels per group than a
  // vector has lanes (ResNeXt's 32 groups of 4 or 8): register tiles, and
  // workgroups, of as many groups as fill a vector, the filter window and
  // input channels whole (MultiGroupConvolution.cpp), instead of one group
  // in a quarter or half of each vector.
  std::optional<int64_t> groupsPerVector = getGroupsPerVector(op, lanes);
  int64_t groupTile = groupsPerVector.value_or(1);
  if (groupsPerVector) {
    unsigned group = dims->depth.front();
    workgroup[group] = cache[group] = registerTile[group] = groupTile;
    for (unsigned loop :
         llvm::concat<const unsigned>(dims->filterLoop, dims->inputChannel))
      registerTile[loop] = 0;
  }
  // Up to 256 channels are one workgroup's, all of them: a tile wider
  // than the channels (40 taken as 64) leaves the workgroup's channel
  // count known only at run time, and a depthwise 3x3 over 112x112x40
  // then padded the whole row in every strip (2.19 ms, 32 channels 0.086).
  int64_t cw = sizes[channel] <= 256 ? sizes[channel]
                                     : clampTile(sizes[channel], cr, 256);
  // A filter larger than L2 whose rows lie far apart
  // (kMinStridedFilterRowBytes), and whose register panel does not stay in
  // L1, is taken panel by panel: a workgroup takes one register tile of
  // output channels, whose part of the filter the pipeline copies into
  // contiguous memory, the images of the batch that chooseBatchTile gives
  // it, and all the output rows that keep eight workgroups, each reusing
  // its copy. (A filter that fits L2, like that of ResNet's stride-2 3x3
  // convolution of 128 channels, 576 KiB, ran 15% slower copied.)
  // Workgroups of one image each read the whole filter once per image:
  // ResNet's 3x3 convolution of 512 channels at 7x7, batch 8, as
  // workgroups of one row of one image by 256 channels, read its 9.4 MB
  // filter 56 times a call (Zen 5, 1 thread, 10.9 ms; 2 threads 7.06),
  // and as workgroups of all eight images by 32 channels, each copying its
  // panel once, 10.0 ms (2 threads 5.69).
  // Whether the filter is copied panel by panel, and whether (copied or
  // read in place) a workgroup takes one panel and every row.
  bool filterPanels = false, panelWorkgroups = false;
  int64_t batchTile = 1;
  if (!dims->inputChannel.empty()) {
    uint64_t elementBytes = std::max(8u, getElementBits(op)) / 8;
    // The filter's bytes for one output channel.
    uint64_t channelBytes = elementBytes;
    for (unsigned loop :
         llvm::concat<const unsigned>(dims->filterLoop, dims->inputChannel))
      channelBytes =
          llvm::SaturatingMultiply<uint64_t>(channelBytes, sizes[loop]);
    uint64_t rowBytes =
        llvm::SaturatingMultiply<uint64_t>(sizes[channel], elementBytes);
    uint64_t imageStrips = llvm::SaturatingMultiply<uint64_t>(
        dims->outputImage.size() > 1 ? sizes[dims->outputImage.front()] : 1,
        llvm::divideCeil(sizes[width], wr));
    // A filter packed in panels at compile time (PackConvolutionFilters.cpp)
    // is contiguous panel by panel already: workgroups take one panel and
    // every row where the filter exceeds L2 (each panel then comes from L3
    // once per image, not once per workgroup of rows), as for a strided
    // one, without copying. Where it fits L2, workgroups of rows cycle
    // through its panels there. Zen 5, one thread, batch 8, ms: ResNet's
    // 1x1 512>2048 (4 MB filter) 4.67 -> 3.76 with every row; its 1x1
    // 1024>256 (1 MB) 3.83 -> 4.11.
    std::optional<ConvolutionUnitLoop> unit = getConvolutionUnitLoop(op);
    bool packedFilter = unit && unit->isFilterPanel();
    if (packedFilter) {
      uint64_t filterBytes = llvm::SaturatingMultiply<uint64_t>(
          llvm::SaturatingMultiply<uint64_t>(channelBytes, sizes[channel]),
          sizes[unit->loop]);
      panelWorkgroups = filterBytes > uint64_t(cpu.l2Bytes) &&
                        llvm::SaturatingMultiply<uint64_t>(channelBytes, cr) >
                            uint64_t(cpu.l1Bytes / 2);
    }
    bool largeStridedFilter =
        !packedFilter && sizes[channel] > cr &&
        llvm::SaturatingMultiply<uint64_t>(channelBytes, sizes[channel]) >
            uint64_t(cpu.l2Bytes) &&
        llvm::SaturatingMultiply<uint64_t>(channelBytes, cr) >
            uint64_t(cpu.l1Bytes / 2);
    if (largeStridedFilter)
      batchTile =
          chooseBatchTile(op, *dims, sizes, elementBytes, rowBytes, imageStrips,
                          llvm::divideCeil(sizes[channel], cr), cpu);
    filterPanels =
        largeStridedFilter &&
        copiesFilterPanel(rowBytes, llvm::SaturatingMultiply<uint64_t>(
                                        imageStrips, batchTile));
    // A panel swept by too few strips to copy (a 1x1 convolution at 7x7)
    // but that a quarter of the L2 its strided rows can occupy holds stays
    // there across the rows of its image, read in place: a workgroup takes
    // one panel and every row, and the panel comes from L3 once per image
    // rather than once per workgroup of rows. On a Zen 5 (ms, 1 thread / 2
    // threads): MobileNetV2's 1x1 960>320 at 7x7 (a 123 KB panel, 512 KB
    // of L2 for it) 0.148 -> 0.139 / 0.082 -> 0.072. ResNet's 1x1
    // 512>2048 (a 64 KB panel, 32 KB of L2) ran 0.643 -> 0.664 / 0.324
    // -> 0.322 so, and its 3x3 of 512 channels (590 KB, 64 KB) 1.4x
    // slower.
    bool panelInL2 =
        largeStridedFilter &&
        llvm::SaturatingMultiply<uint64_t>(channelBytes, cr) <=
            getStridedPanelCacheBytes(
                rowBytes, llvm::SaturatingMultiply<uint64_t>(cr, elementBytes),
                cpu.l2Bytes) /
                4;
    panelWorkgroups = panelWorkgroups || filterPanels || panelInL2;
    if (panelWorkgroups)
      cw = cr;
    // A batch tile above one means a single batch dim (chooseBatchTile).
    if (filterPanels && batchTile > 1)
      workgroup[dims->batch.front()] = batchTile;
  }
  cache[channel] = cr;
  cache[width] = sizes[width];
  registerTile[width] = wr;
  registerTile[channel] = cr;
  workgroup[channel] = cw;
  workgroup[width] = sizes[width];
  // Output rows per workgroup: about 8K outputs, then more workgroups
  // while there are fewer than eight.
  unsigned height = dims->outputImage.front();
  auto count = [&] {
    int64_t total = 1;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (workgroup[loop])
        total *= llvm::divideCeil(sizes[loop], workgroup[loop]);
    return total;
  };
  if (height != width) {
    int64_t rowOutputs = std::max<int64_t>(1, sizes[width] * cw * groupTile);
    workgroup[height] = panelWorkgroups ? sizes[height]
                                        : std::clamp<int64_t>(8192 / rowOutputs,
                                                              1, sizes[height]);
    while (workgroup[height] > 1 && count() < 8)
      workgroup[height] = llvm::divideCeil(workgroup[height], 2);
  }
  // The part of the image a workgroup reads, which padding fused into the
  // dispatch copies into a tile of its own, must fit the stack (the limit
  // of promoting buffers to it), or with one filter panel a workgroup
  // (copied or not) a quarter of L2 (the runtime's scratch holds it,
  // beside the panel): fewer rows, then narrower strips of whole register
  // tiles. Where each register strip pads its own window instead, the
  // workgroup's part is never copied and no limit applies.
  // A whole row of a width known only at run time is the loop untiled: as
  // a tile of 2^20 (the size dynamic sizes count as) it would be the
  // partial tile that tiling peels, every strip of every row in the
  // peeled loop, where no extent is static.
  bool dynamicWidth = ShapedType::isDynamic(op.getStaticLoopRanges()[width]);
  auto wholeDynamicRow = [&] {
    if (dynamicWidth && workgroup[width] >= sizes[width])
      workgroup[width] = cache[width] = 0;
  };
  if (padsPerRegisterStrip(!dims->inputChannel.empty(), wr)) {
    wholeDynamicRow();
    return getConfig(op.getContext(), CPUPipeline::Convolution, workgroup,
                     cache, registerTile, registerTile);
  }
  auto inputExtent = [&](unsigned i) {
    return getInputExtent(*dims, sizes, i, workgroup[dims->outputImage[i]]);
  };
  uint64_t channels = groupTile;
  for (unsigned loop : dims->inputChannel)
    channels = llvm::SaturatingMultiply<uint64_t>(channels, sizes[loop]);
  if (dims->inputChannel.empty())
    channels = workgroup[channel];
  auto footprint = [&] {
    uint64_t bytes = llvm::SaturatingMultiply<uint64_t>(
        channels, std::max<unsigned>(8, getElementBits(op)) / 8);
    for (unsigned i = 0; i < dims->outputImage.size(); ++i)
      bytes = llvm::SaturatingMultiply<uint64_t>(bytes, inputExtent(i));
    return bytes;
  };
  // An image that no padding in the dispatch copies is read in place: a
  // workgroup of one panel keeps its part in L2 beside the panel, whatever
  // the stack holds. ResNet's 3x3 convolution of 512 channels at 7x7
  // (a 295 KB panel, a 166 KB image) in one workgroup of 7 rows instead
  // of 4 and 3, which read each panel from memory twice: 4.42 -> 4.08 ms,
  // Zen 3, one thread (with strips of 4 and 3).
  uint64_t panelBytes = llvm::SaturatingMultiply<uint64_t>(
      llvm::SaturatingMultiply<uint64_t>(
          channels, std::max<unsigned>(8, getElementBits(op)) / 8),
      cr);
  for (unsigned loop : dims->filterLoop)
    panelBytes = llvm::SaturatingMultiply<uint64_t>(panelBytes, sizes[loop]);
  bool copiesImage =
      op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>() != nullptr;
  uint64_t maxFootprint =
      !panelWorkgroups ? uint64_t(kMaxStackBufferBytes)
      : copiesImage || panelBytes >= uint64_t(cpu.l2Bytes)
          ? std::max<uint64_t>(kMaxStackBufferBytes, cpu.l2Bytes / 4)
          : std::max<uint64_t>({kMaxStackBufferBytes, uint64_t(cpu.l2Bytes / 4),
                                uint64_t(cpu.l2Bytes) - panelBytes});
  // Over a width known only at run time, a workgroup of a convolution
  // that neither copies its part of the image nor holds a filter panel
  // takes whole rows, whatever their size: no footprint limit applies to
  // it, and a tile narrower than the 2^20 that dynamic sizes count as
  // would be a partial tile over most images (every strip of a 96-pixel
  // row in the peeled loop of a 1024-pixel tile, where no extent is
  // static).
  if (dynamicWidth && !copiesImage && !panelWorkgroups) {
    wholeDynamicRow();
    return getConfig(op.getContext(), CPUPipeline::Convolution, workgroup,
                     cache, registerTile, registerTile);
  }
  while (height != width && workgroup[height] > 1 && footprint() > maxFootprint)
    workgroup[height] = llvm::divideCeil(workgroup[height], 2);
  // Strips that divide the width keep every tile's shape static (a
  // dynamic one could not live on the stack).
  while (workgroup[width] > wr && footprint() > maxFootprint) {
    int64_t narrower = workgroup[width] - 1;
    while (narrower > wr && sizes[width] % narrower != 0)
      --narrower;
    workgroup[width] = std::max(narrower, wr);
  }
  cache[width] = workgroup[width];
  wholeDynamicRow();
  return getConfig(op.getContext(), CPUPipeline::Convolution, workgroup, cache,
                   registerTile, registerTile);
}

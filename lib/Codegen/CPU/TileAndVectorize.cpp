//===- TileAndVectorize.cpp - Inner tiling and vectorization --------------===//
//
// Within each workgroup tile: cache and register tiling by the lowering
// config, then vectorization of the innermost tiles.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/Passes.h"

namespace kiln {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZEPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
struct CPUTileAndVectorizePass
    : public kiln::impl::CPUTileAndVectorizePassBase<CPUTileAndVectorizePass> {
  void runOnOperation() override {}
};
} // namespace

//===- Spectral.h - What DFT and STFT share ----------------------*- C++
//-*-===//
//
// See DFT.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_SPECTRAL_H
#define KILN_PLUGINS_ONNX_SPECTRAL_H

#include "Converters.h"

namespace kiln::onnx_plugin {

/// The matrices [frequencies x samples] of entries
/// `scale * cos(2 pi k m / length)` and `scale * sin(...)`, scale 1 / length
/// for the inverse transform, else 1: constants of the module when the
/// three sizes are static (an error naming the node past a bound on their
/// size), else computed at run time.
mlir::FailureOr<std::pair<mlir::Value, mlir::Value>>
buildTwiddles(NodeConverter &node, mlir::Type element,
              mlir::OpFoldResult frequencies, mlir::OpFoldResult samples,
              mlir::OpFoldResult length, bool inverse);

/// The frequencies a transform of `length` samples gives: all of them, or
/// length / 2 + 1 `onesided`.
mlir::OpFoldResult getFrequencyCount(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::OpFoldResult length, bool onesided);

/// What one sample adds to component `component` (an index: 0 real, 1
/// imaginary) of a frequency: the sample (`real`, and `imaginary` or null)
/// times the twiddle, (cos - i sin) forward, (cos + i sin) inverse.
mlir::Value buildSpectralTerm(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value real, mlir::Value imaginary,
                              mlir::Value cosine, mlir::Value sine,
                              bool inverse, mlir::Value component);

/// `transformed` computed in f32 for a narrower `element`, cast back.
mlir::Value castSpectrum(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value transformed, mlir::Type element);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_SPECTRAL_H

//===- SpecializeInputs.h - Sizes the user gives a model's inputs --------===//
//
// See SpecializeInputs.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_SPECIALIZEINPUTS_H
#define KILN_PLUGINS_ONNX_SPECIALIZEINPUTS_H

#include "kiln/Input/Importer.h"
#include "llvm/Support/Error.h"

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// Writes the shapes of --kiln-input-shape (by input name or position) and
/// the sizes of --kiln-dim (by symbol) into `model`'s graph inputs and
/// outputs, before anything reads them; an error names a flag that names
/// no input or symbol, or contradicts a size the model fixes.
llvm::Error specializeInputs(onnx::ModelProto &model,
                             const InputSpecialization &specialization);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_SPECIALIZEINPUTS_H

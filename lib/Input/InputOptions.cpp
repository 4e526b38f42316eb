//===- InputOptions.cpp - The input phase's flags -------------------------===//

#include "kiln/Input/Passes.h"
#include "kiln/Options/OptionsBinder.h"

using namespace kiln;

void InputOptions::bindOptions(OptionsBinder &binder) {
  binder.category("Kiln pipeline options");
  binder.opt("kiln-input-type", inputType,
             llvm::cl::desc("Input conversion to run: 'auto' (every "
                            "conversion whose dialect the program uses), "
                            "'none', or a conversion's name such as 'tosa'"));
  binder.list("kiln-input-shape", inputShapes,
              llvm::cl::desc("INPUT:DxDx...: compile a model for this shape "
                             "of an input, named or numbered from 0 "
                             "(repeatable; as ONNX Runtime's free "
                             "dimension overrides)"));
  binder.list("kiln-dim", dims,
              llvm::cl::desc("SYMBOL=N: compile a model with its symbolic "
                             "dimension SYMBOL of size N wherever it "
                             "appears (repeatable)"));
}

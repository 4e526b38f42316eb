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
}

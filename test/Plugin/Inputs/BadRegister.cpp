//===- BadRegister.cpp - A plugin whose registration fails ----------------===//

#include "kiln/Plugin/PluginAPI.h"

KILN_PLUGIN_REGISTRATION(test_bad_register, registrar) {
  return llvm::createStringError(
      "test_bad_register refuses to register: KILN_TEST_SETTING is unset");
}

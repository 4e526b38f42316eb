//===- Duplicate.cpp - A plugin that takes the id of one linked in --------===//

#include "kiln/Plugin/PluginAPI.h"

namespace {
class Duplicate : public kiln::Plugin {};
} // namespace

KILN_PLUGIN_REGISTRATION(test_duplicate, registrar) {
  return registrar.registerPlugin(
      {"example", "9.9", "Test: takes the id of the example plugin"},
      [] { return std::make_unique<Duplicate>(); });
}

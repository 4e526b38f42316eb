//===- ModuleLoading.cpp - How kiln-run and kiln-benchmark load modules ---===//

#include "ModuleLoading.h"
#include "ValueIO.h"

using namespace kiln::tooling;

bool ModuleLoadFlags::match(const std::vector<std::string> &args, size_t &i,
                            std::string &error) {
  std::string value;
  if (matchFlag(args, i, "runtime-extension", value)) {
    if (value.empty())
      error = "--runtime-extension takes a shared object to load, got ''";
    extensions.push_back(value);
    return true;
  }
  if (matchFlag(args, i, "variant", value)) {
    if (value.empty())
      error = "--variant takes a CPU name (kiln-run --list shows the "
              "module's), got ''";
    variant = value;
    forceVariant = true;
    return true;
  }
  return false;
}

kiln_error *ModuleLoadFlags::load(kiln_runtime *runtime,
                                  const std::string &path,
                                  kiln_module **module) const {
  for (const std::string &extension : extensions)
    if (kiln_error *error =
            kiln_runtime_load_extension(runtime, extension.c_str()))
      return error;
  kiln_module_options options = {};
  options.variant = forceVariant ? variant.c_str() : nullptr;
  return kiln_module_load_with_options(runtime, path.c_str(), &options, module);
}

std::string kiln::tooling::listVariants(const kiln_module *module,
                                        bool forced) {
  size_t count = kiln_module_variant_count(module);
  if (count == 1) {
    kiln_module_variant only = kiln_module_variant_at(module, 0);
    return std::string("variant: ") + only.cpu + " (" + only.backend +
           ", the module's only one)\n";
  }
  std::string text = "variants: " + std::to_string(count) +
                     (forced ? ", run as --variant chose:\n"
                             : ", the most specific one this CPU can run "
                               "runs:\n");
  for (size_t i = 0; i < count; ++i) {
    kiln_module_variant variant = kiln_module_variant_at(module, i);
    text += std::string(variant.chosen ? "  * " : "    ") + variant.cpu + " (" +
            variant.backend + ", " + std::to_string(variant.feature_count) +
            " features): ";
    if (variant.missing[0])
      text += std::string("cannot run here, lacks ") + variant.missing;
    else if (variant.chosen)
      text += forced ? "runs (--variant)" : "runs here, the most specific";
    else
      text += "could run here, less specific";
    text += "\n";
  }
  return text;
}

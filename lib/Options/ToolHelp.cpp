//===- ToolHelp.cpp - --help that shows a tool's own options --------------===//

#include "kiln/Options/ToolHelp.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ManagedStatic.h"

#include <optional>
#include <string>

using namespace kiln;
namespace cl = llvm::cl;

ToolHelp::ToolHelp() {
  for (auto &entry : cl::getRegisteredOptions())
    llvmOptions.insert(entry.second);
}

namespace {
/// The categories organize() files flags under; they must outlive parsing.
struct HelpCategories {
  std::string toolName;
  std::optional<cl::OptionCategory> tool;
  cl::OptionCategory mlir{"MLIR debugging options",
                          "MLIR's flags for looking inside a compile"};
};
} // namespace

static llvm::ManagedStatic<HelpCategories> categories;

/// Whether `option` is in no category but LLVM's general one.
static bool isUncategorized(cl::Option *option) {
  return llvm::all_of(option->Categories, [](cl::OptionCategory *category) {
    return category == &cl::getGeneralCategory();
  });
}

void ToolHelp::organize(llvm::StringRef tool,
                        llvm::ArrayRef<cl::OptionCategory *> keep) {
  if (!categories->tool) {
    categories->toolName = (tool + " options").str();
    categories->tool.emplace(categories->toolName);
  }
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    llvm::StringRef name = entry.first;
    if (name.starts_with("mlir-")) {
      if (isUncategorized(option))
        option->addCategory(categories->mlir);
      continue;
    }
    bool kept = llvm::any_of(option->Categories, [&](cl::OptionCategory *c) {
      return llvm::is_contained(keep, c);
    });
    if (llvmOptions.contains(option) && !kept) {
      // LLVM's own, in whatever category (IR2Vec, Color, ...), but the
      // help and version flags every tool has.
      bool generic = name.starts_with("help") || name == "version";
      if (!generic && option->getOptionHiddenFlag() == cl::NotHidden)
        option->setHiddenFlag(cl::Hidden);
      continue;
    }
    if (isUncategorized(option))
      option->addCategory(*categories->tool);
  }
}

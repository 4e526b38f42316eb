//===- InputFiles.cpp - Files Kiln reads, checked -------------------------===//

#include "kiln/Files/InputFiles.h"
#include "kiln/Support/ReadFile.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"

using namespace kiln;

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
kiln::readInputFile(llvm::StringRef path, llvm::StringRef what,
                    uint64_t maxBytes) {
  std::string contents, error;
  if (!readRegularFile(path.str(), contents, error, maxBytes))
    return llvm::createStringError(
        ("cannot read " + what + " '" + path + "': " + error).str());
  return llvm::MemoryBuffer::getMemBufferCopy(contents, path);
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
kiln::readInputFileOrStdin(llvm::StringRef path, llvm::StringRef what) {
  if (path != "-")
    return readInputFile(path, what);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getSTDIN();
  if (!input)
    return llvm::createStringError(
        ("cannot read " + what + " from stdin: " + input.getError().message())
            .str());
  return std::move(*input);
}

llvm::Expected<std::string>
kiln::readInputFileRange(llvm::StringRef path, llvm::StringRef what,
                         uint64_t offset, std::optional<uint64_t> length) {
  std::string contents, error;
  if (!readRegularFileRange(path.str(), offset, length, contents, error))
    return llvm::createStringError(
        ("cannot read " + what + " '" + path + "': " + error).str());
  return contents;
}

namespace {
/// A symbol an object defines for others to link against: global, not
/// undefined, and whether it is a function.
struct DefinedSymbols {
  llvm::StringMap<bool> isFunction;

  void add(const llvm::object::ObjectFile &object) {
    for (const llvm::object::SymbolRef &symbol : object.symbols()) {
      llvm::Expected<uint32_t> flags = symbol.getFlags();
      llvm::Expected<llvm::StringRef> name = symbol.getName();
      llvm::Expected<llvm::object::SymbolRef::Type> type = symbol.getType();
      if (!flags || !name || !type) {
        llvm::consumeError(flags.takeError());
        llvm::consumeError(name.takeError());
        llvm::consumeError(type.takeError());
        continue;
      }
      using Flags = llvm::object::SymbolRef::Flags;
      if (!(*flags & Flags::SF_Global) || (*flags & Flags::SF_Undefined) ||
          (*flags & Flags::SF_FormatSpecific) || name->empty())
        continue;
      isFunction[*name] |= *type == llvm::object::SymbolRef::ST_Function;
    }
  }

  std::string list() const {
    std::vector<llvm::StringRef> names;
    for (const auto &entry : isFunction)
      names.push_back(entry.getKey());
    llvm::sort(names);
    if (names.empty())
      return "nothing";
    std::string text;
    for (auto [index, name] : llvm::enumerate(names)) {
      if (index == 8)
        return text + ", ...";
      text += (index ? ", " : "") + name.str();
    }
    return text;
  }
};
} // namespace

/// Adds what `object` defines, or fails unless it is an x86-64 ELF
/// relocatable object.
static llvm::Error addObject(const llvm::object::Binary &binary,
                             const llvm::Twine &what, DefinedSymbols &defined) {
  const auto *object = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(&binary);
  if (!object || !object->isRelocatableObject() ||
      object->getArch() != llvm::Triple::x86_64)
    return llvm::createStringError(
        (what + " is not an x86-64 ELF relocatable object (.o)").str());
  defined.add(*object);
  return llvm::Error::success();
}

llvm::Error
kiln::checkObjectDefinesFunctions(llvm::MemoryBufferRef bytes,
                                  llvm::StringRef what,
                                  llvm::ArrayRef<std::string> functions) {
  llvm::Expected<std::unique_ptr<llvm::object::Binary>> binary =
      llvm::object::createBinary(bytes);
  if (!binary)
    return llvm::createStringError((what + " cannot be read as an object: " +
                                    llvm::toString(binary.takeError()))
                                       .str());
  DefinedSymbols defined;
  if (auto *archive = llvm::dyn_cast<llvm::object::Archive>(binary->get())) {
    llvm::Error error = llvm::Error::success();
    for (const llvm::object::Archive::Child &child : archive->children(error)) {
      llvm::Expected<std::unique_ptr<llvm::object::Binary>> member =
          child.getAsBinary();
      if (!member) {
        llvm::consumeError(std::move(error));
        return llvm::createStringError(
            (what + " holds a member that is not an object: " +
             llvm::toString(member.takeError()))
                .str());
      }
      if (llvm::Error bad =
              addObject(**member, what + " (a member)", defined)) {
        llvm::consumeError(std::move(error));
        return bad;
      }
    }
    if (error)
      return llvm::createStringError(
          (what + " cannot be read: " + llvm::toString(std::move(error)))
              .str());
  } else if (llvm::Error bad = addObject(**binary, what, defined)) {
    return bad;
  }
  for (const std::string &function : functions) {
    auto found = defined.isFunction.find(function);
    if (found == defined.isFunction.end())
      return llvm::createStringError((what + " does not define '" + function +
                                      "' (it defines " + defined.list() + ")")
                                         .str());
    if (!found->second)
      return llvm::createStringError(
          (what + " defines '" + function +
           "' as data, not as a function; a kernel must be a function")
              .str());
  }
  return llvm::Error::success();
}

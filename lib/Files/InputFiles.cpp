//===- InputFiles.cpp - Files Kiln reads, checked -------------------------===//

#include "kiln/Files/InputFiles.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
kiln::readInputFile(llvm::StringRef path, llvm::StringRef what,
                    uint64_t maxBytes) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(
        (what + " '" + path + "' cannot be read: " + why).str());
  };
  std::string name = path.str();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the type check
  // below refuses it before any read.
  int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return fail(std::strerror(errno));
  struct stat status;
  if (::fstat(fd, &status) != 0) {
    int error = errno;
    ::close(fd);
    return fail(std::strerror(error));
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(fd);
    const char *kind = S_ISDIR(status.st_mode)    ? "a folder"
                       : S_ISFIFO(status.st_mode) ? "a FIFO"
                       : S_ISCHR(status.st_mode)  ? "a character device"
                       : S_ISBLK(status.st_mode)  ? "a block device"
                       : S_ISSOCK(status.st_mode) ? "a socket"
                                                  : "not a regular file";
    return fail(llvm::Twine("it is ") + kind + "; Kiln reads regular files");
  }
  if (static_cast<uint64_t>(status.st_size) > maxBytes) {
    ::close(fd);
    return fail("it holds " + llvm::Twine(status.st_size) +
                " bytes, more than the " + llvm::Twine(maxBytes) +
                " allowed");
  }
  // Read to the end, whatever st_size said (0 for /proc files).
  std::string data;
  data.reserve(static_cast<size_t>(status.st_size));
  char chunk[1 << 16];
  for (;;) {
    ssize_t got = ::read(fd, chunk, sizeof(chunk));
    if (got < 0) {
      if (errno == EINTR)
        continue;
      int error = errno;
      ::close(fd);
      return fail(std::strerror(error));
    }
    if (got == 0)
      break;
    if (data.size() + static_cast<size_t>(got) > maxBytes) {
      ::close(fd);
      return fail("it holds more than the " + llvm::Twine(maxBytes) +
                  " bytes allowed");
    }
    data.append(chunk, static_cast<size_t>(got));
  }
  ::close(fd);
  return llvm::MemoryBuffer::getMemBufferCopy(data, path);
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
                             const llvm::Twine &what,
                             DefinedSymbols &defined) {
  const auto *object = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(&binary);
  if (!object || !object->isRelocatableObject() ||
      object->getArch() != llvm::Triple::x86_64)
    return llvm::createStringError(
        (what + " is not an x86-64 ELF relocatable object (.o)").str());
  defined.add(*object);
  return llvm::Error::success();
}

llvm::Error kiln::checkObjectDefinesFunctions(
    llvm::MemoryBufferRef bytes, llvm::StringRef what,
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
      if (llvm::Error bad = addObject(**member, what + " (a member)",
                                      defined)) {
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

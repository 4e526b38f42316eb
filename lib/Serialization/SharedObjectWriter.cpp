//===- SharedObjectWriter.cpp - LLVM dialect to a shared object -----------===//
//
// Compiles the host code to object code and links it, with every
// executable's object and the object files executables attached, into a
// shared object with ld.lld. No C compiler is involved.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ScratchDirectory.h"
#include "kiln_module_abi.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kiln;

/// ld.lld from Debian's lld-22, next to the LLVM tools or on PATH.
static llvm::Expected<std::string> findLinker() {
  for (const char *candidate :
       {"/usr/lib/llvm-22/bin/ld.lld", "/usr/bin/ld.lld-22"})
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate);
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return llvm::createStringError(
      "cannot find ld.lld to link the module; install Debian's lld-22");
}

/// Writes `bytes` to `path` (in the scratch folder).
static llvm::Error writeScratchFile(StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream stream(path, ec);
  if (ec)
    return llvm::createStringError("cannot create '" + path +
                                   "': " + ec.message());
  stream << bytes;
  stream.close();
  if (stream.has_error()) {
    std::string reason = stream.error().message();
    stream.clear_error();
    return llvm::createStringError("cannot write '" + path + "': " + reason);
  }
  return llvm::Error::success();
}

/// The first lines of `path`, for error messages.
static std::string readHead(StringRef path, unsigned maxLines = 10) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', maxLines + 1, false);
  if (lines.size() > maxLines)
    lines.resize(maxLines);
  return llvm::join(lines, "\n");
}

/// The file at `from`, followed by the trailer of kiln_module_abi.h (its
/// size and checksum).
static llvm::Expected<std::string> readWithTrailer(StringRef from) {
  auto buffer = llvm::MemoryBuffer::getFile(from, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read the linked module '" + from +
                                   "': " + buffer.getError().message());
  uint64_t size = (*buffer)->getBufferSize();
  unsigned char trailer[KILN_MODULE_TRAILER_SIZE];
  kiln_module_make_trailer((*buffer)->getBufferStart(), size, trailer);
  std::string bytes((*buffer)->getBufferStart(), size);
  bytes.append(reinterpret_cast<const char *>(trailer), sizeof(trailer));
  return bytes;
}

llvm::Error kiln::writeSharedObject(ModuleOp module, OutputFile &output) {
  auto bytes = buildSharedObject(module, output.getPath());
  if (!bytes)
    return bytes.takeError();
  std::string error;
  if (!output.write(bytes->data(), bytes->size(), error) ||
      !output.commit(error))
    return llvm::createStringError(error);
  return llvm::Error::success();
}

llvm::Expected<std::string> kiln::buildSharedObject(ModuleOp module,
                                                    StringRef path) {
  auto target =
      module->getAttrOfType<TargetAttr>(KilnDialect::getTargetAttrName());
  if (!target)
    return llvm::createStringError(
        "the module has no 'kiln.target'; compile it through the "
        "executable-sources phase");
  auto *statistics = getSessionState<CompileStatistics>(module.getContext());
  CompileStatistics::Clock::time_point start = CompileStatistics::Clock::now();
  llvm::Expected<std::string> hostObject =
      emitObjectCode(module, target, "the host code", CodeKind::Host);
  if (!hostObject)
    return hostObject.takeError();
  if (statistics)
    statistics->recordStep("host code to object code", secondsSince(start));
  start = CompileStatistics::Clock::now();

  // The object code, the linker's output and its log live in a scratch
  // folder: removed when this returns, their files on SIGINT and SIGTERM
  // (LLVM's signal handlers), and the folder of a killed compile by the
  // next compile's sweep.
  std::string scratchError;
  std::unique_ptr<ScratchDirectory> scratch =
      ScratchDirectory::create(scratchError);
  if (!scratch)
    return llvm::createStringError(scratchError);
  SmallVector<std::string> objectPaths = {scratch->getFilePath("host.o")};
  SmallVector<StringRef> objectBytes = {*hostObject};
  if (auto objectCode = module->getAttrOfType<ArrayAttr>(
          KilnDialect::getObjectCodeAttrName()))
    for (auto [index, attr] : llvm::enumerate(objectCode)) {
      std::optional<StringRef> bytes = getObjectCodeBytes(attr);
      if (!bytes)
        return llvm::createStringError(
            "the module's object code " + std::to_string(index) +
            " has no data (was it printed with its resources elided?)");
      // Named after the executable, which the linker's errors name.
      std::string name = "executable" + std::to_string(index);
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
        StringRef key = resource.getRawHandle().getKey();
        if (key.consume_front("kiln_object_") && !key.empty() &&
            llvm::all_of(key, [](char c) {
              return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.';
            }))
          name = key.str();
      }
      objectPaths.push_back(scratch->getFilePath(name + ".o"));
      objectBytes.push_back(*bytes);
    }
  std::string linkedPath = scratch->getFilePath("module.so");
  std::string logPath = scratch->getFilePath("ld.log");
  SmallVector<std::string> scratchFiles(objectPaths);
  scratchFiles.push_back(linkedPath);
  scratchFiles.push_back(logPath);
  for (const std::string &file : scratchFiles)
    llvm::sys::RemoveFileOnSignal(file);
  llvm::scope_exit forgetOnSignal([&] {
    for (const std::string &file : scratchFiles)
      llvm::sys::DontRemoveFileOnSignal(file);
  });
  for (auto [objectPath, bytes] : llvm::zip(objectPaths, objectBytes))
    if (llvm::Error error = writeScratchFile(objectPath, bytes))
      return error;

  auto linker = findLinker();
  if (!linker)
    return linker.takeError();
  // -z defs: a symbol nothing defines (a kernel's external function that
  // no attached object provides) fails here, naming the symbol, instead of
  // when the runtime loads the module.
  SmallVector<StringRef> args = {*linker, "-shared", "-o", linkedPath};
  // The host code's object, then the executables', in the module's order.
  for (const std::string &objectPath : objectPaths)
    args.push_back(objectPath);
  for (StringRef arg :
       {"-z", "noexecstack", "-z", "relro", "-z", "defs", "--hash-style=gnu"})
    args.push_back(arg);
  // Object files executables attached, after the module's own objects.
  SmallVector<std::string> objects;
  if (auto attached =
          module->getAttrOfType<ArrayAttr>(KilnDialect::getObjectsAttrName()))
    for (auto attachedObject : attached.getAsRange<ObjectAttr>()) {
      if (llvm::Error error = attachedObject.checkLinkable())
        return error;
      objects.push_back(attachedObject.getAbsolutePath());
    }
  for (const std::string &object : objects)
    args.push_back(object);
  // Record the C and math libraries as dependencies when they are where
  // Debian puts them; kernels may call expf, memcpy, malloc, ...
  for (const char *library :
       {"/lib/x86_64-linux-gnu/libm.so.6", "/lib/x86_64-linux-gnu/libc.so.6"})
    if (llvm::sys::fs::exists(library))
      args.push_back(library);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status != 0) {
    std::string log = readHead(logPath);
    return llvm::createStringError(
        "linking '" + path + "' with " + *linker + " failed" +
        (error.empty() ? "" : ": " + error) + (log.empty() ? "" : "\n" + log));
  }
  if (statistics)
    statistics->recordStep("linking", secondsSince(start));
  return readWithTrailer(linkedPath);
}

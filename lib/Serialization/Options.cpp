//===- Options.cpp - The serialization phase's flags ----------------------===//

#include "kiln/Serialization/Options.h"
#include "kiln/Cache/FileCache.h"
#include "kiln/Options/OptionsBinder.h"

#include <cstdlib>

using namespace kiln;

void SerializationOptions::bindOptions(OptionsBinder &binder) {
  // The environment gives the default, which a flag overrides.
  if (const char *dir = std::getenv("KILN_OBJECT_CACHE"))
    objectCacheDir = dir;
  binder.category("Kiln compile time");
  binder.opt("kiln-jobs", jobs,
             llvm::cl::desc("Executables to compile at once, in codegen and "
                            "in LLVM (default 0: one per core); the module "
                            "is the same whatever the number"),
             llvm::cl::value_desc("n"));
  binder.opt("kiln-object-cache", objectCacheDir,
             llvm::cl::desc("Keep executables' object code in DIR and reuse "
                            "it for executables that did not change "
                            "(default: $KILN_OBJECT_CACHE; empty: no cache)"),
             llvm::cl::value_desc("dir"));
  binder.opt("kiln-object-cache-max-size", objectCacheMaxSize,
             llvm::cl::desc("Remove the least recently used entries of the "
                            "object cache past SIZE (default 1G; K, M, G, "
                            "T are powers of 1024; 0: no limit)"),
             llvm::cl::value_desc("size"));
}

llvm::Error SerializationOptions::verify() const {
  llvm::Expected<uint64_t> bytes =
      parseByteSize(objectCacheMaxSize, "--kiln-object-cache-max-size");
  if (!bytes)
    return bytes.takeError();
  if (objectCacheDir.empty())
    return llvm::Error::success();
  // Name where the folder came from when it was not the flag.
  const char *environment = std::getenv("KILN_OBJECT_CACHE");
  std::string origin = environment && objectCacheDir == environment
                           ? "KILN_OBJECT_CACHE (--kiln-object-cache)"
                           : "--kiln-object-cache";
  return FileCache::open(objectCacheDir, ".obj", *bytes, origin).takeError();
}

uint64_t SerializationOptions::getObjectCacheMaxBytes() const {
  llvm::Expected<uint64_t> bytes = parseByteSize(objectCacheMaxSize, "");
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return 0;
  }
  return *bytes;
}

//===- Options.h - How executables become object code -----------*- C++ -*-===//
//
// The options of the serialization phase and of the object cache: how many
// executables are compiled at once, and where their object code is kept
// between compiles.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SERIALIZATION_OPTIONS_H
#define KILN_SERIALIZATION_OPTIONS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace kiln {
class OptionsBinder;

struct SerializationOptions {
  /// Executables compiled at once, by codegen and by LLVM (--kiln-jobs);
  /// 0: one per core.
  unsigned jobs = 0;
  /// The object cache's folder (--kiln-object-cache, KILN_OBJECT_CACHE);
  /// empty: no cache.
  std::string objectCacheDir;
  /// The most the cache's entries may take, such as "1G"
  /// (--kiln-object-cache-max-size).
  std::string objectCacheMaxSize = "1G";
  /// What else determines executables' object code besides their IR: the
  /// session's flags and plugins (set by the session; part of every cache
  /// key).
  std::string fingerprint;

  /// Binds the flags; the cache folder defaults to $KILN_OBJECT_CACHE.
  void bindOptions(OptionsBinder &binder);

  /// Fails, naming the flag, when the cache folder cannot be made or
  /// written or the size does not parse.
  llvm::Error verify() const;

  /// The cache size limit in bytes (verify() has checked that it parses).
  uint64_t getObjectCacheMaxBytes() const;
};

} // namespace kiln

#endif // KILN_SERIALIZATION_OPTIONS_H

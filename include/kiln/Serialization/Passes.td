//===- Passes.td - Serialization passes --------------------*- tablegen -*-===//
//
// The serialization phase: each executable compiled to object code on its
// own and in parallel, then host code, linked into a native shared object.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SERIALIZATION_PASSES_TD
#define KILN_SERIALIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LookupCachedObjectsPass
    : Pass<"kiln-lookup-cached-objects", "kiln::ExecutableOp"> {
  let summary = "Take unchanged executables' object code from the object cache";
  let description = [{
    Runs at the start of the executable-codegen phase, on every executable
    at once. Keys the executable by a hash of what determines its object
    code: its IR after configuration (every attribute, dense resources by
    content, no locations), Kiln's build id, LLVM's version and the
    session's fingerprint (its flags and plugins). On a hit, the variant's
    module is erased (codegen skips it), its object code is attached as
    `kiln.object_code` and its exports carry the workgroup scratch their
    kernels need; on a miss, the variant carries the key
    (`kiln.object_cache_key`) for kiln-serialize-executables to store the
    object under. A damaged entry is a miss, and is replaced.
  }];
  let options = [
    Option<"objectCache", "object-cache", "std::string", "",
           "The object cache's folder">,
    Option<"fingerprint", "fingerprint", "std::string", "",
           "What besides the IR determines object code (the session's "
           "flags and plugins)">,
  ];
  let statistics = [
    Statistic<"numHits", "hits", "Executables whose object code the cache had">,
    Statistic<"numMisses", "misses", "Executables the cache did not have">,
  ];
}

def SerializeExecutablesPass
    : Pass<"kiln-serialize-executables", "kiln::ExecutableOp"> {
  let summary = "Compile each executable to object code on its own";
  let description = [{
    Takes the executable's llvm-cpu variant (there must be exactly one),
    names its kernels as host code launches them (hidden, so the module
    does not export them), makes everything else it defines internal, and
    compiles its module with LLVM at -O3 for the variant's CPU into an
    object, attached to the variant as `kiln.object_code`, which replaces
    the variant's module. The pass
    manager runs it on every executable at once (--kiln-jobs threads), so
    LLVM's time is spread over the cores; the objects do not depend on
    the order. With a cache key from kiln-lookup-cached-objects, the
    object goes into the object cache; a variant that came from the cache
    is left as it is.
  }];
  let options = [
    Option<"objectCache", "object-cache", "std::string", "",
           "The object cache's folder">,
  ];
  let statistics = [
    Statistic<"numObjects", "objects",
              "Executables compiled to object code by LLVM">,
    Statistic<"numObjectBytes", "object-bytes",
              "Bytes of object code LLVM made">,
    Statistic<"numCached", "cached",
              "Executables whose object code came from the cache">,
  ];
}

def LinkExecutablesPass : Pass<"kiln-link-executables", "mlir::ModuleOp"> {
  let summary = "Gather every executable's object code on the host module";
  let description = [{
    After kiln-serialize-executables: moves each executable's object code to
    the host module's `kiln.object_code` list (in the executables' order),
    adds the object files variants attach to `kiln.objects`, and erases
    the executables. What remains is host code in the LLVM dialect, whose
    kernel declarations the executables' objects define at link time.
  }];
}

#endif // KILN_SERIALIZATION_PASSES_TD

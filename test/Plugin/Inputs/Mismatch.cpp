//===- Mismatch.cpp - A plugin built against another Kiln -----------------===//
//
// Writes the handshake by hand, as a plugin built against another Kiln
// build and MLIR would have it. Kiln must refuse it before calling
// anything else.
//
//===----------------------------------------------------------------------===//

struct kiln_plugin_handshake_info {
  int api_version;
  const char *kiln_build_id;
  const char *mlir_version;
};

extern "C" __attribute__((visibility("default")))
const kiln_plugin_handshake_info *
kiln_plugin_handshake() {
  static const kiln_plugin_handshake_info info = {1, "0.0.1-otherbuild",
                                                  "21.1.8"};
  return &info;
}

extern "C" __attribute__((visibility("default"))) void *
kiln_plugin_register(void *) {
  __builtin_trap(); // Must never be called.
}

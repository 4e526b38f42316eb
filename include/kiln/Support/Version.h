//===- Version.h - What every tool's --version says -------------*- C++ -*-===//
//
// Kiln's version and build id (BuildInfo.h, generated when Kiln is
// configured), in the line every tool prints for --version. Header-only:
// the runtime's tools, which link no LLVM, print it too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_VERSION_H
#define KILN_SUPPORT_VERSION_H

#include "kiln/Plugin/BuildInfo.h"

#include <string>

namespace kiln {

/// "TOOL (Kiln VERSION, build BUILD_ID)\n".
inline std::string getVersionLine(const std::string &tool) {
  return tool + " (Kiln " KILN_VERSION ", build " KILN_BUILD_ID ")\n";
}

} // namespace kiln

#endif // KILN_SUPPORT_VERSION_H

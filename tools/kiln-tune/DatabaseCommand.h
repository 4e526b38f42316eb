//===- DatabaseCommand.h - kiln-tune db -------------------------*- C++ -*-===//

#ifndef KILN_TOOLS_KILN_TUNE_DATABASECOMMAND_H
#define KILN_TOOLS_KILN_TUNE_DATABASECOMMAND_H

#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace kiln {

struct DatabaseCommandOptions {
  std::string output; // -o
  std::string cpu;    // --cpu: the CPU whose records export takes
  double margin = 0;  // --margin: how much faster than the baseline
};

/// kiln-tune db list|export|merge DB...: `args` is the subcommand and the
/// databases. Returns the exit status.
int runDatabaseCommand(mlir::MLIRContext &context,
                       const std::vector<std::string> &args,
                       const DatabaseCommandOptions &options);

} // namespace kiln

#endif // KILN_TOOLS_KILN_TUNE_DATABASECOMMAND_H

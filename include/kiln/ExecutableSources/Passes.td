//===- Passes.td - Executable sources passes ---------------*- tablegen -*-===//
//
// Turn each executable's source into one variant per requested target.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_EXECUTABLESOURCES_PASSES_TD
#define KILN_EXECUTABLESOURCES_PASSES_TD

include "mlir/Pass/PassBase.td"

def MaterializeTargetVariantsPass
    : Pass<"kiln-materialize-target-variants", "mlir::ModuleOp"> {
  let summary = "Give every executable one variant per target";
  let description = [{
    Replaces the source of each `kiln.executable` (its exports and module)
    with one `kiln.executable.variant` per requested target backend, each a
    copy of the source carrying the backend's `#kiln.target`. For the
    `llvm-cpu` backend the target names the CPU (`cpu=host` detects the
    machine's CPU and features through LLVM). Executables already in target
    form are left alone.

    Before:
    ```mlir
    kiln.executable private @ex {
      kiln.executable.export public @fn workgroups(...) ...
      builtin.module { func.func @fn() { ... } }
    }
    ```
    After:
    ```mlir
    kiln.executable private @ex {
      kiln.executable.variant public @llvm_cpu target(#kiln.target<
          "llvm-cpu", {cpu = "znver4", cpu_features = "...", triple = "..."}>) {
        kiln.executable.export public @fn workgroups(...) ...
        builtin.module { func.func @fn() { ... } }
      }
    }
    ```
  }];
  let options = [
    ListOption<"targets", "targets", "std::string",
               "Target backends to produce variants for (default: llvm-cpu)">,
    Option<"cpu", "cpu", "std::string", /*default=*/"\"host\"",
           "CPU to compile for: 'host' or an LLVM CPU name">,
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"\"",
           "Comma-separated +feature/-feature edits of the CPU's features">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_EXECUTABLESOURCES_PASSES_TD

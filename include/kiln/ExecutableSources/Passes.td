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
    machine's CPU and features through LLVM). With several CPUs there is one
    variant per backend and CPU, named after both (`@llvm_cpu_znver4`), and
    the module lists their targets in `kiln.variant_targets`: the runtime
    picks one at load. Host code is compiled for what every llvm-cpu
    variant's CPU can run (`kiln.target` on the module). Executables already
    in target form are left alone.

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
    ListOption<"cpus", "cpu", "std::string",
               "CPUs to compile for, one variant each: 'host' or LLVM CPU "
               "names (default: host)">,
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"\"",
           "Comma-separated +feature/-feature edits of the CPU's features">,
  ];
  let dependentDialects = ["::kiln::KilnDialect"];
}

#endif // KILN_EXECUTABLESOURCES_PASSES_TD

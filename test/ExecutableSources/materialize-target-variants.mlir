// RUN: kiln-opt %s --kiln-materialize-target-variants=cpu=znver4 | FileCheck %s --check-prefix=ZNVER4
// RUN: kiln-opt %s --kiln-materialize-target-variants=cpu=x86-64-v3 | FileCheck %s --check-prefix=AVX2
// RUN: kiln-opt %s --kiln-materialize-target-variants="cpu=x86-64-v3 cpu-features=+avx512f,-fma" | FileCheck %s --check-prefix=EDITED
// RUN: kiln-opt %s --kiln-materialize-target-variants="cpu=znver4,x86-64-v3,sapphirerapids" | FileCheck %s --check-prefix=MULTI
// RUN: not kiln-opt %s --kiln-materialize-target-variants="targets=llvm-cpu,llvm-cpu cpu=znver4" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not kiln-opt %s --kiln-materialize-target-variants="cpu=znver4,znver99" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The source (export and module) moves into one variant per target.
// ZNVER4-LABEL: kiln.executable private @ex {
// ZNVER4-NEXT:    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "{{.*}}+avx512f{{.*}}", triple = "x86_64-unknown-linux-gnu"}>) {
// ZNVER4-NEXT:      kiln.executable.export public @fn workgroups
// ZNVER4:           builtin.module {
// ZNVER4-NEXT:        func.func @fn()
// ZNVER4:         }
// ZNVER4-NEXT:  }
// An executable already in target form is left alone.
// ZNVER4-LABEL: kiln.executable private @done {
// ZNVER4-NEXT:    kiln.executable.variant public @custom target(#kiln.target<"llvm-cpu", {cpu = "znver5"}>)

// AVX2:     cpu = "x86-64-v3"
// AVX2-SAME: +avx2
// AVX2-NOT: avx512f
// AVX2-SAME: triple

// EDITED:     cpu = "x86-64-v3"
// EDITED-SAME: +avx512f
// EDITED-NOT: +fma,
// EDITED-SAME: triple

// Several CPUs: one variant each, named after it; the module lists their
// targets in order, and host code is for what all of them run (x86-64-v3's
// AVX2, not the AVX-512 of the other two).
// MULTI:       module attributes {
// MULTI-SAME:    kiln.target = #kiln.target<"llvm-cpu", {cpu = "x86-64", cpu_features = "{{[^"]*}}+avx2
// MULTI-NOT:     avx512f
// MULTI-SAME:    kiln.variant_targets = [#kiln.target<"llvm-cpu", {cpu = "znver4"{{[^>]*}}>, #kiln.target<"llvm-cpu", {cpu = "x86-64-v3"{{[^>]*}}>, #kiln.target<"llvm-cpu", {cpu = "sapphirerapids"{{[^>]*}}>]
// MULTI-LABEL: kiln.executable private @ex {
// MULTI-NEXT:    kiln.executable.variant public @llvm_cpu_znver4 target(#kiln.target<"llvm-cpu", {cpu = "znver4"
// MULTI:         kiln.executable.variant public @llvm_cpu_x86_64_v3 target(#kiln.target<"llvm-cpu", {cpu = "x86-64-v3"
// MULTI:         kiln.executable.variant public @llvm_cpu_sapphirerapids target(#kiln.target<"llvm-cpu", {cpu = "sapphirerapids"

// The same target twice, or a CPU LLVM does not know: errors naming it.
// TWICE: error: target llvm-cpu for CPU 'znver4' (--kiln-target-cpu=znver4) is requested twice; name each backend and each CPU once
// UNKNOWN: error: unknown CPU 'znver99' for the llvm-cpu target

kiln.executable private @ex {
  kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload(%w)
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn() {
      return
    }
  }
}

kiln.executable private @done {
  kiln.executable.variant public @custom target(#kiln.target<"llvm-cpu", {cpu = "znver5"}>) {
    kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%w)
      kiln.return %x, %y, %z : index, index, index
    }
  }
}

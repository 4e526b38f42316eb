// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(builtin.module(kiln-expand-small-floats))))' | FileCheck %s

// An AVX2 CPU has no f32 to bf16 conversion instruction, and LLVM would
// call __truncsfbf2, which modules do not link: the truncation becomes
// integer rounding to nearest even on the bits (NaNs to a quiet NaN).
// CHECK-LABEL: kiln.executable private @avx2
// CHECK:         func.func @cast
// CHECK-NOT:       arith.truncf
// CHECK:           %[[NAN:.*]] = arith.cmpf une, %[[X:.*]], %[[X]] : vector<8xf32>
// CHECK:           arith.bitcast %[[X]] : vector<8xf32> to vector<8xi32>
// CHECK:           arith.shrui
// CHECK:           %[[BITS:.*]] = arith.trunci %{{.*}} : vector<8xi32> to vector<8xi16>
// CHECK:           %[[R:.*]] = arith.select %[[NAN]], %{{.*}}, %[[BITS]]
// CHECK:           arith.bitcast %[[R]] : vector<8xi16> to vector<8xbf16>
kiln.executable private @avx2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @cast(%x: vector<8xf32>) -> vector<8xbf16> {
        %y = arith.truncf %x : vector<8xf32> to vector<8xbf16>
        return %y : vector<8xbf16>
      }
    }
  }
}

// -----

// With AVX512-BF16 the truncation stays for LLVM (vcvtneps2bf16).
// CHECK-LABEL: kiln.executable private @avx512_bf16
// CHECK:         arith.truncf %{{.*}} : vector<16xf32> to vector<16xbf16>
kiln.executable private @avx512_bf16 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver5", cpu_features = "+avx,+avx2,+fma,+avx512f,+avx512bf16", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @cast(%x: vector<16xf32>) -> vector<16xbf16> {
        %y = arith.truncf %x : vector<16xf32> to vector<16xbf16>
        return %y : vector<16xbf16>
      }
    }
  }
}

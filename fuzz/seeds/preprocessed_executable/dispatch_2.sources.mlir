kiln.executable private @main_dispatch_2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "sapphirerapids", cpu_features = "+64bit,+64bit-mode,+adx,+aes,+allow-light-256-bit,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+ermsb,+f16c,+false-deps-getmant,+false-deps-mulc,+false-deps-mullq,+false-deps-perm,+false-deps-range,+fast-15bytenop,+fast-gather,+fast-scalar-fsqrt,+fast-shld-rotate,+fast-variable-crosslane-shuffle,+fast-variable-perlane-shuffle,+fast-vector-fsqrt,+fma,+fsgsbase,+fsrm,+fxsr,+gfni,+idivq-to-divl,+invpcid,+lzcnt,+macrofusion,+mmx,+movbe,+movdir64b,+movdiri,+no-bypass-delay-blend,+no-bypass-delay-mov,+no-bypass-delay-shuffle,+nopl,+pclmul,+pconfig,+pku,+popcnt,+prefer-256-bit,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sha,+shstk,+slow-pmullq,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+tuning-fast-imm-vector-shift,+uintr,+vaes,+vpclmulqdq,+vzeroupper,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @main_dispatch_2_elementwise_16_i32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%arg0)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_2_elementwise_16_i32() {
        %0 = kiln.dispatch.binding 0 readonly : memref<16xi32>
        %1 = bufferization.to_tensor %0 restrict : memref<16xi32> to tensor<16xi32>
        %2 = tensor.empty() : tensor<16xi32>
        %3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1 : tensor<16xi32>) outs(%2 : tensor<16xi32>) {
        ^bb0(%in: i32, %out: i32):
          %5 = arith.muli %in, %in : i32
          linalg.yield %5 : i32
        } -> tensor<16xi32>
        %4 = kiln.dispatch.binding 1 : memref<16xi32>
        bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<16xi32>, memref<16xi32>) -> ()
        return
      }
    }
  }
}

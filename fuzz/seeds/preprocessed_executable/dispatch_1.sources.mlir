kiln.executable private @main_dispatch_1 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "sapphirerapids", cpu_features = "+64bit,+64bit-mode,+adx,+aes,+allow-light-256-bit,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+ermsb,+f16c,+false-deps-getmant,+false-deps-mulc,+false-deps-mullq,+false-deps-perm,+false-deps-range,+fast-15bytenop,+fast-gather,+fast-scalar-fsqrt,+fast-shld-rotate,+fast-variable-crosslane-shuffle,+fast-variable-perlane-shuffle,+fast-vector-fsqrt,+fma,+fsgsbase,+fsrm,+fxsr,+gfni,+idivq-to-divl,+invpcid,+lzcnt,+macrofusion,+mmx,+movbe,+movdir64b,+movdiri,+no-bypass-delay-blend,+no-bypass-delay-mov,+no-bypass-delay-shuffle,+nopl,+pclmul,+pconfig,+pku,+popcnt,+prefer-256-bit,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sha,+shstk,+slow-pmullq,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+tuning-fast-imm-vector-shift,+uintr,+vaes,+vpclmulqdq,+vzeroupper,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @main_dispatch_1_reduce_Dx64_f32 workgroups(%arg0: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%arg0)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @main_dispatch_1_reduce_Dx64_f32() {
        %cst = arith.constant 0.000000e+00 : f32
        %0 = kiln.dispatch.constant 0 : index
        %1 = kiln.dispatch.binding 0 readonly : memref<?x64xf32>{%0}
        %2 = bufferization.to_tensor %1 restrict : memref<?x64xf32> to tensor<?x64xf32>
        %3 = tensor.empty(%0) : tensor<?xf32>
        %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<?xf32>) -> tensor<?xf32>
        %reduced = linalg.reduce ins(%2 : tensor<?x64xf32>) outs(%4 : tensor<?xf32>) dimensions = [1] 
          (%in: f32, %init: f32) {
            %6 = arith.addf %in, %init : f32
            linalg.yield %6 : f32
          }
        %5 = kiln.dispatch.binding 1 : memref<?xf32>{%0}
        bufferization.materialize_in_destination %reduced in restrict writable %5 : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}

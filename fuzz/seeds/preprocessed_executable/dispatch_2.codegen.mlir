kiln.executable private @main_dispatch_2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "sapphirerapids", cpu_features = "+64bit,+64bit-mode,+adx,+aes,+allow-light-256-bit,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+ermsb,+f16c,+false-deps-getmant,+false-deps-mulc,+false-deps-mullq,+false-deps-perm,+false-deps-range,+fast-15bytenop,+fast-gather,+fast-scalar-fsqrt,+fast-shld-rotate,+fast-variable-crosslane-shuffle,+fast-variable-perlane-shuffle,+fast-vector-fsqrt,+fma,+fsgsbase,+fsrm,+fxsr,+gfni,+idivq-to-divl,+invpcid,+lzcnt,+macrofusion,+mmx,+movbe,+movdir64b,+movdiri,+no-bypass-delay-blend,+no-bypass-delay-mov,+no-bypass-delay-shuffle,+nopl,+pclmul,+pconfig,+pku,+popcnt,+prefer-256-bit,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sha,+shstk,+slow-pmullq,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+tuning-fast-imm-vector-shift,+uintr,+vaes,+vpclmulqdq,+vzeroupper,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @main_dispatch_2_elementwise_16_i32 workgroups(%arg0: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      %c1_0 = arith.constant 1 : index
      kiln.return %c1_0, %c1, %c1 : index, index, index
    }
    builtin.module {
      llvm.func @main_dispatch_2_elementwise_16_i32(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32, %arg3: i32) {
        %0 = llvm.mlir.constant(64 : index) : i64
        %1 = llvm.mlir.constant(true) : i1
        %2 = llvm.mlir.constant(16 : index) : i64
        %3 = llvm.mlir.constant(1 : index) : i64
        %4 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
        %5 = llvm.load %4 : !llvm.ptr -> !llvm.ptr
        llvm.intr.assume %1 ["align"(%5, %0 : !llvm.ptr, i64)] : i1
        %6 = llvm.zext %arg1 : i32 to i64
        %7 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
        %8 = llvm.load %7 : !llvm.ptr -> i32
        %9 = llvm.zext %8 : i32 to i64
        %10 = llvm.getelementptr %4[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %11 = llvm.load %10 : !llvm.ptr -> !llvm.ptr
        llvm.intr.assume %1 ["align"(%11, %0 : !llvm.ptr, i64)] : i1
        llvm.br ^bb1(%6 : i64)
      ^bb1(%12: i64):  // 2 preds: ^bb0, ^bb2
        %13 = llvm.icmp "slt" %12, %3 : i64
        llvm.cond_br %13, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %14 = llvm.mul %12, %2 overflow<nsw> : i64
        %15 = llvm.getelementptr %5[%14] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %16 = llvm.load %15 {alignment = 4 : i64} : !llvm.ptr -> vector<16xi32>
        %17 = llvm.mul %16, %16 : vector<16xi32>
        %18 = llvm.getelementptr %11[%14] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        llvm.store %17, %18 {alignment = 4 : i64} : vector<16xi32>, !llvm.ptr
        %19 = llvm.add %12, %9 : i64
        llvm.br ^bb1(%19 : i64)
      ^bb3:  // pred: ^bb1
        llvm.return
      }
    }
  }
}

kiln.executable private @main_dispatch_1 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "sapphirerapids", cpu_features = "+64bit,+64bit-mode,+adx,+aes,+allow-light-256-bit,+amx-bf16,+amx-int8,+amx-tile,+avx,+avx2,+avx512bf16,+avx512bitalg,+avx512bw,+avx512cd,+avx512dq,+avx512f,+avx512fp16,+avx512ifma,+avx512vbmi,+avx512vbmi2,+avx512vl,+avx512vnni,+avx512vpopcntdq,+avxvnni,+bmi,+bmi2,+cldemote,+clflushopt,+clwb,+cmov,+crc32,+cx16,+cx8,+enqcmd,+ermsb,+f16c,+false-deps-getmant,+false-deps-mulc,+false-deps-mullq,+false-deps-perm,+false-deps-range,+fast-15bytenop,+fast-gather,+fast-scalar-fsqrt,+fast-shld-rotate,+fast-variable-crosslane-shuffle,+fast-variable-perlane-shuffle,+fast-vector-fsqrt,+fma,+fsgsbase,+fsrm,+fxsr,+gfni,+idivq-to-divl,+invpcid,+lzcnt,+macrofusion,+mmx,+movbe,+movdir64b,+movdiri,+no-bypass-delay-blend,+no-bypass-delay-mov,+no-bypass-delay-shuffle,+nopl,+pclmul,+pconfig,+pku,+popcnt,+prefer-256-bit,+prfchw,+ptwrite,+rdpid,+rdrnd,+rdseed,+sahf,+serialize,+sha,+shstk,+slow-pmullq,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+tsxldtrk,+tuning-fast-imm-vector-shift,+uintr,+vaes,+vpclmulqdq,+vzeroupper,+waitpkg,+wbnoinvd,+x87,+xsave,+xsavec,+xsaveopt,+xsaves", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @main_dispatch_1_reduce_Dx64_f32 workgroups(%arg0: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %0 = arith.ceildivui %arg0, %c256 : index
      kiln.return %0, %c1, %c1 : index, index, index
    }
    builtin.module {
      llvm.func @main_dispatch_1_reduce_Dx64_f32(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32, %arg3: i32) {
        %0 = llvm.mlir.poison : vector<1xf32>
        %1 = llvm.mlir.constant(0 : i32) : i32
        %2 = llvm.mlir.poison : vector<32xi32>
        %3 = llvm.mlir.constant(true) : i1
        %4 = llvm.mlir.constant(dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]> : vector<32xi32>) : vector<32xi32>
        %5 = llvm.mlir.constant(-1 : index) : i64
        %6 = llvm.mlir.constant(-256 : index) : i64
        %7 = llvm.mlir.constant(256 : index) : i64
        %8 = llvm.mlir.constant(0 : i64) : i64
        %9 = llvm.mlir.constant(0 : index) : i64
        %10 = llvm.mlir.constant(32 : index) : i64
        %11 = llvm.mlir.constant(dense<0.000000e+00> : vector<32xf32>) : vector<32xf32>
        %12 = llvm.mlir.constant(1 : index) : i64
        %13 = llvm.mlir.constant(64 : index) : i64
        %14 = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
        %15 = llvm.getelementptr %arg0[8] : (!llvm.ptr) -> !llvm.ptr, i8
        %16 = llvm.load %15 : !llvm.ptr -> !llvm.ptr
        %17 = llvm.load %16 : !llvm.ptr -> i64
        %18 = llvm.load %14 : !llvm.ptr -> !llvm.ptr
        llvm.intr.assume %3 ["align"(%18, %13 : !llvm.ptr, i64)] : i1
        %19 = llvm.icmp "sle" %17, %9 : i64
        %20 = llvm.sub %9, %17 : i64
        %21 = llvm.sub %17, %12 : i64
        %22 = llvm.select %19, %20, %21 : i1, i64
        %23 = llvm.sdiv %22, %7 : i64
        %24 = llvm.sub %9, %23 : i64
        %25 = llvm.add %23, %12 : i64
        %26 = llvm.select %19, %24, %25 : i1, i64
        %27 = llvm.zext %arg1 : i32 to i64
        %28 = llvm.getelementptr %arg0[16] : (!llvm.ptr) -> !llvm.ptr, i8
        %29 = llvm.load %28 : !llvm.ptr -> i32
        %30 = llvm.zext %29 : i32 to i64
        %31 = llvm.alloca %13 x f32 {alignment = 64 : i64} : (i64) -> !llvm.ptr
        %32 = llvm.getelementptr %14[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %33 = llvm.load %32 : !llvm.ptr -> !llvm.ptr
        llvm.br ^bb1(%27 : i64)
      ^bb1(%34: i64):  // 2 preds: ^bb0, ^bb11
        %35 = llvm.icmp "slt" %34, %26 : i64
        llvm.cond_br %35, ^bb2, ^bb12
      ^bb2:  // pred: ^bb1
        %36 = llvm.mul %34, %6 overflow<nsw> : i64
        %37 = llvm.add %17, %36 : i64
        %38 = llvm.icmp "slt" %37, %7 : i64
        %39 = llvm.select %38, %37, %7 : i1, i64
        %40 = llvm.mul %34, %7 overflow<nsw> : i64
        llvm.br ^bb3(%9 : i64)
      ^bb3(%41: i64):  // 2 preds: ^bb2, ^bb4
        %42 = llvm.icmp "slt" %41, %39 : i64
        llvm.cond_br %42, ^bb4, ^bb5
      ^bb4:  // pred: ^bb3
        %43 = llvm.mul %41, %5 overflow<nsw> : i64
        %44 = llvm.add %43, %39 : i64
        %45 = llvm.icmp "slt" %44, %10 : i64
        %46 = llvm.select %45, %44, %10 : i1, i64
        %47 = llvm.add %40, %41 : i64
        %48 = llvm.trunc %46 : i64 to i32
        %49 = llvm.insertelement %48, %2[%1 : i32] : vector<32xi32>
        %50 = llvm.shufflevector %49, %2 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<32xi32> 
        %51 = llvm.icmp "sgt" %50, %4 : vector<32xi32>
        %52 = llvm.getelementptr %33[%47] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.intr.masked.store %11, %52, %51 {alignment = 4 : i32} : vector<32xf32>, vector<32xi1> into !llvm.ptr
        %53 = llvm.add %41, %10 : i64
        llvm.br ^bb3(%53 : i64)
      ^bb5:  // pred: ^bb3
        llvm.br ^bb6(%9 : i64)
      ^bb6(%54: i64):  // 2 preds: ^bb5, ^bb10
        %55 = llvm.icmp "slt" %54, %39 : i64
        llvm.cond_br %55, ^bb7, ^bb11
      ^bb7:  // pred: ^bb6
        llvm.br ^bb8(%9 : i64)
      ^bb8(%56: i64):  // 2 preds: ^bb7, ^bb9
        %57 = llvm.icmp "slt" %56, %13 : i64
        llvm.cond_br %57, ^bb9, ^bb10
      ^bb9:  // pred: ^bb8
        %58 = llvm.mul %9, %13 : i64
        %59 = llvm.add %58, %56 : i64
        %60 = llvm.getelementptr %31[%59] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %11, %60 {alignment = 4 : i64} : vector<32xf32>, !llvm.ptr
        %61 = llvm.add %56, %10 : i64
        llvm.br ^bb8(%61 : i64)
      ^bb10:  // pred: ^bb8
        %62 = llvm.add %54, %40 : i64
        %63 = llvm.mul %62, %13 : i64
        %64 = llvm.add %63, %9 : i64
        %65 = llvm.getelementptr %18[%64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %66 = llvm.load %65 {alignment = 4 : i64} : !llvm.ptr -> vector<64xf32>
        %67 = llvm.mul %9, %13 : i64
        %68 = llvm.add %67, %9 : i64
        %69 = llvm.getelementptr %31[%68] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %70 = llvm.load %69 {alignment = 4 : i64} : !llvm.ptr -> vector<64xf32>
        %71 = llvm.fadd %66, %70 {fastmathFlags = #llvm.fastmath<contract>} : vector<64xf32>
        %72 = llvm.getelementptr %33[%40] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %73 = llvm.getelementptr %72[%54] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %74 = llvm.load %73 {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
        %75 = llvm.extractelement %74[%8 : i64] : vector<1xf32>
        %76 = "llvm.intr.vector.reduce.fadd"(%75, %71) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<64xf32>) -> f32
        %77 = llvm.insertelement %76, %0[%1 : i32] : vector<1xf32>
        llvm.store %77, %73 {alignment = 4 : i64} : vector<1xf32>, !llvm.ptr
        %78 = llvm.add %54, %12 : i64
        llvm.br ^bb6(%78 : i64)
      ^bb11:  // pred: ^bb6
        %79 = llvm.add %34, %30 : i64
        llvm.br ^bb1(%79 : i64)
      ^bb12:  // pred: ^bb1
        llvm.return
      }
    }
  }
}

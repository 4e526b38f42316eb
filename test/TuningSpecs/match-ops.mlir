// RUN: kiln-opt %s --transform-interpreter --split-input-file -verify-diagnostics

// Kiln's matchers, each against one payload of every kind: a remark marks
// every op a matcher accepted. (Remark texts must not contain each other:
// the verifier matches by substring.)

func.func @payload(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>, %c: tensor<512x256xf32>,
                   %ba: tensor<4x64x32xf32>, %bb: tensor<4x32x16xf32>, %bc: tensor<4x64x16xf32>,
                   %img: tensor<1x16x16x8xf32>, %flt: tensor<3x3x8x32xf32>, %out: tensor<1x14x14x32xf32>,
                   %r: tensor<64x1000xf32>, %acc: tensor<64xf32>,
                   %h: tensor<512x128xf16>, %hb: tensor<128x256xf16>)
    -> (tensor<512x256xf32>, tensor<4x64x16xf32>, tensor<1x14x14x32xf32>, tensor<64xf32>, tensor<512x256xf32>) {
  // expected-remark @+3 {{matched: any}}
  // expected-remark @+2 {{matched: large}}
  // expected-remark @+1 {{matched: f32}}
  %mm = linalg.matmul ins(%a, %b : tensor<512x128xf32>, tensor<128x256xf32>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
  // expected-remark @+3 {{matched: any}}
  // expected-remark @+2 {{matched: batched}}
  // expected-remark @+1 {{matched: f32}}
  %bmm = linalg.batch_matmul ins(%ba, %bb : tensor<4x64x32xf32>, tensor<4x32x16xf32>) outs(%bc : tensor<4x64x16xf32>) -> tensor<4x64x16xf32>
  // expected-remark @+1 {{matched: convolution}}
  %conv = linalg.conv_2d_nhwc_hwcf ins(%img, %flt : tensor<1x16x16x8xf32>, tensor<3x3x8x32xf32>) outs(%out : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  // expected-remark @+1 {{matched: reduction}}
  %sum = linalg.reduce ins(%r : tensor<64x1000xf32>) outs(%acc : tensor<64xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }
  // Mixed types: a contraction, but not an all-f32 one.
  // expected-remark @+2 {{matched: any}}
  // expected-remark @+1 {{matched: large}}
  %mixed = linalg.matmul ins(%h, %hb : tensor<512x128xf16>, tensor<128x256xf16>) outs(%c : tensor<512x256xf32>) -> tensor<512x256xf32>
  return %mm, %bmm, %conv, %sum, %mixed : tensor<512x256xf32>, tensor<4x64x16xf32>, tensor<1x14x14x32xf32>, tensor<64xf32>, tensor<512x256xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @any_contraction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @large_contraction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [128, 4096], k = 128, batch_dims = 0} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @batched(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {batch = 4, batch_dims = 1, m = 64, n = 16, k = 32} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @f32_contraction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {element_types = [f32, f32, f32], unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @convolution(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.convolution %op {batch = 1, output_image = 196, output_channels = 32, input_channels = 8, filter = 9, element_types = [f32, f32, f32]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @reduction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.reduction %op {reduction = [512], parallel = 64, rank = 2, element_types = [f32, f32]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  // Matchers that accept nothing here.
  transform.named_sequence @too_small(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [1, 64], batch_dims = 0} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @wide_reduction(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.reduction %op {reduction = [2000]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @depthwise(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.convolution %op {depth = [2]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }

  transform.named_sequence @say_contraction(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: any" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_large(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: large" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_batched(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: batched" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_f32(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: f32" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_convolution(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: convolution" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_reduction(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "matched: reduction" : !transform.any_op
    transform.yield
  }
  transform.named_sequence @say_wrong(%op: !transform.any_op {transform.readonly}) {
    transform.debug.emit_remark_at %op, "should not match" : !transform.any_op
    transform.yield
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %0 = transform.foreach_match in %root @any_contraction -> @say_contraction : (!transform.any_op) -> !transform.any_op
    %1 = transform.foreach_match in %0 @large_contraction -> @say_large : (!transform.any_op) -> !transform.any_op
    %2 = transform.foreach_match in %1 @batched -> @say_batched : (!transform.any_op) -> !transform.any_op
    %3 = transform.foreach_match in %2 @f32_contraction -> @say_f32 : (!transform.any_op) -> !transform.any_op
    %4 = transform.foreach_match in %3 @convolution -> @say_convolution : (!transform.any_op) -> !transform.any_op
    %5 = transform.foreach_match in %4 @reduction -> @say_reduction : (!transform.any_op) -> !transform.any_op
    %6 = transform.foreach_match in %5 @too_small -> @say_wrong, @wide_reduction -> @say_wrong, @depthwise -> @say_wrong : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{attribute 'm' failed to satisfy constraint: a size (N), a range ([LO, HI]) or a lower bound ([LO])}}
    transform.kiln.match.contraction %ops {m = "big"} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'k' is an empty range (64 > 32)}}
    transform.kiln.match.contraction %ops {k = [64, 32]} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'element_types' lists 2 types; it takes 3 (lhs, rhs, result)}}
    transform.kiln.match.contraction %ops {element_types = [f32, f32]} : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'n' must be a size N, a range [LO, HI] or a lower bound [LO], got [1, 2, 3]}}
    transform.kiln.match.contraction %ops {n = [1, 2, 3]} : !transform.any_op
    transform.yield
  }
}

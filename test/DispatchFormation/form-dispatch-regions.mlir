// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-form-dispatch-regions, cse))' | FileCheck %s

// The matmul is the root; its fill (and the fill's empty tensor) are cloned
// in, its elementwise consumer fused. The workload is M and N.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK:         %[[R:.+]] = kiln.dispatch.region[%[[C4]], %[[C8]]] -> (tensor<4x8xf32>) {
// CHECK:           %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:           %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]]
// CHECK:           %[[MM:.+]] = linalg.matmul {{.*}} outs(%[[F]]
// CHECK:           %[[G:.+]] = linalg.generic {{.*}} ins(%[[MM]], %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:           kiln.return %[[G]] : tensor<4x8xf32>
// CHECK:         }
// CHECK-NOT:     kiln.dispatch.region
// CHECK:         return %[[R]]
func.func @matmul_bias_relu(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Dynamic shapes: the workload and the result's dims are computed on the
// host from the arguments.
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK-SAME:      %[[A:[a-z0-9]+]]: tensor<?x?xf32>, %[[B:[a-z0-9]+]]: tensor<?x?xf32>
// CHECK-DAG:     %[[M:.+]] = tensor.dim %[[A]], %c0
// CHECK-DAG:     %[[N:.+]] = tensor.dim %[[B]], %c1
// CHECK:         kiln.dispatch.region[%[[M]], %[[N]]] -> (tensor<?x?xf32>{%[[M]], %[[N]]})
// CHECK:           tensor.empty(%[[M]], %[[N]])
// CHECK:           linalg.matmul
func.func @dynamic_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %mm : tensor<?x?xf32>
}

// -----

// A reduction is a root; the elementwise op over its result fuses, the
// elementwise op producing its input fuses too (each element is read once).
// CHECK-LABEL: func.func @reduction
// CHECK:         kiln.dispatch.region[%{{.+}}] -> (tensor<16xf32>) {
// CHECK:           linalg.generic {{.*}}["parallel", "parallel"]
// CHECK:             math.exp
// CHECK:           linalg.fill
// CHECK:           linalg.generic {{.*}}["parallel", "reduction"]
// CHECK:             arith.addf
// CHECK:           linalg.generic {{.*}}["parallel"]
// CHECK:             math.log
// CHECK:           kiln.return
// CHECK-NOT:     kiln.dispatch.region
func.func @reduction(%a: tensor<16x32xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<16x32xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %log = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.log %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %log : tensor<16xf32>
}

// -----

// An elementwise producer of a matmul operand is not fused: the matmul reads
// each element of A once per tile along N, so fusing would recompute it.
// Two matmuls in a chain are two dispatches; the ReLU between them fuses
// into the first.
// CHECK-LABEL: func.func @two_layers
// CHECK:         %[[SCALED:.+]] = kiln.dispatch.region
// CHECK:           arith.mulf
// CHECK:         %[[L1:.+]] = kiln.dispatch.region
// CHECK:           linalg.matmul ins(%[[SCALED]],
// CHECK:           arith.maximumf
// CHECK:         %[[L2:.+]] = kiln.dispatch.region
// CHECK:           linalg.matmul ins(%[[L1]],
// CHECK:         return %[[L2]]
func.func @two_layers(%x: tensor<4x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ex = tensor.empty() : tensor<4x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%ex : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %two : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%scaled, %w1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = linalg.matmul ins(%relu, %w2 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A root result used both by a fused consumer and by the host is returned
// from the region too.
// CHECK-LABEL: func.func @multi_use_root
// CHECK:         %[[R:.+]]:2 = kiln.dispatch.region[%{{.+}}] -> (tensor<16xf32>, tensor<16xf32>)
// CHECK:           %[[SUM:.+]] = linalg.generic {{.*}}["parallel", "reduction"]
// CHECK:           %[[NEG:.+]] = linalg.generic {{.*}}["parallel"]
// CHECK:           kiln.return %[[SUM]], %[[NEG]]
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @multi_use_root(%a: tensor<16x32xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %sum, %neg : tensor<16xf32>, tensor<16xf32>
}

// -----

// Dispatches inside host control flow; scalar reads and reshapes stay on
// the host; unused compute is dropped.
// CHECK-LABEL: func.func @host_control_flow
// CHECK:         tensor.extract %{{.+}}[]
// CHECK:         scf.if
// CHECK:           kiln.dispatch.region
// CHECK:             linalg.exp
// CHECK:         } else {
// CHECK:           tensor.collapse_shape
// CHECK-NOT:         kiln.dispatch.region
// CHECK:         }
// CHECK-NOT:     math.sqrt
func.func @host_control_flow(%c: tensor<i1>, %a: tensor<2x2xf32>) -> tensor<4xf32> {
  %cond = tensor.extract %c[] : tensor<i1>
  %unused = linalg.sqrt ins(%a : tensor<2x2xf32>) outs(%a : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = scf.if %cond -> tensor<4xf32> {
    %flat = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %exp = linalg.exp ins(%flat : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %exp : tensor<4xf32>
  } else {
    %flat = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    scf.yield %flat : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Ops without a linalg root: a fill returned to the host, a pad, a concat.
// CHECK-LABEL: func.func @data_movement
// CHECK:         %[[FILL:.+]] = kiln.dispatch.region[%{{.+}}] -> (tensor<8xf32>)
// CHECK:           linalg.fill
// CHECK:         %[[PAD:.+]] = kiln.dispatch.region[%{{.+}}, %{{.+}}] -> (tensor<6x6xf32>)
// CHECK:           tensor.pad
// CHECK:         %[[CAT:.+]] = kiln.dispatch.region[%{{.+}}] -> (tensor<?xf32>{%{{.+}}})
// CHECK:           tensor.concat dim(0)
// CHECK:         return %[[FILL]], %[[PAD]], %[[CAT]]
func.func @data_movement(%a: tensor<4x4xf32>, %b: tensor<?xf32>, %c: tensor<3xf32>) -> (tensor<8xf32>, tensor<6x6xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %cat = tensor.concat dim(0) %b, %c : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %f, %p, %cat : tensor<8xf32>, tensor<6x6xf32>, tensor<?xf32>
}

// -----

// Softmax is a root of its own (its workload: the parallel dim); its
// consumer fuses.
// CHECK-LABEL: func.func @softmax
// CHECK:         kiln.dispatch.region[%{{.+}}] -> (tensor<4x64xf32>)
// CHECK:           linalg.softmax
// CHECK:           linalg.generic
// CHECK:             arith.mulf
// CHECK-NOT:     kiln.dispatch.region
func.func @softmax(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A consumer's other operand, computed on the host after the root, moves
// above the region.
// CHECK-LABEL: func.func @late_operand
// CHECK:         %[[ADDED:.+]] = arith.addf
// CHECK:         kiln.dispatch.region
// CHECK:           linalg.generic {{.*}}["parallel", "reduction"]
// CHECK:           linalg.generic
// CHECK:             arith.mulf %{{.+}}, %[[ADDED]]
func.func @late_operand(%a: tensor<16x32xf32>, %s: f32) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %t = arith.addf %x, %acc : f32
    linalg.yield %t : f32
  } -> tensor<16xf32>
  %added = arith.addf %s, %s : f32
  %scaled = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %added : f32
    linalg.yield %y : f32
  } -> tensor<16xf32>
  return %scaled : tensor<16xf32>
}

// -----

// A convolution is a root with its bias consumer and the padding of its
// image: padding is a copy, which the convolution's workgroups make of
// their part of the image, instead of a dispatch writing the whole padded
// image.
// CHECK-LABEL: func.func @conv
// CHECK-NOT:     kiln.dispatch.region
// CHECK:         %[[CONV:.+]] = kiln.dispatch.region[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] -> (tensor<1x8x8x16xf32>)
// CHECK:           %[[PAD:.+]] = tensor.pad
// CHECK:           linalg.fill
// CHECK:           %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]], %{{.+}} :
// CHECK:           linalg.generic {{.*}} ins(%[[C]], %{{.+}} :
// CHECK:             arith.addf
// CHECK:         return %[[CONV]]
func.func @conv(%img: tensor<1x8x8x3xf32>, %filter: tensor<3x3x3x16xf32>, %bias: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %img low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x10x10x3xf32>, tensor<3x3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x8x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// Padding that something besides a convolution's image reads stays a
// dispatch of its own.
// CHECK-LABEL: func.func @padding_read_twice
// CHECK:         %[[PAD:.+]] = kiln.dispatch.region{{.*}} -> (tensor<1x10x10x3xf32>)
// CHECK:           tensor.pad
// CHECK:         kiln.dispatch.region{{.*}} -> (tensor<1x8x8x16xf32>)
// CHECK:           linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD]], %{{.+}} :
// CHECK:         return
func.func @padding_read_twice(%img: tensor<1x8x8x3xf32>, %filter: tensor<3x3x3x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x10x10x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %img low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x10x10x3xf32>, tensor<3x3x3x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %conv, %padded : tensor<1x8x8x16xf32>, tensor<1x10x10x3xf32>
}

// -----

// Pack and unpack are roots; the workload of a pack is its outer loops.
// CHECK-LABEL: func.func @pack_unpack
// CHECK:         %[[P:.+]] = kiln.dispatch.region[%{{.+}}, %{{.+}}] -> (tensor<4x2x8x16xf32>)
// CHECK:           linalg.pack
// CHECK:         %[[U:.+]] = kiln.dispatch.region[%{{.+}}, %{{.+}}] -> (tensor<32x32xf32>)
// CHECK:           linalg.unpack %[[P]]
// CHECK:         return %[[U]]
func.func @pack_unpack(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<4x2x8x16xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<32x32xf32> -> tensor<4x2x8x16xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e2 : tensor<4x2x8x16xf32> -> tensor<32x32xf32>
  return %u : tensor<32x32xf32>
}

// -----

// A consumer after a run-time check is not moved into its producer's
// dispatch, which runs before the check: it stays after it, in a dispatch
// of its own.
// CHECK-LABEL: func.func @consumer_after_check
// CHECK:         kiln.dispatch.region
// CHECK:           linalg.exp
// CHECK-NOT:       linalg.add
// CHECK:         kiln.assert
// CHECK:         kiln.dispatch.region
// CHECK:           linalg.add
func.func @consumer_after_check(%x: tensor<?xf32>, %y: tensor<?xf32>, %ok: i1) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  kiln.assert %ok, "checked"
  %s = linalg.add ins(%r, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

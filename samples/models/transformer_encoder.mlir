// One transformer encoder block (pre-layer-norm, as in GPT-2): a sequence
// of 128 tokens of width 256, 4 attention heads of 64, a feed-forward
// layer of 1024 with GELU (tanh form), residual connections. Weights are
// arguments.
//
//   y = x + Attention(LayerNorm1(x));  out = y + FFN(LayerNorm2(y))
//
//   kiln-compile samples/models/transformer_encoder.mlir -o encoder.so
//
// The case below (run by test/samples/models.test) compares it with numpy.
//
// SETUP: def layer_norm(x, gamma, beta):
// SETUP:     mean = x.mean(axis=-1, keepdims=True)
// SETUP:     var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
// SETUP:     return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta
// SETUP: def gelu(x):
// SETUP:     return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
// SETUP: def softmax(x):
// SETUP:     e = np.exp(x - x.max(axis=-1, keepdims=True))
// SETUP:     return e / e.sum(axis=-1, keepdims=True)
// SETUP: def encoder(x, g1, be1, wq, wk, wv, bq, bk, bv, wo, bo, g2, be2, w1, b1, w2, b2):
// SETUP:     x = x.astype(np.float64)
// SETUP:     h = layer_norm(x, g1, be1)
// SETUP:     heads = lambda t: t.reshape(128, 4, 64).transpose(1, 0, 2)
// SETUP:     q, k, v = heads(h @ wq + bq), heads(h @ wk + bk), heads(h @ wv + bv)
// SETUP:     p = softmax(q @ k.transpose(0, 2, 1) / 8.0)
// SETUP:     context = (p @ v).transpose(1, 0, 2).reshape(128, 256)
// SETUP:     y = x + context @ wo + bo
// SETUP:     return y + gelu(layer_norm(y, g2, be2) @ w1 + b1) @ w2 + b2
//
// CASE: encoder
// INPUT: x = rand(128, 256)
// INPUT: g1 = 1.0 + rand(256) * 0.1
// INPUT: be1 = rand(256) * 0.1
// INPUT: wq = rand(256, 256) * 0.1
// INPUT: wk = rand(256, 256) * 0.1
// INPUT: wv = rand(256, 256) * 0.1
// INPUT: bq = rand(256) * 0.1
// INPUT: bk = rand(256) * 0.1
// INPUT: bv = rand(256) * 0.1
// INPUT: wo = rand(256, 256) * 0.06
// INPUT: bo = rand(256) * 0.1
// INPUT: g2 = 1.0 + rand(256) * 0.1
// INPUT: be2 = rand(256) * 0.1
// INPUT: w1 = rand(256, 1024) * 0.06
// INPUT: b1 = rand(1024) * 0.1
// INPUT: w2 = rand(1024, 256) * 0.03
// INPUT: b2 = rand(256) * 0.1
// REFERENCE: encoder(x, g1, be1, wq, wk, wv, bq, bk, bv, wo, bo, g2, be2, w1, b1, w2, b2)
// TOLERANCE: 1e-4

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
#id3 = affine_map<(h, i, j) -> (h, i, j)>

// LayerNorm over the rows of a 128x256 matrix, eps = 1e-5.
func.func private @layer_norm(%x: tensor<128x256xf32>, %gamma: tensor<256xf32>,
                              %beta: tensor<256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<128xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x256xf32>) outs(%z : tensor<128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<128xf32>) outs(%e : tensor<128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %width : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<128x256xf32>, tensor<128xf32>) outs(%z : tensor<128xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %out = tensor.empty() : tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<128x256xf32>, tensor<128xf32>, tensor<128xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%out : tensor<128x256xf32>) {
  ^bb0(%v: f32, %m: f32, %s: f32, %g: f32, %b: f32, %o: f32):
    %var = arith.divf %s, %width : f32
    %ve = arith.addf %var, %eps : f32
    %inv = math.rsqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %n = arith.mulf %d, %inv : f32
    %scaled = arith.mulf %n, %g : f32
    %r = arith.addf %scaled, %b : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}

// x @ w + b for 128 rows.
func.func private @dense(%x: tensor<128x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<128x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %w, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n) : tensor<128x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x?xf32>) -> tensor<128x?xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x?xf32>, tensor<?x?xf32>) outs(%z : tensor<128x?xf32>) -> tensor<128x?xf32>
  %r = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<128x?xf32>, tensor<?xf32>) outs(%e : tensor<128x?xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    linalg.yield %s : f32
  } -> tensor<128x?xf32>
  return %r : tensor<128x?xf32>
}

// 128x256 into 4 heads: 4x128x64.
func.func private @split_heads(%t: tensor<128x256xf32>) -> tensor<4x128x64xf32> {
  %e = tensor.expand_shape %t [[0], [1, 2]] output_shape [128, 4, 64] : tensor<128x256xf32> into tensor<128x4x64xf32>
  %init = tensor.empty() : tensor<4x128x64xf32>
  %h = linalg.transpose ins(%e : tensor<128x4x64xf32>) outs(%init : tensor<4x128x64xf32>) permutation = [1, 0, 2]
  return %h : tensor<4x128x64xf32>
}

func.func @encoder(%x: tensor<128x256xf32>, %g1: tensor<256xf32>, %be1: tensor<256xf32>,
                   %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>,
                   %bq: tensor<256xf32>, %bk: tensor<256xf32>, %bv: tensor<256xf32>,
                   %wo: tensor<256x256xf32>, %bo: tensor<256xf32>,
                   %g2: tensor<256xf32>, %be2: tensor<256xf32>,
                   %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
                   %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32

  // Attention.
  %h = call @layer_norm(%x, %g1, %be1) : (tensor<128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %hd = tensor.cast %h : tensor<128x256xf32> to tensor<128x?xf32>
  %wqd = tensor.cast %wq : tensor<256x256xf32> to tensor<?x?xf32>
  %wkd = tensor.cast %wk : tensor<256x256xf32> to tensor<?x?xf32>
  %wvd = tensor.cast %wv : tensor<256x256xf32> to tensor<?x?xf32>
  %bqd = tensor.cast %bq : tensor<256xf32> to tensor<?xf32>
  %bkd = tensor.cast %bk : tensor<256xf32> to tensor<?xf32>
  %bvd = tensor.cast %bv : tensor<256xf32> to tensor<?xf32>
  %qd = call @dense(%hd, %wqd, %bqd) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %kd = call @dense(%hd, %wkd, %bkd) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %vd = call @dense(%hd, %wvd, %bvd) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %q2 = tensor.cast %qd : tensor<128x?xf32> to tensor<128x256xf32>
  %k2 = tensor.cast %kd : tensor<128x?xf32> to tensor<128x256xf32>
  %v2 = tensor.cast %vd : tensor<128x?xf32> to tensor<128x256xf32>
  %q = call @split_heads(%q2) : (tensor<128x256xf32>) -> tensor<4x128x64xf32>
  %k = call @split_heads(%k2) : (tensor<128x256xf32>) -> tensor<4x128x64xf32>
  %v = call @split_heads(%v2) : (tensor<128x256xf32>) -> tensor<4x128x64xf32>

  %kt_init = tensor.empty() : tensor<4x64x128xf32>
  %kt = linalg.transpose ins(%k : tensor<4x128x64xf32>) outs(%kt_init : tensor<4x64x128xf32>) permutation = [0, 2, 1]
  %s_init = tensor.empty() : tensor<4x128x128xf32>
  %s_zero = linalg.fill ins(%zero : f32) outs(%s_init : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scores = linalg.batch_matmul ins(%q, %kt : tensor<4x128x64xf32>, tensor<4x64x128xf32>)
      outs(%s_zero : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<4x128x128xf32>) outs(%s_init : tensor<4x128x128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %r = arith.mulf %s, %scale : f32
    linalg.yield %r : f32
  } -> tensor<4x128x128xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<4x128x128xf32>)
      outs(%s_init : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %c_init = tensor.empty() : tensor<4x128x64xf32>
  %c_zero = linalg.fill ins(%zero : f32) outs(%c_init : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %ctx = linalg.batch_matmul ins(%probs, %v : tensor<4x128x128xf32>, tensor<4x128x64xf32>)
      outs(%c_zero : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %ct_init = tensor.empty() : tensor<128x4x64xf32>
  %ct = linalg.transpose ins(%ctx : tensor<4x128x64xf32>) outs(%ct_init : tensor<128x4x64xf32>) permutation = [1, 0, 2]
  %merged = tensor.collapse_shape %ct [[0], [1, 2]] : tensor<128x4x64xf32> into tensor<128x256xf32>
  %md = tensor.cast %merged : tensor<128x256xf32> to tensor<128x?xf32>
  %wod = tensor.cast %wo : tensor<256x256xf32> to tensor<?x?xf32>
  %bod = tensor.cast %bo : tensor<256xf32> to tensor<?xf32>
  %attn_d = call @dense(%md, %wod, %bod) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %attn = tensor.cast %attn_d : tensor<128x?xf32> to tensor<128x256xf32>
  %y = arith.addf %x, %attn : tensor<128x256xf32>

  // Feed-forward.
  %h2 = call @layer_norm(%y, %g2, %be2) : (tensor<128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %h2d = tensor.cast %h2 : tensor<128x256xf32> to tensor<128x?xf32>
  %w1d = tensor.cast %w1 : tensor<256x1024xf32> to tensor<?x?xf32>
  %b1d = tensor.cast %b1 : tensor<1024xf32> to tensor<?xf32>
  %up_d = call @dense(%h2d, %w1d, %b1d) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %up = tensor.cast %up_d : tensor<128x?xf32> to tensor<128x1024xf32>
  %g_init = tensor.empty() : tensor<128x1024xf32>
  %gelu = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%up : tensor<128x1024xf32>) outs(%g_init : tensor<128x1024xf32>) {
  ^bb0(%u: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.7978845608 : f32
    %a = arith.constant 0.044715 : f32
    %u2 = arith.mulf %u, %u : f32
    %u3 = arith.mulf %u2, %u : f32
    %au3 = arith.mulf %a, %u3 : f32
    %inner = arith.addf %u, %au3 : f32
    %arg = arith.mulf %c, %inner : f32
    %t = math.tanh %arg : f32
    %onet = arith.addf %one, %t : f32
    %hu = arith.mulf %half, %u : f32
    %r = arith.mulf %hu, %onet : f32
    linalg.yield %r : f32
  } -> tensor<128x1024xf32>
  %gd = tensor.cast %gelu : tensor<128x1024xf32> to tensor<128x?xf32>
  %w2d = tensor.cast %w2 : tensor<1024x256xf32> to tensor<?x?xf32>
  %b2d = tensor.cast %b2 : tensor<256xf32> to tensor<?xf32>
  %down_d = call @dense(%gd, %w2d, %b2d) : (tensor<128x?xf32>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<128x?xf32>
  %down = tensor.cast %down_d : tensor<128x?xf32> to tensor<128x256xf32>
  %out = arith.addf %y, %down : tensor<128x256xf32>
  return %out : tensor<128x256xf32>
}

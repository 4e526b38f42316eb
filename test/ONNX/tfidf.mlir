// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// TfIdfVectorizer: the pool's n-grams become constants (tokens padded to
// the longest n, lengths); one generic counts over (row, n-gram, skip,
// start), another sums counts into output columns by ngram_indexes.
// CHECK-LABEL: func.func @unigrams_and_bigrams
// CHECK-DAG:     %[[TOKENS:.*]] = arith.constant dense<{{\[\[}}2, 0], [3, 0], [5, 0], [4, 0], [5, 6], [7, 8], [6, 7]]> : tensor<7x2xi64>
// CHECK-DAG:     %[[LENGTHS:.*]] = arith.constant dense<[1, 1, 1, 1, 2, 2, 2]> : tensor<7xi64>
// CHECK:         %[[COUNTS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK-SAME:      ins(%[[LENGTHS]], %{{.*}}, %{{.*}} : tensor<7xi64>, tensor<6xi64>, tensor<6xi64>)
// CHECK-SAME:      outs(%{{.*}} : tensor<2x7xf32>)
// CHECK-COUNT-2:   tensor.extract %[[TOKENS]]
// CHECK:         %[[OUT:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[COUNTS]], %{{.*}}, %{{.*}} : tensor<2x7xf32>, tensor<7xi64>, tensor<7xf32>)
// CHECK-SAME:      outs(%{{.*}} : tensor<2x7xf32>)
// CHECK:         return %[[OUT]]
func.func @unigrams_and_bigrams(%x: tensor<2x6xi32>) -> tensor<2x7xf32> {
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 2 : i64, max_skip_count = 5 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = [0, 4], ngram_indexes = [0, 1, 2, 3, 4, 5, 6], pool_int64s = [2, 3, 5, 4, 5, 6, 7, 8, 6, 7]}} : (tensor<2x6xi32>) -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

// -----

// One row: expanded to 1 x L and collapsed back. Unigrams are not counted
// (min_gram_length 2): their length becomes 0. IDF writes the weight of an
// n-gram that occurs.
// CHECK-LABEL: func.func @one_row_idf
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xi64> into tensor<1x5xi64>
// CHECK:         arith.constant dense<{{\[\[}}0, 0], [1, 2]]> : tensor<2x2xi64>
// CHECK:         arith.constant dense<[0, 2]> : tensor<2xi64>
// CHECK:         arith.constant dense<[2.500000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK:         arith.cmpf ogt
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<1x2xf32> into tensor<2xf32>
func.func @one_row_idf(%x: tensor<5xi64>) -> tensor<2xf32> {
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "IDF", ngram_counts = [0, 1], ngram_indexes = [0, 1], pool_int64s = [4, 1, 2], weights = [2.5 : f32, 0.5 : f32]}} : (tensor<5xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @strings(%x: tensor<5xi64>) -> tensor<1xf32> {
  // expected-error @+1 {{node (TfIdfVectorizer, opset 9): its pool is of strings (pool_strings); Kiln reads integer tokens (pool_int64s)}}
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = [0], ngram_indexes = [0], pool_strings = ["a"]}} : (tensor<5xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @ragged_pool(%x: tensor<5xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{node (TfIdfVectorizer, opset 9): ngram_counts entry 1 (1) does not start a whole number of 2-grams in pool_int64s (4 items)}}
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = [0, 1], ngram_indexes = [0, 1], pool_int64s = [4, 1, 2, 3]}} : (tensor<5xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_mode(%x: tensor<5xi64>) -> tensor<1xf32> {
  // expected-error @+1 {{node (TfIdfVectorizer, opset 9): mode 'BM25' is none of 'TF', 'IDF' and 'TFIDF'}}
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "BM25", ngram_counts = [0], ngram_indexes = [0], pool_int64s = [4]}} : (tensor<5xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @indexes_mismatch(%x: tensor<5xi64>) -> tensor<1xf32> {
  // expected-error @+1 {{node (TfIdfVectorizer, opset 9): ngram_indexes has 1 entries for 2 n-grams in the pool}}
  %0 = onnx.node "TfIdfVectorizer"(%x) {opset = 9 : i64, onnx_attrs = {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = [0], ngram_indexes = [0], pool_int64s = [4, 5]}} : (tensor<5xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

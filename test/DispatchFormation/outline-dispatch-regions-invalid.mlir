// RUN: kiln-opt %s --kiln-outline-dispatch-regions -verify-diagnostics

func.func @memref_capture(%m: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{uses a value of type 'memref<4xf32>' from outside the dispatch; dispatches take ranked tensors without encodings and integer, index or float scalars}}
  %r = kiln.dispatch.region -> (tensor<4xf32>) {
    %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
    kiln.return %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

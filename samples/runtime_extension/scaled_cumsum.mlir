// A program that calls a host function a runtime extension provides
// (demo_extension.c) between two dispatches: (x * x) scanned by
// demo.scaled_cumsum, plus x.
//
//   kiln-compile scaled_cumsum.mlir -o scaled_cumsum.so
//   kiln-run scaled_cumsum.so --runtime-extension=./libdemo_extension.so \
//       --input=4xf32=1,2,3,4 --input=f32=0.5
func.func @main(%x: tensor<?xf32>, %scale_tensor: tensor<f32>)
    -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %scale = tensor.extract %scale_tensor[] : tensor<f32>
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %empty = tensor.empty(%n) : tensor<?xf32>
  %squares = linalg.mul ins(%x, %x : tensor<?xf32>, tensor<?xf32>)
      outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  %scanned = kiln.call_extern "demo.scaled_cumsum"(%squares, %scale)
      : (tensor<?xf32>, f32) -> tensor<?xf32> dims(%n)
  %sum = linalg.add ins(%scanned, %x : tensor<?xf32>, tensor<?xf32>)
      outs(%empty : tensor<?xf32>) -> tensor<?xf32>
  return %sum : tensor<?xf32>
}

// samples/custom_dispatch/saxpy.mlir with the kernel a runtime extension
// provides ("demo.saxpy", samples/custom_dispatch/saxpy_extension.c)
// instead of an object file.
func.func @saxpy(%a_tensor: tensor<f32>, %x: tensor<?xf32>, %y: tensor<?xf32>)
    -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %a = tensor.extract %a_tensor[] : tensor<f32>
  %axpy = kiln.external_dispatch "demo.saxpy" [%n](%x, %y, %a, %n)
      : (tensor<?xf32>, tensor<?xf32>, f32, index) -> tensor<?xf32>{%n}
      workgroups(%w: index) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %per_workgroup = arith.constant 4096 : index
    %count = arith.ceildivui %w, %per_workgroup : index
    kiln.return %count, %c1, %c1 : index, index, index
  }
  return %axpy : tensor<?xf32>
}

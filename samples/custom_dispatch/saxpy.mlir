// A program whose dispatch is a hand-written kernel (saxpy_kernel.c),
// followed by one Kiln compiles: relu(a * x + y).
//
//   cc -c -O2 -fPIC -I<kiln>/runtime/include saxpy_kernel.c -o saxpy_kernel.o
//   kiln-compile saxpy.mlir -o saxpy.so     # in the folder of saxpy_kernel.o
//   kiln-run saxpy.so --input=f32=2 --input=3xf32=1,-2,3 --input=3xf32=1,1,1
//
// The kernel's bindings are the tensor operands, then the results; its
// constants the scalar operands, in order; its workgroup count what the
// `workgroups` region makes of the workload (here [n]).
func.func @saxpy_relu(%a_tensor: tensor<f32>, %x: tensor<?xf32>,
                      %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %a = tensor.extract %a_tensor[] : tensor<f32>
  %axpy = kiln.external_dispatch "saxpy_kernel" object("saxpy_kernel.o")
      [%n](%x, %y, %a, %n)
      : (tensor<?xf32>, tensor<?xf32>, f32, index) -> tensor<?xf32>{%n}
      workgroups(%w: index) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %per_workgroup = arith.constant 4096 : index
    %count = arith.ceildivui %w, %per_workgroup : index
    kiln.return %count, %c1, %c1 : index, index, index
  }
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty(%n) : tensor<?xf32>
  %relu = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%axpy : tensor<?xf32>) outs(%empty : tensor<?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %relu : tensor<?xf32>
}

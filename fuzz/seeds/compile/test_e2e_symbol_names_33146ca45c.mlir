// Functions may have any name, including those of the module's own
// symbols and of the C library (NamespaceHostFunctions): `malloc` used to
// fail to compile, `kiln_entry_0` and `kiln_module_info` clashed with the
// entry points and metadata, `_mlir_ciface_f` vanished from the module,
// and a `free` that the module calls would have replaced the C library's.

func.func @malloc(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.exp ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @free(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.negf ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @kiln_entry_0(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.abs ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @kiln_module_info(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.mul ins(%a, %a : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @_mlir_ciface_f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%a, %a : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// Calls between them, with buffers the module allocates and frees.
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %x = call @malloc(%a) : (tensor<64xf32>) -> tensor<64xf32>
  %y = call @free(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %z = call @kiln_entry_0(%y) : (tensor<64xf32>) -> tensor<64xf32>
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.add ins(%z, %a : tensor<64xf32>, tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

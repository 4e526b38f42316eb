// RUN: kiln-opt %s -split-input-file -verify-diagnostics

kiln.executable private @stray_op {
  // expected-error @+1 {{is not allowed in a kiln.executable (expected kiln.executable.export, builtin.module or kiln.executable.variant)}}
  func.func @fn() {
    return
  }
}

// -----

// expected-error @+1 {{mixes target variants with source exports and modules; use one form or the other}}
kiln.executable private @mixed {
  kiln.executable.variant public @v target(#kiln.target<"llvm-cpu">) {
  }
  builtin.module {
  }
}

// -----

// expected-error @+1 {{in source form needs exactly one builtin.module, found 0}}
kiln.executable private @no_module {
  kiln.executable.export public @fn workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    kiln.return %c1, %c1, %c1 : index, index, index
  }
}

// -----

kiln.executable private @unimplemented_export {
  // expected-error @+1 {{has no function @fn in the executable's module}}
  kiln.executable.export public @fn workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    kiln.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
  }
}

// -----

kiln.executable private @two_modules {
  // expected-error @+1 {{holds 2 modules; a variant has at most one}}
  kiln.executable.variant public @v target(#kiln.target<"llvm-cpu">) {
    builtin.module {
    }
    builtin.module {
    }
  }
}

// -----

kiln.executable private @bad_workload {
  // expected-error @+1 {{workload arguments must be index, argument #0 is 'i32'}}
  kiln.executable.export public @fn workgroups(%w: i32) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    kiln.return %c1, %c1, %c1 : index, index, index
  }
  builtin.module {
    func.func @fn() {
      return
    }
  }
}

// -----

kiln.executable private @bad_count_syntax {
  // expected-error @+1 {{workgroup count must be (index, index, index)}}
  kiln.executable.export public @fn workgroups(%w: index) -> (index, index) {
    kiln.return %w, %w : index, index
  }
}

// -----

kiln.executable private @bad_count {
  kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
    // expected-error @+1 {{in a workgroup count region must return three index values (x, y, z)}}
    kiln.return %w, %w : index, index
  }
  builtin.module {
    func.func @fn() {
      return
    }
  }
}

// -----

func.func @region_return_mismatch(%a: tensor<4xf32>) -> tensor<8xf32> {
  %r = kiln.dispatch.region -> (tensor<8xf32>) {
    // expected-error @+1 {{returns 'tensor<4xf32>' but the dispatch region yields 'tensor<8xf32>'}}
    kiln.return %a : tensor<4xf32>
  }
  return %r : tensor<8xf32>
}

// -----

func.func @region_missing_dims(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{results have 1 dynamic dimensions but 0 were given}}
  %r = kiln.dispatch.region -> (tensor<?xf32>) {
    kiln.return %a : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

func.func @unknown_executable(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{refers to @nowhere, which is not a kiln.executable}}
  %r = kiln.dispatch @nowhere::@fn(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

kiln.executable private @ex {
  kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload(%w)
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn() {
      return
    }
  }
}

func.func @unknown_export(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{refers to export @other, which @ex does not have}}
  %r = kiln.dispatch @ex::@other[%c4](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%w)
      kiln.return %x, %y, %z : index, index, index
    }
  }
  kiln.executable.variant public @other target(#kiln.target<"other">) {
  }
}

func.func @export_missing_in_a_variant(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{refers to export @fn, which @ex (variant @other) does not have}}
  %r = kiln.dispatch @ex::@fn[%c4](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

kiln.executable private @ex {
  kiln.executable.export public @fn workgroups(%w: index) -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload(%w)
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn() {
      return
    }
  }
}

func.func @workload_mismatch(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{passes 2 workload values but export @fn takes 1}}
  %r = kiln.dispatch @ex::@fn[%c4, %c4](%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @flat_entry_point(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{entry point must be @executable::@export, got @ex}}
  %r = kiln.dispatch @ex(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @memref_operand(%a: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 must be a ranked tensor or a scalar, got 'memref<4xf32>'}}
  %r = kiln.dispatch @ex::@fn(%a) : (memref<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @dispatch_missing_dims(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{results have 1 dynamic dimensions but 0 were given}}
  %r = kiln.dispatch @ex::@fn(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @strided_binding() {
  // expected-error @+1 {{binding must have an identity layout, got 'memref<4xf32, strided<[2]>>'}}
  %b = kiln.dispatch.binding 0 : memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @binding_dims(%d: index) {
  // expected-error @+1 {{type 'memref<?x?xf32>' has 2 dynamic dimensions but 1 were given}}
  %b = kiln.dispatch.binding 0 : memref<?x?xf32>{%d}
  return
}

// -----

// expected-error @+1 {{'kiln.workgroup_scratch_bytes' must be a non-negative integer on a function or a kiln.executable.export, got -1 : i64}}
func.func private @negative_scratch() attributes {kiln.workgroup_scratch_bytes = -1 : i64}

// -----

// expected-error @+1 {{'kiln.host_arena' must be [arena bytes, bytes apart], two non-negative integers, on a function, got array<i64: 64>}}
func.func private @short_arena() attributes {kiln.host_arena = array<i64: 64>}

// -----

// expected-error @+1 {{'kiln.host_arena' must be [arena bytes, bytes apart], two non-negative integers, on a function, got array<i64: -1, 64>}}
func.func private @negative_arena() attributes {kiln.host_arena = array<i64: -1, 64>}

// -----

func.func @dynamic_scratch() {
  // expected-error @+1 {{scratch must be a memref<Nxi8> of static size with an identity layout, got 'memref<?xi8>'}}
  %s = kiln.workgroup.scratch : memref<?xi8>
  return
}

// -----

func.func @scratch_of_floats() {
  // expected-error @+1 {{result #0 must be memref of 8-bit signless integer values}}
  %s = kiln.workgroup.scratch : memref<16xf32>
  return
}

// -----

func.func @scratch_2d() {
  // expected-error @+1 {{scratch must be a memref<Nxi8> of static size with an identity layout, got 'memref<4x4xi8>'}}
  %s = kiln.workgroup.scratch : memref<4x4xi8>
  return
}

// -----

// expected-error @+1 {{unknown lowering config key 'tiles' (expected pipeline, workgroup, cache, register or vector)}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "p", tiles = [1]>}

// -----

// expected-error @+1 {{lowering config needs a 'pipeline'}}
func.func private @f() attributes {x = #kiln.lowering_config<workgroup = [1]>}

// -----

// expected-error @+1 {{'cache' given more than once}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "p", cache = [1], cache = [2]>}

// -----

// expected-error @+1 {{lowering config 'register' sizes must be between 0 and 2147483647, got -8}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "p", register = [-8]>}

// -----

// Sizes past 2^31 - 1 could overflow tile arithmetic.
// expected-error @+1 {{lowering config 'vector' sizes must be between 0 and 2147483647, got 4294967296}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "p", register = [8], vector = [4294967296]>}

// -----

// expected-error @+1 {{lowering config 'register' has 1 sizes but 'workgroup' has 2; every level needs one size per loop}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "p", workgroup = [1, 2], register = [8]>}

// -----

// expected-error @+1 {{lowering config pipeline must not be empty}}
func.func private @f() attributes {x = #kiln.lowering_config<pipeline = "">}

// -----

func.func @config_loop_count(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{'linalg.matmul' op lowering config 'workgroup' has 2 sizes but the op has 3 loops}}
  %0 = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "p", workgroup = [4, 16]>}
      ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

func.func @config_on_scalar_op(%a: f32) -> f32 {
  // expected-error @+1 {{carries 'kiln.lowering_config' but has no iteration space to tile (it does not implement TilingInterface)}}
  %0 = arith.addf %a, %a {kiln.lowering_config = #kiln.lowering_config<pipeline = "p">} : f32
  return %0 : f32
}

// -----

func.func @config_wrong_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'kiln.lowering_config' must be a #kiln.lowering_config, got 4 : i64}}
  %0 = linalg.copy {kiln.lowering_config = 4} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @+1 {{has unknown kiln attribute 'kiln.lowering_confg' (known: 'kiln.lowering_config', 'kiln.target', 'kiln.flops', 'kiln.signature', 'kiln.input_names', 'kiln.output_names', 'kiln.export_name', 'kiln.imports', 'kiln.claimed_by', 'kiln.plugins', 'kiln.objects', 'kiln.tuning_spec_version', 'kiln.tuning_spec_entrypoint', 'kiln.tuning_spec_extends', 'kiln.tuning_spec_source', 'kiln.configured_by', 'kiln.tuning_library', 'kiln.workgroup_scratch_bytes', 'kiln.host_arena', 'kiln.object_code', 'kiln.object_cache_key', 'kiln.phase', 'kiln.root_op', 'kiln.dispatch_id', 'kiln.dispatch_table', 'kiln.variant_targets', 'kiln.externs')}}
func.func private @typo() attributes {kiln.lowering_confg = 1}

// -----

// expected-error @+1 {{target backend name must not be empty}}
func.func private @f() attributes {x = #kiln.target<"">}

// -----

// expected-error @+1 {{target configuration key 'cpu' must be a string, got 5 : i64}}
func.func private @f() attributes {x = #kiln.target<"llvm-cpu", {cpu = 5}>}

// -----

// expected-error @+1 {{'kiln.target' must be a #kiln.target, got "znver4"}}
module attributes {kiln.target = "znver4"} {
}

// -----

// expected-error @+1 {{'kiln.flops' must be a non-negative integer, got -1 : i64}}
func.func private @f() attributes {kiln.flops = -1}

// -----

// expected-error @+1 {{'kiln.signature' must be a function type, got i32}}
func.func private @f() attributes {kiln.signature = i32}

// -----

// expected-error @+1 {{'kiln.root_op' must be a string on a kiln.executable, got "linalg.matmul 1x2x3 f32"}}
func.func private @f() attributes {kiln.root_op = "linalg.matmul 1x2x3 f32"}

// -----

// expected-error @+1 {{'kiln.dispatch_id' must be an integer from 0 to 2^32 - 1 on a kiln.launch, got 0 : i64}}
func.func private @f() attributes {kiln.dispatch_id = 0}

// -----

func.func @dispatch_id(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'kiln.dispatch_id' must be an integer from 0 to 2^32 - 1 on a kiln.launch, got 4294967296 : i64}}
  kiln.launch @ex::@k workgroups(%c1, %c1, %c1) outs(%a : memref<4xf32>) {kiln.dispatch_id = 4294967296 : i64}
  return
}

// -----

// expected-error @+1 {{'kiln.dispatch_table' must be an array of {name, root, flops, bytes} dictionaries on a module, got [{flops = 1 : i64, name = "d", root = "? ? ?"}]}}
module attributes {kiln.dispatch_table = [{name = "d", root = "? ? ?", flops = 1}]} {
}

// -----

// expected-error @+1 {{'kiln.dispatch_table' must be an array of {name, root, flops, bytes} dictionaries on a module, got [{bytes = -1 : i64, flops = 1 : i64, name = "d", root = "? ? ?"}]}}
module attributes {kiln.dispatch_table = [{name = "d", root = "? ? ?", flops = 1, bytes = -1}]} {
}

// -----

func.func @check_type(%a: tensor<4xi4>) {
  // expected-error @+1 {{'kiln.check' op checks ranked tensors, memrefs or scalars of i1, i8, i16, i32, i64, f16, bf16, f32 or f64, got 'tensor<4xi4>'}}
  kiln.check true(%a) : tensor<4xi4>
  return
}

// -----

func.func @check_arity(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.check' op 'eq' takes two operands}}
  kiln.check eq(%a) : tensor<4xf32>
  return
}

// -----

func.func @check_unary(%a: tensor<4xi32>) {
  // expected-error @+1 {{'kiln.check' op 'true' takes one operand}}
  kiln.check true(%a, %a) : tensor<4xi32>, tensor<4xi32>
  return
}

// -----

func.func @check_mixed(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'kiln.check' op compares values of one element type, got 'tensor<4xf32>' and 'tensor<4xf16>'}}
  kiln.check eq(%a, %b) : tensor<4xf32>, tensor<4xf16>
  return
}

// -----

func.func @check_almost_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'kiln.check' op 'almost_eq' compares floats, got 'tensor<4xi32>'}}
  kiln.check almost_eq(%a, %a) : tensor<4xi32>, tensor<4xi32>
  return
}

// -----

func.func @check_tolerance(%a: tensor<4xf32>) {
  // expected-error @+1 {{'kiln.check' op tolerances must not be negative}}
  kiln.check almost_eq(%a, %a) {atol = -1.0 : f32} : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{object file path must not be empty}}
func.func private @f() attributes {x = #kiln.object<"">}

// -----

// expected-error @+1 {{'kiln.objects' must be an array of #kiln.object on a module or an executable, got ["a.o"]}}
module attributes {kiln.objects = ["a.o"]} {
}

// -----

// expected-error @+1 {{'kiln.objects' must be an array of #kiln.object on a module or an executable}}
func.func private @f() attributes {kiln.objects = [#kiln.object<"a.o">]}

// -----

kiln.executable private @objects_not_objects {
  // expected-error @+1 {{attribute 'objects' failed to satisfy constraint: array of #kiln.object}}
  kiln.executable.variant public @v target(#kiln.target<"llvm-cpu">) attributes {objects = ["a.o"]} {
  }
}

// -----

func.func @alloc_sizes(%ctx: !llvm.ptr, %n: index) {
  // expected-error @+1 {{'kiln.alloc' op takes one size per dynamic dimension of 'memref<?x?xf32>' (2), got 1}}
  %b = kiln.alloc(%n) runtime(%ctx : !llvm.ptr) : memref<?x?xf32>
  return
}

// -----

func.func @alloc_layout(%ctx: !llvm.ptr) {
  // expected-error @+1 {{'kiln.alloc' op allocates buffers of identity layout, got 'memref<4xf32, strided<[2]>>'}}
  %b = kiln.alloc() runtime(%ctx : !llvm.ptr) : memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @alloc_alignment(%ctx: !llvm.ptr) {
  // expected-error @+1 {{'kiln.alloc' op alignment must be a power of two, got 48}}
  %b = kiln.alloc() runtime(%ctx : !llvm.ptr) {alignment = 48 : i64} : memref<4xf32>
  return
}

// -----

// expected-error @+1 {{'kiln.object_code' must be a dense resource of bytes on a kiln.executable.variant, or an array of them on a module, got "bytes"}}
module attributes {kiln.object_code = "bytes"} {
}

// -----

// expected-error @+1 {{'kiln.phase' must be a string on a module, got 3 : i64}}
module attributes {kiln.phase = 3} {
}

// -----

kiln.executable private @ex {
  // expected-error @+1 {{'kiln.object_cache_key' must be a string on a kiln.executable.variant, got 1 : i64}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) attributes {kiln.object_cache_key = 1} {
  }
}

// -----

// expected-error @+1 {{'kiln.tuning_spec_extends' must be a string on a module, got 3}}
module attributes {kiln.tuning_spec_extends = 3} {
}

// -----

func.func @bad_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{callee 'demo scale' must be letters, digits, '_', '.' and '-'}}
  %y = kiln.call_extern "demo scale"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @missing_dims(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{takes one dim per dynamic dim of its results (1), got 0}}
  %y = kiln.call_extern "demo.scale"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

func.func @bad_operand(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{operand #0 has type 'tensor<4xcomplex<f32>>'; the runtime passes i1, i8, i16, i32, i64, index, f16, bf16, f32 and f64 elements}}
  kiln.call_extern "demo.scale"(%x) : (tensor<4xcomplex<f32>>) -> ()
  return
}

// -----

func.func @bad_kernel_callee(%m: memref<4xf32>) {
  // expected-error @+1 {{callee '' must be letters, digits, '_', '.' and '-'}}
  kiln.call_kernel_extern ""(%m) : memref<4xf32>
  return
}

// -----

// expected-error @+1 {{'kiln.externs' must be an array of {name, kind = "host" or "kernel", signature} on a module, an executable or a variant, got [{kind = "device", name = "x", signature = "()->()"}]}}
module attributes {kiln.externs = [{name = "x", kind = "device", signature = "()->()"}]} {
}

// -----

// expected-error @+1 {{'kiln.variant_targets' lists #kiln.target<"llvm-cpu", {cpu = "znver4"}> twice}}
module attributes {kiln.variant_targets = [#kiln.target<"llvm-cpu", {cpu = "znver4"}>, #kiln.target<"llvm-cpu", {cpu = "znver4"}>]} {
}

// -----

func.func @external_workload(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  // expected-error @+1 {{workgroups region takes one index per workload value (1), got 2 arguments}}
  %y = kiln.external_dispatch "k" object("k.o") [%n](%x) : (tensor<4xf32>) -> tensor<4xf32>
      workgroups(%a: index, %b: index) -> (index, index, index) {
    kiln.return %a, %a, %b : index, index, index
  }
  return %y : tensor<4xf32>
}

// -----

func.func @external_kernel_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{kernel 'my.kernel' must be a symbol of letters, digits and '_'}}
  %y = kiln.external_dispatch "my.kernel" object("k.o") (%x) : (tensor<4xf32>) -> tensor<4xf32>
      workgroups() -> (index, index, index) {
    %c1 = arith.constant 1 : index
    kiln.return %c1, %c1, %c1 : index, index, index
  }
  return %y : tensor<4xf32>
}

// -----

func.func @assert_without_message(%ok: i1) {
  // expected-error @+1 {{'kiln.assert' op needs a message saying what failed}}
  kiln.assert %ok, ""
  return
}

// -----

func.func @assert_placeholder(%ok: i1, %n: index) {
  // expected-error @+1 {{'kiln.assert' op message refers to {1}, but 1 values are given}}
  kiln.assert %ok, "{0} is not {1}" (%n : index)
  return
}

// -----

kiln.executable private @assert_in_kernel {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "generic"}>) {
    kiln.executable.export public @fn workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @fn(%ok: i1) {
        // expected-error @+1 {{'kiln.assert' op runs on the host: a kernel cannot end the call}}
        kiln.assert %ok, "never"
        return
      }
    }
  }
}

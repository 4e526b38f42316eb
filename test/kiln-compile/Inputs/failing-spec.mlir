// A transform script that fails: the matmuls have no scf.for around them.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %mm, "matched" : !transform.any_op
    %parent = transform.get_parent_op %mm {op_name = "scf.for"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

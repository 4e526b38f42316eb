// A transform script for --kiln-preprocessing-transform-spec: tags every
// linalg.batch_matmul of the program.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.batch_matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %mm "spec_was_here" : !transform.any_op
    transform.yield
  }
}

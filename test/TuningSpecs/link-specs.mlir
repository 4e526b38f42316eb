// RUN: kiln-opt %s --kiln-link-tuning-specs | FileCheck %s
// RUN: kiln-opt %s --kiln-link-tuning-specs | kiln-opt --kiln-verify-tuning-spec

// Two specs with clashing symbol names link into one: the second spec's
// symbols are renamed (and its uses follow), every named sequence says
// where it came from, and one entry point runs the user's spec first.

// CHECK:      module attributes {kiln.tuning_spec_version = 1 : i64, transform.with_named_sequence} {
// CHECK:        transform.named_sequence @match(
// CHECK-SAME:     kiln.tuning_spec_source = "user"
// CHECK:        transform.named_sequence @set(
// CHECK-SAME:     kiln.tuning_spec_source = "user"
// CHECK:        transform.named_sequence @entry(
// CHECK-SAME:     kiln.tuning_spec_source = "user"
// CHECK-NOT:      kiln.tuning_spec_entrypoint
// CHECK:          transform.foreach_match in
// CHECK-NEXT:       @match -> @set :
// CHECK:        transform.named_sequence @match_1(
// CHECK-SAME:     kiln.tuning_spec_source = "default"
// CHECK:        transform.named_sequence @set_1(
// CHECK:        transform.named_sequence @tune(
// CHECK:          transform.foreach_match in
// CHECK-NEXT:       @match_1 -> @set_1 :
// CHECK:        transform.named_sequence @__kiln_tuning_library_entry(%[[ROOT:.+]]: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
// CHECK:          %[[H0:.+]] = transform.include @entry failures(propagate) (%[[ROOT]])
// CHECK:          %[[H1:.+]] = transform.include @tune failures(propagate) (%[[H0]])
// CHECK:          transform.yield %[[H1]]

module {
  module @user attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
    transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
      transform.kiln.match.contraction %op {m = 1024, n = 1024, k = 1024} : !transform.any_op
      transform.yield %op : !transform.any_op
    }
    transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
      transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [32, 256, 0]>) : !transform.any_op
      transform.yield
    }
    transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
      %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
      transform.yield %r : !transform.any_op
    }
  }
  module @default attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
    transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
      transform.kiln.match.contraction %op : !transform.any_op
      transform.yield %op : !transform.any_op
    }
    transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
      transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0]>) : !transform.any_op
      transform.yield
    }
    transform.named_sequence @tune(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
      %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
      transform.yield %r : !transform.any_op
    }
  }
}

// RUN: kiln-opt %s --kiln-verify-tuning-spec --split-input-file -verify-diagnostics

// A good spec: no diagnostics.
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [1024]} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

// expected-error @below {{is not a tuning spec: the module has no 'kiln.tuning_spec_version' (this Kiln reads format version 1)}}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

// expected-error @below {{is written in tuning spec format version 2; this Kiln reads version 1}}
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 2 : i64} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

// expected-error @below {{has no entry point: tag one transform.named_sequence with 'kiln.tuning_spec_entrypoint'}}
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  // expected-note @below {{the first one}}
  transform.named_sequence @one(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
  // expected-error @below {{is a second entry point of the spec; a spec has one}}
  transform.named_sequence @two(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  // expected-error @below {{is the spec's entry point, so its signature must be (!transform.any_op {transform.consumed}) -> !transform.any_op, not '(!transform.any_op) -> ()' (its argument is not consumed)}}
  transform.named_sequence @entry(%root: !transform.any_op {transform.readonly}) attributes {kiln.tuning_spec_entrypoint} {
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @m(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @a(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  // expected-error @below {{its signature must be (!transform.any_op {transform.consumed}) -> !transform.any_op, not '(!transform.any_op, !transform.any_op) -> !transform.any_op'}}
  transform.named_sequence @entry(%root: !transform.any_op {transform.consumed}, %other: !transform.any_op {transform.readonly}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @m -> @a : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}

// -----

// expected-error @below {{'kiln.tuning_spec_version' must be an integer on a module, got "1"}}
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = "1"} {
}

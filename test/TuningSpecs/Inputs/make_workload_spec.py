"""Writes a tuning spec that sets one workload's config, from the output of
`kiln-tune dispatches`: argv[1] that output, argv[2] the executable whose
key to match, argv[3] the spec to write, argv[4] (optional) the key to use
instead (to test a key that matches nothing, or a malformed one)."""
import re
import sys

listing = open(sys.argv[1]).read()
match = re.search(re.escape(sys.argv[2]) + r": .*\n  key: (\S+)", listing)
key = sys.argv[4] if len(sys.argv) > 4 else match.group(1)
config = ('#kiln.lowering_config<pipeline = "cpu-convolution", '
          'workgroup = [1, 7, 14, 32, 0, 0, 0], cache = [1, 1, 14, 16, 0, 0, 0], '
          'register = [1, 1, 4, 16, 1, 1, 1]>')
open(sys.argv[3], "w").write(f"""
module attributes {{transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64}} {{
  transform.named_sequence @match(%op: !transform.any_op {{transform.readonly}}) -> !transform.any_op {{
    transform.kiln.match.convolution %op {{output_channels = 32}} : !transform.any_op
    transform.kiln.match.workload %op {{key = "{key}"}} : !transform.any_op
    transform.yield %op : !transform.any_op
  }}
  transform.named_sequence @set(%op: !transform.any_op {{transform.readonly}}) {{
    transform.kiln.set_lowering_config %op ({config}) : !transform.any_op
    transform.yield
  }}
  transform.named_sequence @tune(%root: !transform.any_op {{transform.consumed}}) -> !transform.any_op attributes {{kiln.tuning_spec_entrypoint}} {{
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }}
}}
""")

//===- SpecWriter.cpp - Tuning specs of tuned workloads -------------------===//

#include "kiln/Tuner/SpecWriter.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

std::string kiln::writeTuningSpec(const std::vector<SpecEntry> &entries,
                                  const std::vector<std::string> &header) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const std::string &line : header)
    os << "// " << line << "\n";
  os << "module attributes {transform.with_named_sequence, "
        "kiln.tuning_spec_version = 1 : i64} {\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    const SpecEntry &entry = entries[i];
    std::string op = entry.workload.substr(0, entry.workload.find(' '));
    os << "  // " << entry.workload << ": " << entry.comment << "\n";
    os << "  transform.named_sequence @match_" << i
       << "(%op: !transform.any_op {transform.readonly}) -> "
          "!transform.any_op {\n";
    os << "    transform.match.operation_name %op [\"" << op
       << "\"] : !transform.any_op\n";
    os << "    transform.kiln.match.workload %op {key = \"" << entry.key
       << "\"} : !transform.any_op\n";
    os << "    transform.yield %op : !transform.any_op\n  }\n";
    os << "  transform.named_sequence @set_" << i
       << "(%op: !transform.any_op {transform.readonly}) {\n";
    os << "    transform.kiln.set_lowering_config %op (" << entry.config
       << ") : !transform.any_op\n";
    os << "    transform.yield\n  }\n";
  }
  os << "  transform.named_sequence @tune(%root: !transform.any_op "
        "{transform.consumed}) -> !transform.any_op attributes "
        "{kiln.tuning_spec_entrypoint} {\n";
  if (entries.empty()) {
    // The entry point must consume its handle; foreach_match needs a
    // matcher, so an empty spec has one that matches nothing.
    os << "    %r = transform.foreach_match in %root\n"
          "        @match_nothing -> @set_nothing\n"
          "        : (!transform.any_op) -> !transform.any_op\n"
          "    transform.yield %r : !transform.any_op\n  }\n"
          "  transform.named_sequence @match_nothing(%op: !transform.any_op "
          "{transform.readonly}) -> !transform.any_op {\n"
          "    transform.match.operation_name %op [\"kiln.nothing_tuned\"] "
          ": !transform.any_op\n"
          "    transform.yield %op : !transform.any_op\n  }\n"
          "  transform.named_sequence @set_nothing(%op: !transform.any_op "
          "{transform.readonly}) {\n    transform.yield\n  }\n}\n";
    return text;
  }
  os << "    %r = transform.foreach_match in %root";
  for (size_t i = 0; i < entries.size(); ++i)
    os << (i ? ",\n        " : "\n        ") << "@match_" << i << " -> @set_"
       << i;
  os << "\n        : (!transform.any_op) -> !transform.any_op\n";
  os << "    transform.yield %r : !transform.any_op\n  }\n}\n";
  return text;
}

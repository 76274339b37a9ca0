#include "graph/operator_uid.h"

#include <fmt/format.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "eddy/exceptions.h"
#include "graph/job_graph.h"

namespace eddy::graph {

using runtime::Transformation;

namespace {

// Names, not the enums' numbers, go into the hash, so reordering an enum keeps every uid.
const char* kindName(Transformation::Kind kind) {
  switch (kind) {
    case Transformation::Kind::SOURCE: return "SOURCE";
    case Transformation::Kind::ONE_INPUT: return "ONE_INPUT";
    case Transformation::Kind::TWO_INPUT: return "TWO_INPUT";
    case Transformation::Kind::UNION: return "UNION";
    case Transformation::Kind::PARTITION: return "PARTITION";
    case Transformation::Kind::SINK: return "SINK";
  }
  return "?";
}

/// Appends `field` length-prefixed ("5:hello"), so that no two field lists give equal bytes.
void appendField(std::string& bytes, std::string_view field) {
  bytes += std::to_string(field.size());
  bytes += ':';
  bytes += field;
}

/// The bytes a derived uid hashes (operator_uid.h lists them).
std::string identityOf(const Transformation& node, const std::vector<UidInput>& inputs) {
  std::string bytes;
  appendField(bytes, kindName(node.kind));
  appendField(bytes, node.name);
  appendField(bytes, node.description);
  for (size_t position = 0; position < inputs.size(); ++position) {
    const UidInput& input = inputs[position];
    appendField(bytes, std::to_string(position));
    appendField(bytes, std::to_string(input.inputIndex));
    appendField(bytes, input.partitionKind ? shipStrategyName(*input.partitionKind) : "DEFAULT");
    appendField(bytes, input.partitionDescription);
    appendField(bytes, input.upstreamUid);
  }
  return bytes;
}

std::string hexHash(const std::string& bytes) {
  return fmt::format("{:016x}", XXH3_64bits(bytes.data(), bytes.size()));
}

}  // namespace

OperatorUidAssigner::OperatorUidAssigner(const std::vector<const Transformation*>& physical) {
  for (const Transformation* node : physical) {
    if (node->uid.empty()) continue;
    if (!used_.insert(node->uid).second) {
      throw ValidationException("Hash collision on user-specified ID \"" + node->uid +
                                "\". Most likely cause is a non-unique ID. Please check that all "
                                "IDs specified via `uid(String)` are unique.");
    }
  }
}

std::string OperatorUidAssigner::assign(const Transformation& node,
                                        const std::vector<UidInput>& inputs) {
  if (!node.uid.empty()) return node.uid;
  const std::string identity = identityOf(node, inputs);
  std::string uid = hexHash(identity);
  // An equal operator came earlier in the job: the counter makes this one's uid its own.
  for (int attempt = 1; !used_.insert(uid).second; ++attempt) {
    std::string disambiguated = identity;
    appendField(disambiguated, std::to_string(attempt));
    uid = hexHash(disambiguated);
  }
  return uid;
}

}  // namespace eddy::graph

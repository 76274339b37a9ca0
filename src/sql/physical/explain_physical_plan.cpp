// EXPLAIN's "Physical Plan" (translator.h, explainPhysicalPlan): the translated
// transformations printed from the job's last one up, one line each (its description, else its
// name; an exchange by its distribution), each input indented below its consumer.
#include "sql/physical/translator.h"

namespace eddy::sql {

namespace {

std::string distributionName(runtime::PartitionKind kind) {
  switch (kind) {
    case runtime::PartitionKind::FORWARD:
      return "forward";
    case runtime::PartitionKind::REBALANCE:
      return "rebalance";
    case runtime::PartitionKind::SHUFFLE:
      return "shuffle";
    case runtime::PartitionKind::BROADCAST:
      return "broadcast";
    case runtime::PartitionKind::HASH:
      return "hash";
  }
  return "?";
}

void explainTransformation(const runtime::Transformation& transformation, int depth,
                           std::string& text) {
  text.append(2 * static_cast<size_t>(depth), ' ');
  if (!transformation.description.empty()) {
    text += transformation.description;
  } else {
    switch (transformation.kind) {
      case runtime::Transformation::Kind::PARTITION:
        text += "Exchange(distribution=[" + distributionName(transformation.partitionKind) + "])";
        break;
      case runtime::Transformation::Kind::UNION:
        text += "Union";
        break;
      default:
        text += transformation.name;
    }
  }
  text += "\n";
  for (const runtime::Transformation* input : transformation.inputs) {
    explainTransformation(*input, depth + 1, text);
  }
}

}  // namespace

std::string explainPhysicalPlan(const DataStream<vector::Chunk>& stream) {
  std::string text;
  explainTransformation(stream.getTransformation(), 0, text);
  return text;
}

}  // namespace eddy::sql

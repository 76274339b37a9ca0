// Where a translated operator runs (translation_context.h): chained to its input at the input's
// parallelism, or after a HASH exchange on its keys at the default parallelism (in one subtask
// without keys, Flink's singleton distribution).
#include "runtime/operators/chunk_exchange.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

DataStream<vector::Chunk> withParallelism(DataStream<vector::Chunk> stream,
                                          const TranslationSettings& settings) {
  if (settings.defaultParallelism > 0) stream.setParallelism(settings.defaultParallelism);
  return stream;
}

DataStream<vector::Chunk> chained(DataStream<vector::Chunk> input, std::string name,
                                  std::shared_ptr<runtime::OperatorFactory> factory) {
  const int parallelism = input.getParallelism();
  DataStream<vector::Chunk> output =
      input.transform<vector::Chunk>(std::move(name), std::move(factory));
  output.setParallelism(parallelism);
  return output;
}

DataStream<vector::Chunk> hashExchange(const DataStream<vector::Chunk>& input,
                                       const std::vector<int>& keys,
                                       const LogicalTypePtr& rowType) {
  DataStream<vector::Chunk> exchanged =
      input.partitionCustom(runtime::operators::ChunkKeyPartitioner::factory(keys));
  exchanged.setDescription(keys.empty()
                               ? "Exchange(distribution=[single])"
                               : "Exchange(distribution=[hash[" + keyNames(rowType, keys) + "]])");
  return exchanged;
}

DataStream<vector::Chunk> keyed(DataStream<vector::Chunk> input, const std::vector<int>& keys,
                                const LogicalTypePtr& inputRowType, std::string name,
                                std::shared_ptr<runtime::OperatorFactory> factory,
                                const TranslationSettings& settings) {
  auto result = hashExchange(input, keys, inputRowType)
                    .transform<vector::Chunk>(std::move(name), std::move(factory), true);
  if (keys.empty()) return result.setParallelism(1);
  return withParallelism(result, settings);
}

DataStream<vector::Chunk> keyedTwoInput(const LogicalJoin& join, DataStream<vector::Chunk> left,
                                        DataStream<vector::Chunk> right, std::string name,
                                        std::shared_ptr<runtime::OperatorFactory> factory,
                                        const TranslationSettings& settings) {
  auto result =
      hashExchange(left, join.leftKeys, join.inputs[0]->rowType)
          .transformTwoInput<vector::Chunk>(
              std::move(name), hashExchange(right, join.rightKeys, join.inputs[1]->rowType),
              std::move(factory));
  if (join.leftKeys.empty()) return result.setParallelism(1);
  return withParallelism(result, settings);
}

}  // namespace eddy::sql::physical

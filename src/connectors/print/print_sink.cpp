#include "connectors/print/print_sink.h"

#include <cstdio>
#include <mutex>

#include "eddy/datastream/sinks.h"
#include "eddy/row.h"
#include "vector/chunk.h"

namespace eddy::connectors {

void writeToStderr(std::string_view text) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

std::string printPrefix(const std::string& printIdentifier, int subtaskIndex, int parallelism) {
  std::string subtask = parallelism > 1 ? std::to_string(subtaskIndex + 1) : std::string();
  if (!printIdentifier.empty()) {
    return printIdentifier + (subtask.empty() ? "" : ":" + subtask) + "> ";
  }
  return subtask.empty() ? std::string() : subtask + "> ";
}

void TablePrintSinkOperator::open(runtime::OperatorContext& context) {
  StreamOperator::open(context);
  prefix_ = printPrefix(printIdentifier_, context.subtaskIndex, context.parallelism);
}

void TablePrintSinkOperator::processBatch(int, runtime::BatchPtr batch) {
  text_.clear();
  for (const vector::Chunk& chunk : runtime::typedBatch<vector::Chunk>(*batch).records) {
    for (int64_t row = 0; row < chunk.size(); ++row) {
      text_ += prefix_;
      text_ += chunk.rowAt(row).toString();
      text_ += '\n';
    }
  }
  if (text_.empty()) return;
  if (standardError_) {
    writeToStderr(text_);
  } else {
    writeToStdout(text_);
  }
}

}  // namespace eddy::connectors

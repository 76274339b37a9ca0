// TablePrintSinkOperator: the sink operator of the 'print' connector (Flink's PrintSink for
// tables). Each row of each incoming chunk is written as one line in Row.toString form
// (`+I[Alice, 12]`, `-U[Alice, 12]`), prefixed as Flink's PrintSinkOutputWriter does:
// "identifier:N> " (identifier given, parallelism > 1), "identifier> ", "N> " (no
// identifier, parallelism > 1) or nothing, with N the 1-based subtask index.
//
// The lines of one chunk are written in one piece to stdout (writeToStdout) or stderr
// (writeToStderr), so lines of concurrent subtasks never interleave. One operator instance per
// subtask, called from its task thread only.
#pragma once

#include <string>
#include <string_view>

#include "eddy/runtime/stream_operator.h"

namespace eddy::connectors {

/// Writes `text` to the process's standard error in one piece and flushes it (the stderr
/// counterpart of eddy::writeToStdout).
void writeToStderr(std::string_view text);

/// The prefix of Flink's PrintSinkOutputWriter for a subtask (see the file comment).
std::string printPrefix(const std::string& printIdentifier, int subtaskIndex, int parallelism);

/// Prints TypedBatch<vector::Chunk> rows. See the file comment.
class TablePrintSinkOperator final : public runtime::StreamOperator {
 public:
  TablePrintSinkOperator(std::string printIdentifier, bool standardError)
      : printIdentifier_(std::move(printIdentifier)), standardError_(standardError) {}

  void open(runtime::OperatorContext& context) override;
  void processBatch(int inputIndex, runtime::BatchPtr batch) override;

 private:
  std::string printIdentifier_;
  bool standardError_;
  std::string prefix_;
  std::string text_;  // reused buffer of the lines of one batch
};

}  // namespace eddy::connectors

// PrintSink: the sink of the 'print' connector (Flink's PrintSink, a Sink V2 sink: its writer
// is PrintSinkOutputWriter), on eddy's Sink V2 SPI (include/eddy/connector/sink.h) over the
// table runtime's chunks. Each row of each incoming chunk is written as one line in
// Row.toString form (`+I[Alice, 12]`, `-U[Alice, 12]`), prefixed as Flink's
// PrintSinkOutputWriter does (eddy::printSinkPrefix, eddy/datastream/sinks.h).
//
// The lines of one batch are written in one piece to stdout (writeToStdout) or stderr
// (writeToStderr), so lines of concurrent subtasks never interleave. It keeps no state and
// commits nothing: after a restore the rows since the last checkpoint are printed again
// (at-least-once). The sink is immutable and shared; each writer belongs to one subtask's task
// thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "eddy/connector/sink.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// Prints vector::Chunk rows. See the file comment.
class PrintSink final : public connector::Sink<vector::Chunk> {
 public:
  PrintSink(std::string printIdentifier, bool standardError)
      : printIdentifier_(std::move(printIdentifier)), standardError_(standardError) {}

  std::unique_ptr<connector::SinkWriter<vector::Chunk>> createWriter(
      connector::WriterInitContext& context) const override;

 private:
  std::string printIdentifier_;
  bool standardError_;
};

/// The 'blackhole' connector's sink (Flink's BlackHoleSink is a DiscardingSink, Sink V2):
/// its writer drops every chunk.
class DiscardingSink final : public connector::Sink<vector::Chunk> {
 public:
  std::unique_ptr<connector::SinkWriter<vector::Chunk>> createWriter(
      connector::WriterInitContext& context) const override;
};

}  // namespace eddy::connectors

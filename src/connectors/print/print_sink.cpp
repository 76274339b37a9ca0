#include "connectors/print/print_sink.h"

#include "eddy/datastream/sinks.h"
#include "eddy/row.h"

namespace eddy::connectors {

namespace {

class PrintSinkWriter final : public connector::SinkWriter<vector::Chunk> {
 public:
  PrintSinkWriter(std::string prefix, bool standardError)
      : prefix_(std::move(prefix)), standardError_(standardError) {}

  void write(const vector::Chunk& chunk, const connector::SinkWriterContext&) override {
    writeBatch(std::span<const vector::Chunk>(&chunk, 1), {}, writerContext_);
  }
  void writeBatch(std::span<const vector::Chunk> chunks, std::span<const int64_t>,
                  connector::SinkWriterContext&) override {
    text_.clear();
    for (const vector::Chunk& chunk : chunks) {
      for (int64_t row = 0; row < chunk.size(); ++row) {
        text_ += prefix_;
        text_ += chunk.rowAt(row).toString();
        text_ += '\n';
      }
    }
    writePrintedLines(text_, standardError_);
  }
  void flush(bool) override {}  // every batch is written when it comes

 private:
  std::string prefix_;
  bool standardError_;
  std::string text_;  // reused buffer of the lines of one batch
  connector::SinkWriterContext writerContext_;
};

class DiscardingSinkWriter final : public connector::SinkWriter<vector::Chunk> {
 public:
  void write(const vector::Chunk&, const connector::SinkWriterContext&) override {}
  void writeBatch(std::span<const vector::Chunk>, std::span<const int64_t>,
                  connector::SinkWriterContext&) override {}
  void flush(bool) override {}
};

}  // namespace

std::unique_ptr<connector::SinkWriter<vector::Chunk>> PrintSink::createWriter(
    connector::WriterInitContext& context) const {
  return std::make_unique<PrintSinkWriter>(
      printSinkPrefix(printIdentifier_, context.getSubtaskId(), context.getNumberOfParallelSubtasks()),
      standardError_);
}

std::unique_ptr<connector::SinkWriter<vector::Chunk>> DiscardingSink::createWriter(
    connector::WriterInitContext&) const {
  return std::make_unique<DiscardingSinkWriter>();
}

}  // namespace eddy::connectors

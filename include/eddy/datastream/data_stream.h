// DataStream<T> and KeyedStream<T, K>: Flink's DataStream API over C++ record types.
//
// A DataStream is a cheap handle (environment + transformation); each method adds a
// transformation to the environment and returns a handle on it. Nothing runs until
// env.execute(), executeAsync() or executeAndCollect(). Record types must be copyable and
// movable; keys need a TypeSerializer (std::string, integers, tuples, Row, ... have one).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/connector/sink.h"
#include "eddy/datastream/execution_environment.h"
#include "eddy/datastream/field_aggregation.h"
#include "eddy/datastream/functions.h"
#include "eddy/datastream/sinks.h"
#include "eddy/detail/datastream/operators.h"
#include "eddy/types/type_information.h"

namespace eddy {

template <typename T, typename K>
class KeyedStream;

namespace datastream_detail {

// The element type a flatMap callable collects: the T of its Collector<T>& parameter.
template <typename F>
struct CollectorTypeOf : CollectorTypeOf<decltype(&F::operator())> {};
template <typename C, typename R, typename IN, typename OUT>
struct CollectorTypeOf<R (C::*)(IN, Collector<OUT>&) const> {
  using type = OUT;
};
template <typename C, typename R, typename IN, typename OUT>
struct CollectorTypeOf<R (C::*)(IN, Collector<OUT>&)> {
  using type = OUT;
};
template <typename R, typename IN, typename OUT>
struct CollectorTypeOf<R (*)(IN, Collector<OUT>&)> {
  using type = OUT;
};

template <typename Operator, typename... Args>
std::shared_ptr<const runtime::OperatorFactory> factoryOf(Args... args) {
  return std::make_shared<runtime::LambdaOperatorFactory>(
      [args...]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<Operator>(args...);
      });
}

}  // namespace datastream_detail

/// The handle returned by sinks (print, addSink), to name them or set their parallelism.
class DataStreamSink {
 public:
  explicit DataStreamSink(runtime::Transformation* transformation)
      : transformation_(transformation) {}
  DataStreamSink& setParallelism(int parallelism);
  DataStreamSink& name(std::string name) {
    transformation_->name = std::move(name);
    return *this;
  }
  DataStreamSink& uid(std::string uid) {
    transformation_->uid = std::move(uid);
    return *this;
  }
  /// What the sink does, for plans (Flink's setDescription); the name stays the operator's.
  DataStreamSink& setDescription(std::string description) {
    transformation_->description = std::move(description);
    return *this;
  }

 private:
  runtime::Transformation* transformation_;
};

/// Iterates over the records of a job started by DataStream::executeAndCollect. Destroying
/// it before the end cancels the job.
template <typename T>
class CloseableIterator {
 public:
  CloseableIterator(JobClient client, std::shared_ptr<CollectQueue<T>> queue)
      : client_(std::move(client)), queue_(std::move(queue)) {}
  CloseableIterator(CloseableIterator&&) noexcept = default;
  ~CloseableIterator() { close(); }

  /// Waits for the next record or the end of the job; rethrows the job's failure.
  bool hasNext() {
    if (buffered_) return true;
    while (true) {
      auto next = queue_->poll(std::chrono::milliseconds(20));
      if (next) {
        buffered_ = std::move(next);
        return true;
      }
      if (queue_->finished()) {
        if (!done_) {
          done_ = true;
          client_.waitForCompletion();
        }
        return false;
      }
      // RESTARTING: the next attempt's records come through the same queue.
      const JobStatus status = client_.getJobStatus();
      if (status != JobStatus::RUNNING && status != JobStatus::RESTARTING) {
        done_ = true;
        client_.waitForCompletion();  // throws when the job failed
        return false;
      }
    }
  }
  T next() {
    if (!hasNext()) throw ValidationException("The iterator has no more elements.");
    T record = std::move(*buffered_);
    buffered_.reset();
    return record;
  }
  /// Asks the job to stop; safe from any thread, also while another one waits in hasNext(),
  /// which then returns false once the job has stopped.
  void cancel() { client_.cancel(); }
  /// The job producing the records.
  const JobClient& getJobClient() const { return client_; }
  /// Stops the job if it still runs.
  void close() {
    if (done_ || !queue_) return;
    done_ = true;
    queue_->abandon();
    client_.cancel();
    try {
      client_.waitForCompletion();
    } catch (const std::exception&) {
      // The caller stopped reading; a failure after that point is not theirs to see.
    }
  }

 private:
  JobClient client_;
  std::shared_ptr<CollectQueue<T>> queue_;
  std::optional<T> buffered_;
  bool done_ = false;
};

template <typename T>
class DataStream {
 public:
  using RecordType = T;

  DataStream(StreamExecutionEnvironment* environment, runtime::Transformation* transformation)
      : environment_(environment), transformation_(transformation) {}

  StreamExecutionEnvironment& getExecutionEnvironment() const { return *environment_; }
  runtime::Transformation& getTransformation() const { return *transformation_; }
  int getId() const { return transformation_->id; }
  int getParallelism() const {
    if (transformation_->parallelism > 0) return transformation_->parallelism;
    if (transformation_->kind == runtime::Transformation::Kind::SOURCE &&
        !transformation_->parallelSource) {
      return 1;  // fromElements, fromCollection
    }
    return environment_->defaultParallelism();
  }

  /// Sets the parallelism of the operator that produces this stream.
  DataStream& setParallelism(int parallelism) {
    if (parallelism < 1) {
      throw ValidationException("The parallelism of an operator must be at least 1.");
    }
    if (transformation_->kind == runtime::Transformation::Kind::SOURCE &&
        !transformation_->parallelSource && parallelism != 1) {
      throw ValidationException("The parallelism of non parallel operator must be 1.");
    }
    transformation_->parallelism = parallelism;
    return *this;
  }
  DataStream& name(std::string name) {
    transformation_->name = std::move(name);
    return *this;
  }
  DataStream& uid(std::string uid) {
    transformation_->uid = std::move(uid);
    return *this;
  }
  /// What the operation does, for plans (Flink's setDescription: SQL's EXPLAIN prints
  /// `Calc(select=[..], where=[..])` where the operator is named `Calc`).
  DataStream& setDescription(std::string description) {
    transformation_->description = std::move(description);
    return *this;
  }
  /// Declares the type information of the records (e.g. the field names of a Row stream).
  DataStream& returns(const TypeInformation& typeInformation) {
    transformation_->outputTypeInformation = std::make_shared<TypeInformation>(typeInformation);
    return *this;
  }
  /// The declared type information, or the default for T.
  TypeInformation getType() const {
    if (transformation_->outputTypeInformation) return *transformation_->outputTypeInformation;
    return TypeInfoOf<T>::get();
  }

  /// One output record per input record.
  template <typename F>
  auto map(F function) {
    using OUT = std::decay_t<std::invoke_result_t<F&, const T&>>;
    return oneInput<OUT>("Map",
                         datastream_detail::factoryOf<operators::MapOperator<T, OUT, F>>(function));
  }

  /// Any number of output records per input record, through a Collector<OUT>&.
  template <typename OUT, typename F>
  DataStream<OUT> flatMap(F function) {
    return oneInput<OUT>(
        "Flat Map", datastream_detail::factoryOf<operators::FlatMapOperator<T, OUT, F>>(function));
  }
  template <typename F>
  auto flatMap(F function) {
    using OUT = typename datastream_detail::CollectorTypeOf<F>::type;
    return flatMap<OUT, F>(std::move(function));
  }

  /// Keeps the records for which the predicate is true.
  template <typename F>
  DataStream<T> filter(F predicate) {
    return oneInput<T>("Filter",
                       datastream_detail::factoryOf<operators::FilterOperator<T, F>>(predicate));
  }

  /// Runs a ProcessFunction<T, OUT>; each subtask gets its own copy of `function`.
  template <typename Function>
  DataStream<typename Function::OutputType> process(const Function& function) {
    static_assert(std::is_base_of_v<ProcessFunction<T, typename Function::OutputType>, Function>,
                  "process() on a DataStream takes a ProcessFunction<IN, OUT>");
    using OUT = typename Function::OutputType;
    return oneInput<OUT>("Process",
                         datastream_detail::factoryOf<operators::ProcessOperator<Function>>(function));
  }

  /// Applies a runtime operator (Flink's DataStream#transform): the operator receives
  /// batches of T and emits batches of OUT. `keyed` marks an operator whose input comes
  /// through a HASH edge (see partitionCustom).
  template <typename OUT>
  DataStream<OUT> transform(std::string operatorName,
                            std::shared_ptr<const runtime::OperatorFactory> factory,
                            bool keyed = false) const {
    return oneInput<OUT>(std::move(operatorName), std::move(factory), keyed);
  }
  /// Applies a two-input runtime operator (Flink's TwoInputTransformation, as
  /// ConnectedStreams#transform builds it): batches of this stream reach the operator with
  /// inputIndex 0, batches of `other` with inputIndex 1. The operator's watermark is the
  /// minimum over both inputs.
  template <typename OUT, typename T2>
  DataStream<OUT> transformTwoInput(std::string operatorName, const DataStream<T2>& other,
                                    std::shared_ptr<const runtime::OperatorFactory> factory) const {
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::TWO_INPUT;
    transformation->name = std::move(operatorName);
    transformation->inputs.push_back(transformation_);
    transformation->inputs.push_back(&other.getTransformation());
    transformation->operatorFactory = std::move(factory);
    transformation->outputType = std::make_shared<runtime::TypedRecordOps<OUT>>();
    return DataStream<OUT>(environment_, environment_->addTransformation(std::move(transformation)));
  }
  /// Routes records by a caller-provided HASH partitioner (used by the Table runtime, whose
  /// records are chunks partitioned row by row).
  DataStream<T> partitionCustom(runtime::HashPartitionerFactory factory) const {
    return partition(runtime::PartitionKind::HASH, std::move(factory));
  }

  /// Partitions the stream by key: records with equal keys go to the same subtask.
  template <typename F>
  auto keyBy(F keySelector) {
    using K = std::decay_t<std::invoke_result_t<F&, const T&>>;
    return KeyedStream<T, K>(*this, std::function<K(const T&)>(std::move(keySelector)));
  }

  /// The records of this stream and the others, merged (all must have the same type).
  template <typename... Others>
  DataStream<T> union_(const Others&... others) {
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::UNION;
    transformation->name = "Union";
    transformation->outputType = transformation_->outputType;
    transformation->inputs.push_back(transformation_);
    (transformation->inputs.push_back(&others.getTransformation()), ...);
    return DataStream<T>(environment_, environment_->addTransformation(std::move(transformation)));
  }

  DataStream<T> rebalance() const { return partition(runtime::PartitionKind::REBALANCE); }
  DataStream<T> shuffle() const { return partition(runtime::PartitionKind::SHUFFLE); }
  DataStream<T> broadcast() const { return partition(runtime::PartitionKind::BROADCAST); }
  DataStream<T> forward() const { return partition(runtime::PartitionKind::FORWARD); }

  /// Assigns event timestamps and generates watermarks, replacing upstream ones.
  DataStream<T> assignTimestampsAndWatermarks(const WatermarkStrategy<T>& strategy) {
    return oneInput<T>(
        "Timestamps/Watermarks",
        datastream_detail::factoryOf<operators::TimestampsAndWatermarksOperator<T>>(strategy));
  }

  /// Prints each record to stdout, prefixed by "N> " (the subtask) when the sink runs with
  /// parallelism > 1, as Flink does (a PrintSink, "Sink: Print to Std. Out").
  DataStreamSink print() { return printTo("", false); }
  /// As print(), with the prefix "identifier> " or "identifier:N> ".
  DataStreamSink print(std::string sinkIdentifier) {
    return printTo(std::move(sinkIdentifier), false);
  }
  /// As print(), to stderr ("Sink: Print to Std. Err").
  DataStreamSink printToErr() { return printTo("", true); }
  DataStreamSink printToErr(std::string sinkIdentifier) {
    return printTo(std::move(sinkIdentifier), true);
  }

  /// Calls `sink(record)` for every record.
  template <typename F>
  DataStreamSink addSink(F sink) {
    return DataStreamSink(addSinkTransformation(
        "Sink: Unnamed",
        datastream_detail::factoryOf<operators::SinkFunctionOperator<T, F>>(sink)));
  }

  /// Writes the stream into `sink`, a sink of the connector SPI (Flink's sinkTo; Sink V2,
  /// eddy/connector/sink.h), passed with its own type so that its committer and writer state
  /// are seen: each subtask runs its writer and its committer, which commits what the writer
  /// prepared for a checkpoint once the checkpoint has completed (without checkpointing, at the
  /// end of input). Named "Sink: Writer" unless named.
  template <typename SinkType>
  DataStreamSink sinkTo(std::shared_ptr<SinkType> sink) {
    using Definition = std::remove_const_t<SinkType>;
    static_assert(std::is_base_of_v<connector::Sink<T>, Definition>,
                  "sinkTo takes a connector::Sink of the stream's record type");
    return DataStreamSink(addSinkTransformation(
        "Sink: Writer", connector::detail::sinkWriterOperatorFactory(
                            std::shared_ptr<const Definition>(std::move(sink)))));
  }

  /// Runs the program and returns an iterator over this stream's records.
  CloseableIterator<T> executeAndCollect(std::string jobName = "DataStream Collect") {
    auto queue = std::make_shared<CollectQueue<T>>();
    auto* sink = addSinkTransformation(
        "Sink: Data stream collect sink",
        datastream_detail::factoryOf<CollectSinkOperator<T>>(queue));
    sink->parallelism = 1;
    JobClient client = environment_->executeAsync(std::move(jobName));
    return CloseableIterator<T>(std::move(client), std::move(queue));
  }
  /// Runs the program and returns at most `limit` records; the job is stopped after.
  std::vector<T> executeAndCollect(int limit) {
    return executeAndCollect("DataStream Collect", limit);
  }
  std::vector<T> executeAndCollect(std::string jobName, int limit) {
    std::vector<T> records;
    auto iterator = executeAndCollect(std::move(jobName));
    while (static_cast<int>(records.size()) < limit && iterator.hasNext()) {
      records.push_back(iterator.next());
    }
    return records;
  }

 protected:
  template <typename OUT>
  DataStream<OUT> oneInput(std::string name,
                           std::shared_ptr<const runtime::OperatorFactory> factory,
                           bool keyed = false) const {
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::ONE_INPUT;
    transformation->name = std::move(name);
    transformation->inputs.push_back(transformation_);
    transformation->operatorFactory = std::move(factory);
    transformation->outputType = std::make_shared<runtime::TypedRecordOps<OUT>>();
    transformation->keyed = keyed;
    return DataStream<OUT>(environment_, environment_->addTransformation(std::move(transformation)));
  }

  runtime::Transformation* addSinkTransformation(
      std::string name, std::shared_ptr<const runtime::OperatorFactory> factory) const {
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::SINK;
    transformation->name = std::move(name);
    transformation->inputs.push_back(transformation_);
    transformation->operatorFactory = std::move(factory);
    transformation->outputType = std::make_shared<runtime::TypedRecordOps<T>>();
    return environment_->addTransformation(std::move(transformation));
  }

  DataStream<T> partition(runtime::PartitionKind kind,
                          runtime::HashPartitionerFactory hash = nullptr) const {
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::PARTITION;
    transformation->name = "Partition";
    transformation->partitionKind = kind;
    transformation->hashPartitionerFactory = std::move(hash);
    transformation->outputType = transformation_->outputType;
    transformation->outputTypeInformation = transformation_->outputTypeInformation;
    transformation->inputs.push_back(transformation_);
    return DataStream<T>(environment_, environment_->addTransformation(std::move(transformation)));
  }

 private:
  DataStreamSink printTo(std::string sinkIdentifier, bool standardError) {
    return DataStreamSink(addSinkTransformation(
        standardError ? "Sink: Print to Std. Err" : "Sink: Print to Std. Out",
        connector::detail::sinkWriterOperatorFactory(std::make_shared<const PrintSink<T>>(
            std::move(sinkIdentifier), standardError))));
  }

  StreamExecutionEnvironment* environment_;
  runtime::Transformation* transformation_;
};

/// A stream partitioned by key (keyBy). Keyed operators see each key on exactly one subtask
/// and have keyed state and timers.
template <typename T, typename K>
class KeyedStream : public DataStream<T> {
 public:
  using KeySelector = std::function<K(const T&)>;

  KeyedStream(const DataStream<T>& input, KeySelector keySelector)
      : DataStream<T>(partitionByKey(input, keySelector)), keySelector_(std::move(keySelector)) {}

  const KeySelector& getKeySelector() const { return keySelector_; }

  /// Runs a KeyedProcessFunction<K, T, OUT>; each subtask gets its own copy of `function`.
  template <typename Function>
  DataStream<typename Function::OutputType> process(const Function& function) {
    static_assert(std::is_base_of_v<KeyedProcessFunction<K, T, typename Function::OutputType>,
                                    Function>,
                  "process() on a KeyedStream takes a KeyedProcessFunction<K, IN, OUT>");
    using OUT = typename Function::OutputType;
    return this->template oneInput<OUT>(
        "KeyedProcess",
        datastream_detail::factoryOf<operators::KeyedProcessOperator<Function, KeySelector>>(
            function, keySelector_),
        true);
  }

  /// A rolling reduce per key: STREAMING emits every updated value, BATCH the final one.
  template <typename F>
  DataStream<T> reduce(F reduceFunction) {
    return this->template oneInput<T>(
        "Keyed Reduce",
        datastream_detail::factoryOf<operators::ReduceOperator<T, K, KeySelector, F>>(
            reduceFunction, keySelector_),
        true);
  }

  /// Rolling sum/min/max of field `position` (0 for a stream of numbers); the other fields
  /// keep the values of the key's first record, as in Flink.
  DataStream<T> sum(int position) { return aggregate({position, {}}, Aggregation::SUM, "Keyed Sum"); }
  DataStream<T> min(int position) { return aggregate({position, {}}, Aggregation::MIN, "Keyed Min"); }
  DataStream<T> max(int position) { return aggregate({position, {}}, Aggregation::MAX, "Keyed Max"); }
  /// The same, by field name (Row records with named fields).
  DataStream<T> sum(std::string field) {
    return aggregate({0, std::move(field)}, Aggregation::SUM, "Keyed Sum");
  }
  DataStream<T> min(std::string field) {
    return aggregate({0, std::move(field)}, Aggregation::MIN, "Keyed Min");
  }
  DataStream<T> max(std::string field) {
    return aggregate({0, std::move(field)}, Aggregation::MAX, "Keyed Max");
  }

 private:
  using Aggregation = datastream_detail::FieldAggregation;

  DataStream<T> aggregate(datastream_detail::FieldReference field, Aggregation aggregation,
                          std::string name) {
    datastream_detail::FieldAggregator<T>::check(field);
    return reduce([field, aggregation](const T& accumulated, const T& next) {
             return datastream_detail::FieldAggregator<T>::apply(accumulated, next, field,
                                                                 aggregation);
           })
        .name(std::move(name));
  }

  static DataStream<T> partitionByKey(const DataStream<T>& input, const KeySelector& selector) {
    auto keyBytesOf = [selector](const T& record, std::string& out) {
      TypeSerializer<K>::serialize(selector(record), out);
    };
    runtime::HashPartitionerFactory factory = [keyBytesOf](int targets, int maxParallelism) {
      return std::unique_ptr<runtime::Partitioner>(
          new runtime::KeyGroupPartitioner<T, decltype(keyBytesOf)>(keyBytesOf, maxParallelism,
                                                                    targets));
    };
    auto transformation = std::make_unique<runtime::Transformation>();
    transformation->kind = runtime::Transformation::Kind::PARTITION;
    transformation->name = "Partition";
    transformation->partitionKind = runtime::PartitionKind::HASH;
    transformation->hashPartitionerFactory = std::move(factory);
    transformation->outputType = input.getTransformation().outputType;
    transformation->outputTypeInformation = input.getTransformation().outputTypeInformation;
    transformation->inputs.push_back(&input.getTransformation());
    auto& environment = input.getExecutionEnvironment();
    return DataStream<T>(&environment, environment.addTransformation(std::move(transformation)));
  }

  KeySelector keySelector_;
};

}  // namespace eddy

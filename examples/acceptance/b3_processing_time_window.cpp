// ACCEPTANCE B3 (seed 002, section 3.3): a processing-time attribute declared with
// columnByExpression("proc_time", "PROCTIME()") and a TUMBLE window over it. The rows arrive
// over about 2.4 seconds of wall clock; the 1-second windows close on the wall clock while
// rows are still arriving (a processing-time timer fires at each window's end), not only when
// the input ends. The program checks what it sees and prints the facts, which do not depend on
// when exactly it ran.
#include <eddy/eddy.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

using namespace eddy;

namespace {

int64_t nowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// When the last input row was emitted (epoch ms; 0 before).
std::atomic<int64_t> lastInputAt{0};

constexpr int64_t kRows = 6;

/// A slow source: one click every 400 ms, each in its own poll (a real job reads Kafka here).
class SlowClicks final : public Source<Row> {
 public:
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<Row>> createReader(int, int) const override {
    return std::make_unique<Reader>();
  }

 private:
  class Reader final : public SourceReader<Row> {
   public:
    InputStatus pollNext(ReaderOutput<Row>& output) override {
      int64_t now = nowMillis();
      if (nextDue_ == 0) nextDue_ = now + 400;
      // Nothing yet: say so, and the task sends on what was read and polls again shortly.
      if (now < nextDue_) return InputStatus::NOTHING_AVAILABLE;
      nextDue_ += 400;
      output.collect(Row::of("user", ++emitted_));
      if (emitted_ < kRows) return InputStatus::NOTHING_AVAILABLE;
      lastInputAt = now;
      return InputStatus::END_OF_INPUT;
    }

   private:
    int64_t emitted_ = 0;
    int64_t nextDue_ = 0;
  };
};

}  // namespace

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);

  DataStream<Row> clicks =
      env->fromSource(std::make_shared<SlowClicks>(), WatermarkStrategy<Row>::noWatermarks(),
                      "clicks")
          .returns(Types::ROW_NAMED({"user_id", "click"}, {Types::STRING, Types::LONG}));

  // the processing-time attribute is a computed column of the schema
  Table table = tableEnv->fromDataStream(clicks, Schema::newBuilder()
                                                     .column("user_id", DataTypes::STRING())
                                                     .column("click", DataTypes::BIGINT())
                                                     .columnByExpression("proc_time", "PROCTIME()")
                                                     .build());
  tableEnv->createTemporaryView("clicks", table);
  Table perSecond = tableEnv->sqlQuery(
      "SELECT window_start, window_end, COUNT(*) AS clicks "
      "FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(proc_time), INTERVAL '1' SECOND)) "
      "GROUP BY window_start, window_end");

  int64_t windows = 0;
  int64_t counted = 0;
  int64_t closedWhileRunning = 0;
  bool oneSecond = true;
  bool aligned = true;
  bool insertOnly = true;
  CloseableIterator<Row> results = tableEnv->toDataStream(perSecond).executeAndCollect();
  while (results.hasNext()) {
    Row row = results.next();
    int64_t arrivedAt = nowMillis();
    int64_t start = row.getFieldAs<LocalDateTime>("window_start").getMillisecond();
    int64_t end = row.getFieldAs<LocalDateTime>("window_end").getMillisecond();
    ++windows;
    counted += row.getFieldAs<int64_t>("clicks");
    oneSecond = oneSecond && end - start == 1000;
    aligned = aligned && start % 1000 == 0;
    insertOnly = insertOnly && row.getKind() == RowKind::INSERT;
    // A window fires when the clock reaches its last millisecond, end - 1.
    if (lastInputAt.load() == 0 && arrivedAt >= end - 1) ++closedWhileRunning;
  }
  std::printf("windows are 1 second long: %s\n", oneSecond ? "yes" : "no");
  std::printf("windows are aligned to the second: %s\n", aligned ? "yes" : "no");
  std::printf("results are insert-only: %s\n", insertOnly ? "yes" : "no");
  std::printf("clicks counted: %lld of %lld\n", static_cast<long long>(counted),
              static_cast<long long>(kRows));
  std::printf("more than one window: %s\n", windows > 1 ? "yes" : "no");
  std::printf("a window closed on the wall clock while clicks were still arriving: %s\n",
              closedWhileRunning > 0 ? "yes" : "no");
  return 0;
}

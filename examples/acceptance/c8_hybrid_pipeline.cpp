// ACCEPTANCE C8 (seed 000, "DataStream <-> Table API Conversion"): a stream of OrderEvent
// objects registered as a view with declared columns, a processing-time column
// (columnByExpression("proc_time", "PROCTIME()")), the event time from the stream's record
// timestamps (columnByMetadata) and a watermark; a TUMBLE query back to a DataStream with
// toDataStream, a GROUP BY as a changelog with toChangelogStream, and env.execute(name).
//
// The seed's code as written does not run on Flink either, and eddy says why as Flink does:
//  - a DataStream offers one metadata key, `rowtime` (the record timestamp); the seed asks for
//    `timestamp`, which is a Kafka connector key. The first section prints that error.
//  - its query groups by `product_id` while the view's column is `productId`.
// The pipeline below uses `rowtime` and `productId`.
#include <eddy/eddy.h>

#include <cstdio>

struct OrderEvent {
  std::string orderId;
  std::string userId;
  std::string productId;
  double amount;
  eddy::Instant orderTime;
};
EDDY_STRUCT(OrderEvent, orderId, userId, productId, amount, orderTime)

using namespace eddy;

namespace {

Schema schemaWithMetadataKey(const std::string& key) {
  return Schema::newBuilder()
      .column("orderId", DataTypes::STRING())
      .column("userId", DataTypes::STRING())
      .column("productId", DataTypes::STRING())
      .column("amount", DataTypes::DECIMAL(12, 2))
      .columnByExpression("proc_time", "PROCTIME()")  // processing-time attribute
      .columnByMetadata("event_time", DataTypes::TIMESTAMP_LTZ(3), key, true)
      .watermark("event_time", "event_time - INTERVAL '5' SECOND")
      .build();
}

}  // namespace

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  // one subtask: the GROUP BY's changelog below is printed in full, and its intermediate
  // values depend on the order the orders arrive in
  env->setParallelism(1);
  auto tableEnv = StreamTableEnvironment::create(*env);

  // a source of domain objects whose records carry their event time as timestamps
  DataStream<OrderEvent> orderStream =
      env->fromElements(
             OrderEvent{"o1", "u1", "p1", 10.00, Instant::parse("2024-01-01T10:00:00Z")},
             OrderEvent{"o2", "u2", "p1", 20.00, Instant::parse("2024-01-01T10:02:00Z")},
             OrderEvent{"o3", "u1", "p2", 30.00, Instant::parse("2024-01-01T10:04:30Z")},
             OrderEvent{"o4", "u1", "p1", 40.00, Instant::parse("2024-01-01T10:06:00Z")})
          .assignTimestampsAndWatermarks(
              WatermarkStrategy<OrderEvent>::forMonotonousTimestamps().withTimestampAssigner(
                  [](const OrderEvent& event, int64_t) { return event.orderTime.toEpochMilli(); }));

  std::printf("-- the seed's schema: columnByMetadata(\"event_time\", ..., \"timestamp\", true)\n");
  try {
    tableEnv->createTemporaryView("order_events_raw", orderStream,
                                  schemaWithMetadataKey("timestamp"));
  } catch (const ValidationException& error) {
    std::printf("%s\n", error.what());
  }

  std::printf("-- the pipeline with the record timestamp (metadata key rowtime)\n");
  std::fflush(stdout);
  tableEnv->createTemporaryView("order_events_raw", orderStream, schemaWithMetadataKey("rowtime"));

  // --- Table -> DataStream ---
  // toDataStream: append-only stream, correct for the insert-only result of a window
  Table result = tableEnv->sqlQuery(
      "SELECT productId, window_start, window_end, SUM(amount) AS revenue "
      "FROM TABLE(TUMBLE(TABLE order_events_raw, DESCRIPTOR(event_time), INTERVAL '5' MINUTES)) "
      "GROUP BY productId, window_start, window_end");
  DataStream<Row> appendStream = tableEnv->toDataStream(result);
  appendStream.map([](const Row& row) { return "window " + row.toString(); }).print();

  // toChangelogStream: required for updating results (a non-windowed GROUP BY)
  Table perProductTotals = tableEnv->sqlQuery(
      "SELECT productId, SUM(amount) AS total FROM order_events_raw GROUP BY productId");
  DataStream<Row> changelogStream = tableEnv->toChangelogStream(perProductTotals);
  changelogStream.print();

  // env.execute() runs the DataStream pipeline with the table parts in it
  JobExecutionResult job = env->execute("Order Analytics Hybrid Pipeline");
  std::fflush(stdout);
  std::printf("-- the job\n%s, late records dropped: %lld\n", job.getJobName().c_str(),
              static_cast<long long>(job.getNumLateRecordsDropped()));
  return 0;
}

// ACCEPTANCE A7 (seed 001, "Converting between DataStream and Table", the TableDescriptor
// example): a datagen table read through a TableDescriptor, converted into a DataStream and
// processed by a keyed DataStream operator, collected on the client.
#include <eddy/eddy.h>

#include <iostream>

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  // declare a table with the datagen connector, bounded to 10 rows
  Table table = tableEnv->from(TableDescriptor::forConnector("datagen")
                                   .option("number-of-rows", "10")
                                   .schema(Schema::newBuilder()
                                               .column("uid", DataTypes::TINYINT())
                                               .column("payload", DataTypes::STRING())
                                               .build())
                                   .build());

  // convert the Table into a DataStream and continue in the DataStream API
  auto iterator = tableEnv->toDataStream(table)
                      .keyBy([](const Row& r) { return r.getFieldAs<int8_t>("uid"); })
                      .map([](const Row& r) {
                        return "My custom operator: " + r.getFieldAs<std::string>("payload");
                      })
                      .executeAndCollect();
  while (iterator.hasNext()) std::cout << iterator.next() << std::endl;
  return 0;
}

// ACCEPTANCE A10 (seed 001, "Examples for fromDataStream", the immutable POJO): a type eddy
// cannot look into is one RAW column `f0`; a declared structured type gives it attributes.
#include <eddy/eddy.h>

// the struct's fields are not registered with EDDY_STRUCT: eddy sees an opaque type
struct User {
  std::string name;
  int32_t score;
};

using namespace eddy;

int main() {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto tableEnv = StreamTableEnvironment::create(*env);

  // create a DataStream
  DataStream<User> dataStream =
      env->fromElements(User{"Alice", 4}, User{"Bob", 6}, User{"Alice", 10});

  // since fields of a RAW type cannot be accessed, every stream record is treated as an atomic
  // type leading to a table with a single column `f0`
  Table table = tableEnv->fromDataStream(dataStream);
  table.printSchema();

  // instead, declare a more useful data type for columns using the Table API's type system
  // in a custom schema and rename the columns in a following `as` projection
  Table table2 = tableEnv
                     ->fromDataStream(dataStream,
                                      Schema::newBuilder()
                                          .column("f0", DataTypes::STRUCTURED(
                                                            "User",
                                                            {DataTypes::FIELD("name", DataTypes::STRING()),
                                                             DataTypes::FIELD("score", DataTypes::INT())}))
                                          .build())
                     .as("user");
  table2.printSchema();
  return 0;
}

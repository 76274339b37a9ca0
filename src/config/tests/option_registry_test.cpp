// The option registry: which keys eddy knows, the errors for invalid values, the warnings for
// unknown keys and for keys eddy does not honour yet, and typed reads.
#include "config/option_registry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config/configuration_view.h"
#include "eddy/exceptions.h"

namespace eddy::config {
namespace {

std::string validationError(const std::string& key, const std::string& value) {
  try {
    OptionRegistry::instance().validate(key, value);
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "(no error)";
}

std::vector<std::string> warnings(const std::string& key, const std::string& value) {
  return OptionRegistry::instance().validate(key, value);
}

TEST(OptionRegistryTest, AcceptsValidValuesOfHonouredOptionsSilently) {
  EXPECT_EQ(warnings("parallelism.default", "4"), std::vector<std::string>{});
  EXPECT_EQ(warnings("execution.runtime-mode", "batch"), std::vector<std::string>{});
  EXPECT_EQ(warnings("execution.runtime-mode", "Streaming"), std::vector<std::string>{});
  EXPECT_EQ(warnings("table.optimizer.reuse-sub-plan-enabled", "FALSE"),
            std::vector<std::string>{});
  EXPECT_EQ(warnings("table.exec.resource.default-parallelism", "-1"), std::vector<std::string>{});
  EXPECT_EQ(warnings("state.backend.type", "hashmap"), std::vector<std::string>{});
}

TEST(OptionRegistryTest, InvalidValuesAreErrorsNamingKeyValueAndExpectation) {
  EXPECT_EQ(validationError("execution.checkpointing.interval", "10 parsecs"),
            "Could not parse value '10 parsecs' for key 'execution.checkpointing.interval': "
            "expected a non-negative duration such as '500 ms', '5 s', '1 min', '2 h' or '1 d' "
            "(no unit: milliseconds).");
  EXPECT_EQ(validationError("execution.runtime-mode", "sometimes"),
            "Could not parse value 'sometimes' for key 'execution.runtime-mode': expected one of "
            "STREAMING, BATCH, AUTOMATIC (case-insensitive).");
  EXPECT_EQ(validationError("parallelism.default", "0"),
            "Could not parse value '0' for key 'parallelism.default': expected an integer of at "
            "least 1.");
  EXPECT_EQ(validationError("parallelism.default", "many"),
            "Could not parse value 'many' for key 'parallelism.default': expected an integer of "
            "at least 1.");
  EXPECT_EQ(validationError("table.exec.mini-batch.enabled", "yes"),
            "Could not parse value 'yes' for key 'table.exec.mini-batch.enabled': expected "
            "'true' or 'false'.");
  EXPECT_EQ(validationError("state.backend.rocksdb.memory.fixed-per-slot", "lots"),
            "Could not parse value 'lots' for key 'state.backend.rocksdb.memory.fixed-per-slot': "
            "expected a memory size such as '64 kb', '512 mb' or '1 gb' (no unit: bytes).");
  EXPECT_EQ(validationError("state.backend.rocksdb.memory.write-buffer-ratio", "half"),
            "Could not parse value 'half' for key "
            "'state.backend.rocksdb.memory.write-buffer-ratio': expected a number such as '0.5'.");
}

TEST(OptionRegistryTest, UnknownKeysWarnNamingTheNearestKnownKey) {
  EXPECT_EQ(
      warnings("parallelism.defualt", "2"),
      std::vector<std::string>{"Unknown option 'parallelism.defualt'; did you mean "
                               "'parallelism.default'? eddy accepts it but does not use it."});
  EXPECT_EQ(warnings("execution.checkpoint.interval", "1 min"),
            std::vector<std::string>{
                "Unknown option 'execution.checkpoint.interval'; did you mean "
                "'execution.checkpointing.interval'? eddy accepts it but does not use it."});
  EXPECT_EQ(warnings("my.own.key", "x"),
            std::vector<std::string>{
                "Unknown option 'my.own.key'. eddy accepts it but does not use it."});
}

TEST(OptionRegistryTest, KnownOptionsNotHonouredYetSaySo) {
  EXPECT_EQ(warnings("execution.checkpointing.unaligned.enabled", "true"),
            std::vector<std::string>{"Option 'execution.checkpointing.unaligned.enabled' is known "
                                     "but not honoured by eddy yet (checkpoints are aligned; "
                                     "unaligned checkpoints are not there yet); it has no "
                                     "effect."});
  EXPECT_EQ(warnings("execution.checkpointing.interval", "60s"), std::vector<std::string>{});
  EXPECT_EQ(warnings("execution.state-recovery.path", "/tmp/chk-3"), std::vector<std::string>{});
  EXPECT_EQ(warnings("state.backend.type", "RocksDB"),
            std::vector<std::string>{"Option 'state.backend.type' = 'RocksDB' is not honoured by "
                                     "eddy yet (state is kept in memory; the RocksDB backend is "
                                     "not there yet)."});
  EXPECT_EQ(warnings("metrics.reporter.prom.port", "9249"),
            std::vector<std::string>{"Option 'metrics.reporter.prom.port' is known but not "
                                     "honoured by eddy yet (metrics reporters are not there "
                                     "yet); it has no effect."});
}

TEST(OptionRegistryTest, SecretValuesNeverAppearInMessages) {
  const ConfigOption* integer = OptionRegistry::instance().find("parallelism.default");
  ASSERT_NE(integer, nullptr);
  EXPECT_EQ(OptionRegistry::invalidValueMessage(*integer, "my.password", "hunter2"),
            "Could not parse value '******' for key 'my.password': expected an integer of at "
            "least 1.");
  EXPECT_TRUE(isSensitiveKey("metrics.reporter.prom.password"));
  EXPECT_TRUE(isSensitiveKey("my.Secret.key"));
  EXPECT_FALSE(isSensitiveKey("pipeline.name"));
  EXPECT_EQ(displayValue("a.password", "hunter2"), "******");
  EXPECT_EQ(displayValue("pipeline.name", "orders"), "orders");
}

TEST(OptionRegistryTest, TypedReadsParseValuesAndRejectUnvalidatedOnes) {
  std::map<std::string, std::string> options = {{"parallelism.default", "3"},
                                                {"execution.runtime-mode", "batch"},
                                                {"table.optimizer.reuse-sub-plan-enabled", "False"},
                                                {"table.exec.state.ttl", "24 h"},
                                                {"table.exec.resource.default-parallelism", "0"}};
  ConfigurationView view(options);
  EXPECT_EQ(view.getInteger("parallelism.default"), 3);
  EXPECT_EQ(view.getEnum("execution.runtime-mode"), "BATCH");
  EXPECT_EQ(view.getBoolean("table.optimizer.reuse-sub-plan-enabled"), false);
  EXPECT_EQ(view.getDuration("table.exec.state.ttl"), std::chrono::hours(24));
  EXPECT_EQ(view.getDuration("table.exec.source.idle-timeout"), std::nullopt);
  options["table.exec.resource.default-parallelism"] = "-2";
  EXPECT_THROW(view.getInteger("table.exec.resource.default-parallelism"), ValidationException);
}

// docs/configuration.md lists every key the registry knows.
TEST(OptionRegistryTest, TheConfigurationPageListsEveryKey) {
  std::ifstream input(std::string(EDDY_SOURCE_DIR) + "/docs/configuration.md");
  ASSERT_TRUE(input) << "docs/configuration.md is missing";
  std::stringstream page;
  page << input.rdbuf();
  for (const ConfigOption& option : OptionRegistry::instance().options()) {
    std::string shown = option.isPrefix() ? option.key + "<name>.<property>" : option.key;
    EXPECT_NE(page.str().find("`" + shown + "`"), std::string::npos) << shown;
  }
}

}  // namespace
}  // namespace eddy::config

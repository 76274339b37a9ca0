// The TableEnvironment's session options as binding context, runtime mode and job settings
// (session_options.h).
#include "table/environment/session_options.h"

#include <chrono>
#include <optional>

#include "config/configuration_view.h"
#include "eddy/datastream/execution_environment.h"
#include "eddy/exceptions.h"
#include "sql/physical/translator.h"
#include "table/environment/table_environment_impl.h"

namespace eddy {

namespace table {

function::BindingContext bindingContextOf(const std::map<std::string, std::string>& configuration) {
  auto zone = configuration.find("table.local-time-zone");
  if (zone == configuration.end()) return {};
  return function::BindingContext{common::SessionTimeZone::of(zone->second)};
}

}  // namespace table

namespace {

int parallelismOption(const std::map<std::string, std::string>& configuration,
                      const std::string& key) {
  std::optional<int64_t> value = config::ConfigurationView(configuration).getInteger(key);
  return value && *value > 0 ? static_cast<int>(*value) : -1;
}

}  // namespace

function::BindingContext table::TableEnvironmentImpl::bindingContext() const {
  function::BindingContext context = table::bindingContextOf(configuration_);
  context.batchMode = !isStreaming();
  return context;
}

bool table::TableEnvironmentImpl::isStreaming() const {
  auto it = configuration_.find("execution.runtime-mode");
  if (it == configuration_.end()) {
    if (streamEnvironment_)
      return streamEnvironment_->getRuntimeMode() != RuntimeExecutionMode::BATCH;
    return settings_.isStreamingMode();
  }
  // AUTOMATIC runs as STREAMING (SET warns that it is not honoured yet).
  return config::ConfigurationView(configuration_).getEnum("execution.runtime-mode") != "BATCH";
}

std::unique_ptr<StreamExecutionEnvironment> table::TableEnvironmentImpl::newJobEnvironment(
    sql::TranslationSettings& translation) const {
  auto environment = StreamExecutionEnvironment::getExecutionEnvironment();
  if (streamEnvironment_) {
    environment->setParallelism(streamEnvironment_->getParallelism());
    if (streamEnvironment_->getMaxParallelism() > 0) {
      environment->setMaxParallelism(streamEnvironment_->getMaxParallelism());
    }
    if (!streamEnvironment_->isChainingEnabled()) environment->disableOperatorChaining();
    // Checkpointing and the restore path as the bound environment has them.
    environment->configure(streamEnvironment_->getConfiguration());
    environment->getCheckpointConfig() = streamEnvironment_->getCheckpointConfig();
  }
  // The session's options override them (SET, the configuration file, -D).
  environment->configure(configuration_);
  bool streaming = isStreaming();
  environment->setRuntimeMode(streaming ? RuntimeExecutionMode::STREAMING
                                        : RuntimeExecutionMode::BATCH);
  int parallelism = parallelismOption(configuration_, "parallelism.default");
  if (parallelism > 0) environment->setParallelism(parallelism);
  configureTranslation(translation);
  return environment;
}

void table::TableEnvironmentImpl::configureTranslation(
    sql::TranslationSettings& translation) const {
  translation.streaming = isStreaming();
  translation.defaultParallelism =
      parallelismOption(configuration_, "table.exec.resource.default-parallelism");
  bool reuseEnabled = config::ConfigurationView(configuration_)
                          .getBoolean("table.optimizer.reuse-sub-plan-enabled")
                          .value_or(true);
  translation.sessionTimeZone = table::bindingContextOf(configuration_).sessionTimeZone;
  config::ConfigurationView view(configuration_);
  translation.autoWatermarkInterval =
      view.getDuration("pipeline.auto-watermark-interval")
          .value_or(std::chrono::milliseconds(
              streamEnvironment_ ? streamEnvironment_->getConfig().getAutoWatermarkInterval()
                                 : 200))
          .count();
  translation.sourceIdleTimeout = view.getDuration("table.exec.source.idle-timeout")
                                      .value_or(std::chrono::milliseconds(0))
                                      .count();
  translation.stateTtl =
      view.getDuration("table.exec.state.ttl").value_or(std::chrono::milliseconds(0)).count();
  if (auto disabled = configuration_.find("table.exec.disabled-operators");
      disabled != configuration_.end()) {
    translation.disabledOperators = disabled->second;
  }
  if (auto passes = configuration_.find("table.optimizer.disabled-passes");
      passes != configuration_.end()) {
    translation.optimizer = sql::parseDisabledPasses(passes->second);
  }
  translation.dropNotNullViolations =
      view.getEnum("table.exec.sink.not-null-enforcer").value_or("ERROR") == "DROP";
  translation.upsertMaterialize =
      view.getEnum("table.exec.sink.upsert-materialize").value_or("AUTO");
  translation.trimPadToSinkLength =
      view.getEnum("table.exec.sink.type-length-enforcer").value_or("IGNORE") == "TRIM_PAD";
  if (translation.streaming && view.getBoolean("table.exec.mini-batch.enabled").value_or(false)) {
    // Flink's checks: a mini-batch needs both a latency and a size (BATCH ignores mini-batch).
    int64_t latency = view.getDuration("table.exec.mini-batch.allow-latency")
                          .value_or(std::chrono::milliseconds(0))
                          .count();
    int64_t size = view.getInteger("table.exec.mini-batch.size").value_or(-1);
    if (latency <= 0) {
      throw ValidationException(
          "'table.exec.mini-batch.allow-latency' must be greater than 0 "
          "when 'table.exec.mini-batch.enabled' is true.");
    }
    if (size <= 0) {
      throw ValidationException(
          "'table.exec.mini-batch.size' must be greater than 0 when "
          "'table.exec.mini-batch.enabled' is true.");
    }
    translation.miniBatchLatency = latency;
    translation.miniBatchSize = size;
  }
  translation.twoPhaseAggregation =
      view.getEnum("table.optimizer.agg-phase-strategy").value_or("AUTO") != "ONE_PHASE";
  if (translation.streaming &&
      view.getBoolean("table.optimizer.distinct-agg.split.enabled").value_or(false)) {
    translation.distinctSplitBuckets = static_cast<int>(
        view.getInteger("table.optimizer.distinct-agg.split.bucket-num").value_or(1024));
  }
  if (reuseEnabled) {
    translation.reusedSubPlans = std::make_shared<sql::SubPlanReuse>();
  }
}

}  // namespace eddy

// EnvironmentSettings: how a TableEnvironment runs, as Flink's: the runtime mode (streaming or
// batch) and the names of the built-in catalog and database.
#pragma once

#include <string>

namespace eddy {

class EnvironmentSettings {
 public:
  class Builder {
   public:
    Builder& inStreamingMode() {
      streaming_ = true;
      return *this;
    }
    Builder& inBatchMode() {
      streaming_ = false;
      return *this;
    }
    Builder& withBuiltInCatalogName(std::string name) {
      catalogName_ = std::move(name);
      return *this;
    }
    Builder& withBuiltInDatabaseName(std::string name) {
      databaseName_ = std::move(name);
      return *this;
    }
    EnvironmentSettings build() const {
      return EnvironmentSettings(streaming_, catalogName_, databaseName_);
    }

   private:
    bool streaming_ = true;
    std::string catalogName_ = "default_catalog";
    std::string databaseName_ = "default_database";
  };

  static Builder newInstance() { return Builder(); }
  static EnvironmentSettings inStreamingMode() { return Builder().inStreamingMode().build(); }
  static EnvironmentSettings inBatchMode() { return Builder().inBatchMode().build(); }

  bool isStreamingMode() const { return streaming_; }
  const std::string& getBuiltInCatalogName() const { return catalogName_; }
  const std::string& getBuiltInDatabaseName() const { return databaseName_; }

 private:
  EnvironmentSettings(bool streaming, std::string catalogName, std::string databaseName)
      : streaming_(streaming),
        catalogName_(std::move(catalogName)),
        databaseName_(std::move(databaseName)) {}

  bool streaming_;
  std::string catalogName_;
  std::string databaseName_;
};

}  // namespace eddy

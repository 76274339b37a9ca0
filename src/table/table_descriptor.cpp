#include "eddy/table/table_descriptor.h"

#include "eddy/exceptions.h"
#include "eddy/types/logical_type.h"

namespace eddy {

TableDescriptor::Builder TableDescriptor::forConnector(const std::string& connector) {
  Builder builder;
  builder.option("connector", connector);
  return builder;
}

TableDescriptor::Builder& TableDescriptor::Builder::schema(Schema schema) {
  schema_ = std::move(schema);
  return *this;
}

TableDescriptor::Builder& TableDescriptor::Builder::option(const std::string& key,
                                                           const std::string& value) {
  if (key.empty()) throw ValidationException("A table option needs a non-empty key");
  options_[key] = value;
  return *this;
}

TableDescriptor::Builder& TableDescriptor::Builder::format(const std::string& format) {
  return option("format", format);
}

TableDescriptor::Builder& TableDescriptor::Builder::partitionedBy(std::vector<std::string> columns) {
  partitionKeys_ = std::move(columns);
  return *this;
}

TableDescriptor::Builder& TableDescriptor::Builder::comment(std::string comment) {
  comment_ = std::move(comment);
  return *this;
}

TableDescriptor TableDescriptor::Builder::build() const {
  TableDescriptor descriptor;
  descriptor.schema_ = schema_;
  descriptor.options_ = options_;
  descriptor.partitionKeys_ = partitionKeys_;
  descriptor.comment_ = comment_;
  return descriptor;
}

std::string TableDescriptor::toString() const {
  auto quote = [](const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
      if (c == '\'') quoted += '\'';
      quoted += c;
    }
    return quoted + "'";
  };
  std::string text = schema_ ? schema_->toString() + "\n" : "";
  if (comment_) text += "COMMENT " + quote(*comment_) + "\n";
  if (!partitionKeys_.empty()) {
    text += "PARTITIONED BY (";
    for (size_t i = 0; i < partitionKeys_.size(); ++i) {
      text += (i ? ", " : "") + escapeIdentifier(partitionKeys_[i]);
    }
    text += ")\n";
  }
  text += "WITH (\n";
  size_t i = 0;
  for (const auto& [key, value] : options_) {
    text += "  " + quote(key) + " = " + quote(value) + (++i < options_.size() ? ",\n" : "\n");
  }
  return text + ")";
}

}  // namespace eddy

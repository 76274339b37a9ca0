// NexmarkTableFactory: option parsing, the check of the declared physical columns against the
// nexmark schema, and the table source with its (nested) projection push-down.
#include "connectors/nexmark/nexmark_factory.h"

#include <fmt/format.h>

#include <limits>
#include <set>
#include <vector>

#include "connectors/nexmark/nexmark_source.h"
#include "connectors/table_options.h"
#include "eddy/exceptions.h"
#include "eddy/types/temporal.h"

namespace eddy::connectors {

namespace {

constexpr const char* kFirstEventRate = "first-event.rate";
constexpr const char* kNextEventRate = "next-event.rate";
constexpr const char* kEventsNum = "events.num";
constexpr const char* kPersonProportion = "person.proportion";
constexpr const char* kAuctionProportion = "auction.proportion";
constexpr const char* kBidProportion = "bid.proportion";
constexpr const char* kSeed = "seed";
constexpr const char* kBaseTime = "base-time";
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

// The column of path {i}, and of path {i, k}: kFirstFieldColumns[i] + k.
constexpr NexmarkColumn kTopLevelColumns[] = {NexmarkColumn::EVENT_TYPE, NexmarkColumn::PERSON,
                                              NexmarkColumn::AUCTION, NexmarkColumn::BID};
constexpr NexmarkColumn kFirstFieldColumns[] = {NexmarkColumn::EVENT_TYPE, NexmarkColumn::PERSON_ID,
                                                NexmarkColumn::AUCTION_ID,
                                                NexmarkColumn::BID_AUCTION};

const LogicalType& physicalRowTypeOf(const ConnectorContext& context) {
  if (!context.physicalRowType || context.physicalRowType->getTypeRoot() != LogicalTypeRoot::ROW) {
    throw InternalError(
        fmt::format("The physical row type of table '{}' is not a ROW type.", context.tableName));
  }
  return *context.physicalRowType;
}

std::string joinFieldNames(const LogicalType& rowType) {
  std::string joined;
  for (const RowField& field : rowType.getFields()) {
    if (!joined.empty()) joined += ", ";
    joined += field.name;
  }
  return joined;
}

// The expected type as the error messages print it (any VARCHAR is accepted for a string).
std::string describeExpected(const LogicalType& expected) {
  if (expected.getTypeRoot() == LogicalTypeRoot::VARCHAR) return "STRING (or any VARCHAR(n))";
  return expected.asSummaryString();
}

bool leafTypeMatches(const LogicalType& declared, const LogicalType& expected) {
  if (declared.getTypeRoot() != expected.getTypeRoot()) return false;
  switch (expected.getTypeRoot()) {
    case LogicalTypeRoot::VARCHAR:
      // Like Flink's sources, the values are not cut to a declared length.
      return true;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
      return declared.getPrecision() == expected.getPrecision();
    default:
      return true;
  }
}

// Checks the fields of `declared` against those of `expected` (both ROW types); `parent` is
// the ROW column's name, empty at the top level.
void checkFields(const LogicalType& declared, const LogicalType& expected,
                 const std::string& parent, const std::string& table) {
  const std::vector<RowField>& declaredFields = declared.getFields();
  const std::vector<RowField>& expectedFields = expected.getFields();
  std::string prefix = parent.empty() ? "" : parent + ".";
  auto where = [&](size_t index) {
    return parent.empty() ? fmt::format("position {}", index + 1)
                          : fmt::format("position {} of '{}'", index + 1, parent);
  };
  for (size_t index = 0; index < std::max(declaredFields.size(), expectedFields.size()); ++index) {
    if (index >= declaredFields.size()) {
      throw ValidationException(
          fmt::format("Table '{}' lacks the column '{}{}' ({}) of the nexmark schema.", table,
                      prefix, expectedFields[index].name, where(index)));
    }
    const RowField& field = declaredFields[index];
    std::string name = prefix + field.name;
    if (index >= expectedFields.size()) {
      throw ValidationException(fmt::format(
          "Column '{}' of table '{}' is not in the nexmark schema, {} {} fields: {}.", name, table,
          parent.empty() ? "which has" : fmt::format("whose '{}' has", parent),
          expectedFields.size(), joinFieldNames(expected)));
    }
    const RowField& wanted = expectedFields[index];
    if (field.name != wanted.name) {
      throw ValidationException(
          fmt::format("Column '{}' of table '{}' does not match the nexmark schema: expected "
                      "'{}{}' at {}.",
                      name, table, prefix, wanted.name, where(index)));
    }
    if (wanted.type->getTypeRoot() == LogicalTypeRoot::ROW) {
      if (field.type->getTypeRoot() != LogicalTypeRoot::ROW) {
        throw ValidationException(fmt::format(
            "Column '{}' of table '{}' has type {}, but the nexmark connector produces {}.", name,
            table, field.type->asSummaryString(), wanted.type->asSummaryString()));
      }
      if (!field.type->isNullable()) {
        throw ValidationException(fmt::format(
            "Column '{}' of table '{}' is NOT NULL, but the nexmark connector produces NULL in "
            "it for every event that is not a {}.",
            name, table, wanted.name));
      }
      checkFields(*field.type, *wanted.type, name, table);
    } else if (!leafTypeMatches(*field.type, *wanted.type)) {
      throw ValidationException(fmt::format(
          "Column '{}' of table '{}' has type {}, but the nexmark connector produces {}.", name,
          table, field.type->asSummaryString(), describeExpected(*wanted.type)));
    }
  }
}

int64_t parseBaseTime(const TableOptions& options) {
  std::optional<std::string> text = options.getString(kBaseTime);
  if (!text) return kNexmarkDefaultBaseTimeMillis;
  LocalDateTime time;
  try {
    time = LocalDateTime::parse(*text);
  } catch (const ValidationException&) {
    options.throwUnparsable(kBaseTime, *text,
                            "a UTC timestamp such as '2015-07-15 00:00:00' or "
                            "'2015-07-15 00:00:00.123'");
  }
  if (time.getNanoOfMillisecond() != 0) {
    options.throwInvalid(kBaseTime, *text, "a timestamp with at most millisecond precision");
  }
  return time.getMillisecond();
}

class NexmarkTableSource final : public DynamicTableSource {
 public:
  explicit NexmarkTableSource(NexmarkTableSpec table)
      : table_(std::move(table)),
        channels_(std::make_shared<const NexmarkChannels>(table_.generator.seed)) {
    auto spec = std::make_shared<NexmarkSourceSpec>();
    spec->generator = table_.generator;
    spec->totalEvents = table_.totalEvents;
    spec->columns.assign(std::begin(kTopLevelColumns), std::end(kTopLevelColumns));
    spec->rowType = table_.physicalRowType;
    source_ = std::move(spec);
  }

  bool isBounded() const override { return table_.totalEvents.has_value(); }
  std::shared_ptr<Source<vector::Chunk>> createSource() const override {
    return std::make_shared<NexmarkSource>(source_, channels_);
  }

  bool supportsProjection() const override { return true; }
  bool supportsNestedProjection() const override { return true; }
  LogicalTypePtr applyProjection(const std::vector<std::vector<int>>& paths) override {
    const LogicalType& physical = *table_.physicalRowType;
    auto spec = std::make_shared<NexmarkSourceSpec>(*source_);
    spec->columns.clear();
    std::vector<RowField> fields;
    std::set<std::string> names;
    for (const std::vector<int>& path : paths) {
      if (path.empty() || path.size() > 2 || path[0] < 0 || path[0] >= physical.getFieldCount() ||
          (path.size() == 2 &&
           (path[1] < 0 || path[1] >= physical.getChildren()[path[0]]->getFieldCount()))) {
        throw InternalError(fmt::format("Invalid projection path [{}] for a nexmark table of {}.",
                                        fmt::join(path, ", "), physical.asSummaryString()));
      }
      const RowField& column = physical.getFields()[path[0]];
      std::string name = column.name;
      LogicalTypePtr type = column.type;
      if (path.size() == 1) {
        spec->columns.push_back(kTopLevelColumns[path[0]]);
      } else {
        const RowField& field = column.type->getFields()[path[1]];
        name += "_" + field.name;
        type = field.type->copy(true);
        spec->columns.push_back(
            static_cast<NexmarkColumn>(static_cast<int>(kFirstFieldColumns[path[0]]) + path[1]));
      }
      std::string unique = name;
      for (int suffix = 1; !names.insert(unique).second; ++suffix) {
        unique = fmt::format("{}${}", name, suffix);
      }
      fields.push_back(RowField{unique, type, std::nullopt});
    }
    spec->rowType = LogicalType::row(std::move(fields), physical.isNullable());
    source_ = std::move(spec);
    return source_->rowType;
  }

 private:
  NexmarkTableSpec table_;
  std::shared_ptr<const NexmarkChannels> channels_;
  std::shared_ptr<const NexmarkSourceSpec> source_;  // what createSource() produces
};

}  // namespace

LogicalTypePtr nexmarkPhysicalRowType() {
  auto bigint = LogicalType::simple(LogicalTypeRoot::BIGINT);
  auto string = LogicalType::varchar(LogicalType::kMaxLength);
  auto timestamp = LogicalType::timestamp(3);
  auto field = [](std::string name, LogicalTypePtr type) {
    return RowField{std::move(name), std::move(type), std::nullopt};
  };
  auto person =
      LogicalType::row({field("id", bigint), field("name", string), field("emailAddress", string),
                        field("creditCard", string), field("city", string), field("state", string),
                        field("dateTime", timestamp), field("extra", string)});
  auto auction = LogicalType::row({field("id", bigint), field("itemName", string),
                                   field("description", string), field("initialBid", bigint),
                                   field("reserve", bigint), field("dateTime", timestamp),
                                   field("expires", timestamp), field("seller", bigint),
                                   field("category", bigint), field("extra", string)});
  auto bid =
      LogicalType::row({field("auction", bigint), field("bidder", bigint), field("price", bigint),
                        field("channel", string), field("url", string),
                        field("dateTime", timestamp), field("extra", string)});
  return LogicalType::row({field("event_type", LogicalType::simple(LogicalTypeRoot::INTEGER)),
                           field("person", person), field("auction", auction), field("bid", bid)});
}

NexmarkTableSpec parseNexmarkTableSpec(const ConnectorContext& context) {
  TableOptions options(context);
  NexmarkTableSpec spec;
  NexmarkGeneratorConfig& generator = spec.generator;
  generator.firstEventRate =
      options.getLong(kFirstEventRate, 1, kLongMax).value_or(generator.firstEventRate);
  std::optional<int64_t> nextEventRate = options.getLong(kNextEventRate, 1, kLongMax);
  if (nextEventRate && *nextEventRate != generator.firstEventRate) {
    options.throwInvalid(kNextEventRate, *options.getString(kNextEventRate),
                         fmt::format("{} (the value of '{}'): only a constant event rate is "
                                     "supported",
                                     generator.firstEventRate, kFirstEventRate));
  }
  int64_t totalEvents = options.getLong(kEventsNum, 0, kLongMax).value_or(0);
  if (totalEvents > 0) spec.totalEvents = totalEvents;
  generator.personProportion =
      options.getLong(kPersonProportion, 0, kIntMax).value_or(generator.personProportion);
  generator.auctionProportion =
      options.getLong(kAuctionProportion, 0, kIntMax).value_or(generator.auctionProportion);
  generator.bidProportion =
      options.getLong(kBidProportion, 0, kIntMax).value_or(generator.bidProportion);
  if (generator.totalProportion() == 0) {
    // bid.proportion defaults to 46, so it was set to 0 here.
    options.throwInvalid(kBidProportion, *options.getString(kBidProportion),
                         fmt::format("an integer between 1 and {} when '{}' and '{}' are 0",
                                     kIntMax, kPersonProportion, kAuctionProportion));
  }
  generator.seed = options.getLong(kSeed, kLongMin, kLongMax).value_or(0);
  generator.baseTimeMillis = parseBaseTime(options);

  checkFields(physicalRowTypeOf(context), *nexmarkPhysicalRowType(), "", context.tableName);
  spec.physicalRowType = context.physicalRowType;
  return spec;
}

std::set<std::string> NexmarkTableFactory::optionalOptions() const {
  return {kFirstEventRate,    kNextEventRate, kEventsNum, kPersonProportion,
          kAuctionProportion, kBidProportion, kSeed,      kBaseTime};
}

void NexmarkTableFactory::validateOptions(const ConnectorContext& context) const {
  DynamicTableFactory::validateOptions(context);
  parseNexmarkTableSpec(context);
}

std::unique_ptr<DynamicTableSource> NexmarkTableFactory::createDynamicTableSource(
    const ConnectorContext& context) const {
  return std::make_unique<NexmarkTableSource>(parseNexmarkTableSpec(context));
}

}  // namespace eddy::connectors

// TableEnvironment's own API (include/eddy/table/table_environment.h): its catalogs, queries
// as Tables (sqlQuery, from, fromValues), tables and views registered from the Table API,
// user-defined functions, the StatementSet, and executeSql, which parses a statement and hands
// it to the operation of its kind (operations/statement_operations.h, one file per kind).
// The session behind it is a TableEnvironmentImpl (table_environment_impl.h): how the
// session's options configure jobs is in session_options.cpp; running and explaining queries
// and INSERTs in operations/query.cpp and operations/insert.cpp.
#include "eddy/table/table_environment.h"

#include <algorithm>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "function/function_registry.h"
#include "function/user_defined_function.h"
#include "sql/binder/binder.h"
#include "sql/parser/parser.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/operation_context.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/table_environment_impl.h"

namespace eddy {

// ---- TableEnvironment -----------------------------------------------------------------------

std::unique_ptr<TableEnvironment> TableEnvironment::create(const EnvironmentSettings& settings) {
  return std::make_unique<TableEnvironment>(settings);
}

TableEnvironment::TableEnvironment(const EnvironmentSettings& settings)
    : impl_(std::make_unique<table::TableEnvironmentImpl>(settings)) {}

TableEnvironment::~TableEnvironment() = default;

const EnvironmentSettings& TableEnvironment::getSettings() const { return impl_->settings_; }

TableConfig& TableEnvironment::getConfig() { return impl_->config_; }

namespace table {

TableEnvironmentImpl::TableEnvironmentImpl(const EnvironmentSettings& settings)
    : settings_(settings), catalogManager_(std::make_unique<catalog::CatalogManager>()) {}

Table TableInternals::newTable(TableEnvironment* environment,
                               std::shared_ptr<const sql::LogicalNode> plan) {
  ResolvedSchema schema = ResolvedSchema::fromRowType(plan->rowType);
  return newTable(environment, std::move(plan), std::move(schema));
}

Table TableInternals::newTable(TableEnvironment* environment,
                               std::shared_ptr<const sql::LogicalNode> plan,
                               ResolvedSchema schema) {
  return Table(environment, std::make_shared<const TablePlan>(TablePlan{std::move(plan)}),
               std::move(schema));
}

}  // namespace table

std::vector<std::string> TableEnvironment::listCatalogs() const {
  return impl_->catalogManager().listCatalogs();
}
std::vector<std::string> TableEnvironment::listDatabases() const {
  return impl_->catalogManager()
      .getCatalog(impl_->catalogManager().getCurrentCatalog())
      .listDatabases();
}
std::vector<std::string> TableEnvironment::listTables() const {
  return impl_->catalogManager().listTables(impl_->catalogManager().getCurrentCatalog(),
                                            impl_->catalogManager().getCurrentDatabase());
}
std::string TableEnvironment::getCurrentCatalog() const {
  return impl_->catalogManager().getCurrentCatalog();
}
std::string TableEnvironment::getCurrentDatabase() const {
  return impl_->catalogManager().getCurrentDatabase();
}
void TableEnvironment::useCatalog(const std::string& name) {
  impl_->catalogManager().setCurrentCatalog(name);
}
void TableEnvironment::useDatabase(const std::string& name) {
  impl_->catalogManager().setCurrentDatabase(name);
}

Table TableEnvironment::sqlQuery(const std::string& query) {
  sql::StatementPtr statement = sql::parseStatement(query);
  if (!statement->is<sql::QueryStatement>()) {
    throw ValidationException("Unsupported SQL query! sqlQuery() only accepts a single SQL query.");
  }
  sql::Binder binder(impl_->catalogManager(), impl_->bindingContext());
  return table::TableInternals::newTable(
      this, binder.bindQuery(*statement->as<sql::QueryStatement>().query));
}

namespace {

/// A path of the Table API ("t", "db.t", "cat.db.t", parts optionally in backquotes).
std::vector<std::string> splitPath(const std::string& path) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '`') {
      if (quoted && i + 1 < path.size() && path[i + 1] == '`') {
        parts.back() += '`';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (c == '.' && !quoted) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  for (const std::string& part : parts) {
    if (part.empty() || quoted) throw ValidationException("Invalid path '" + path + "'");
  }
  return parts;
}

}  // namespace

TableResult table::TableEnvironmentImpl::executeInsertPlan(
    const std::string& targetPath, const std::shared_ptr<const sql::LogicalNode>& plan) {
  return runInserts({InsertPlan{splitPath(targetPath), plan, false, {}}});
}

Table TableEnvironment::from(const std::string& path) {
  std::string query = "SELECT * FROM ";
  std::vector<std::string> parts = splitPath(path);
  for (size_t i = 0; i < parts.size(); ++i) query += (i ? "." : "") + escapeIdentifier(parts[i]);
  return sqlQuery(query);
}

Table TableEnvironment::fromValues(const std::vector<Expression>& rows) {
  if (rows.empty()) throw ValidationException("fromValues needs at least one row");
  std::string query = "SELECT * FROM (VALUES ";
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& row = rows[i].asSummaryString();
    query += (i ? ", " : "") + (row.rfind("ROW(", 0) == 0 ? row.substr(3) : "(" + row + ")");
  }
  query += ")";
  Table values = sqlQuery(query);
  std::vector<std::string> names;
  for (int i = 0; i < values.getResolvedSchema().getColumnCount(); ++i)
    names.push_back("f" + std::to_string(i));
  return values.as(names);
}

namespace {
catalog::CatalogBaseTable catalogTableOf(const TableDescriptor& descriptor) {
  if (!descriptor.getSchema()) {
    throw ValidationException(
        "The TableDescriptor needs a schema: eddy does not infer schemas "
        "from connectors or formats yet");
  }
  catalog::CatalogBaseTable table;
  table.schema = *descriptor.getSchema();
  table.options = descriptor.getOptions();
  table.partitionKeys = descriptor.getPartitionKeys();
  table.comment = descriptor.getComment();
  return table;
}
}  // namespace

Table TableEnvironment::from(const TableDescriptor& descriptor) {
  catalog::CatalogBaseTable table = catalogTableOf(descriptor);
  auto connector = table.options.find("connector");
  std::string name = "*anonymous_" +
                     (connector == table.options.end() ? std::string("table") : connector->second) +
                     "$" + std::to_string(++impl_->anonymousTables_) + "*";
  return table::TableInternals::newTable(
      this, sql::planTableScan(impl_->catalogManager(), table, name, sql::MetadataKeys::kCheck,
                               impl_->bindingContext()));
}

void TableEnvironment::createTable(const std::string& path, const TableDescriptor& descriptor) {
  impl_->catalogManager().createTable(catalogTableOf(descriptor),
                                      impl_->catalogManager().qualifyIdentifier(splitPath(path)),
                                      false);
}

void TableEnvironment::createTemporaryTable(const std::string& path,
                                            const TableDescriptor& descriptor) {
  impl_->catalogManager().createTemporaryTable(
      catalogTableOf(descriptor), impl_->catalogManager().qualifyIdentifier(splitPath(path)),
      false);
}

StatementSet TableEnvironment::createStatementSet() { return StatementSet(this); }

// ---- StatementSet ---------------------------------------------------------------------------

StatementSet::StatementSet(TableEnvironment* environment) : environment_(environment) {}
StatementSet::StatementSet(const StatementSet& other) = default;
StatementSet::StatementSet(StatementSet&& other) noexcept = default;
StatementSet& StatementSet::operator=(const StatementSet& other) = default;
StatementSet& StatementSet::operator=(StatementSet&& other) noexcept = default;
StatementSet::~StatementSet() = default;

StatementSet& StatementSet::add(const TablePipeline& pipeline) {
  return addInsert(pipeline.targetPath(), pipeline.table());
}

StatementSet& StatementSet::addInsert(const std::string& targetPath, const Table& table) {
  if (table.environment() != environment_) {
    throw ValidationException("Only tables that belong to this TableEnvironment can be inserted.");
  }
  std::vector<std::string> path = splitPath(targetPath);
  catalog::CatalogManager& catalogs = table::TableInternals::implOf(*environment_).catalogManager();
  catalogs.getTableOrThrow(catalogs.qualifyIdentifier(path));
  inserts_.push_back(
      table::InsertPlan{std::move(path), table::TableInternals::planOf(table), false, {}});
  return *this;
}

StatementSet& StatementSet::addInsertSql(const std::string& statement) {
  sql::StatementPtr parsed = sql::parseStatement(statement);
  if (!parsed->is<sql::InsertStatement>()) {
    throw ValidationException("Only insert statement is supported now.");
  }
  inserts_.push_back(
      table::TableInternals::implOf(*environment_).planInsert(parsed->as<sql::InsertStatement>()));
  return *this;
}

TableResult StatementSet::execute() {
  if (inserts_.empty()) {
    throw TableException(
        "No statement to execute. Please add an INSERT statement or a Table "
        "pipeline to the StatementSet.");
  }
  auto inserts = std::move(inserts_);
  inserts_.clear();
  return table::TableInternals::implOf(*environment_).runInserts(inserts);
}

std::string StatementSet::explain() const {
  if (inserts_.empty()) {
    throw TableException(
        "No statement to explain. Please add an INSERT statement or a Table "
        "pipeline to the StatementSet.");
  }
  return table::TableInternals::implOf(*environment_).explainInserts(inserts_, false);
}
void TableEnvironment::createTemporaryView(const std::string& path, const Table& table) {
  if (table.environment() != this) {
    throw ValidationException(
        "Only tables that belong to this TableEnvironment can be registered.");
  }
  const std::shared_ptr<const sql::LogicalNode>& plan = table::TableInternals::planOf(table);
  catalog::CatalogBaseTable view = table::operations::viewOf("", *plan);
  view.plan = plan;
  impl_->catalogManager().createTemporaryTable(
      std::move(view), impl_->catalogManager().qualifyIdentifier(splitPath(path)), false);
}

bool TableEnvironment::dropTemporaryView(const std::string& path) {
  return impl_->catalogManager().dropTemporaryTable(
      impl_->catalogManager().qualifyIdentifier(splitPath(path)), true, true);
}

void TableEnvironment::createTemporarySystemFunction(const std::string& name,
                                                     ScalarFunctionDefinition function) {
  if (name.empty()) throw ValidationException("A function name must not be empty.");
  if (!function.eval || !function.resultType ||
      std::any_of(function.parameterTypes.begin(), function.parameterTypes.end(),
                  [](const LogicalTypePtr& type) { return type == nullptr; })) {
    throw ValidationException("The definition of function '" + name +
                              "' lacks its evaluation or a type.");
  }
  function::FunctionRegistry& functions = impl_->catalogManager().functions();
  function::ScalarFunction registered =
      function::userDefinedScalarFunction(name, std::move(function));
  const std::vector<std::string> existing = functions.functionNames();
  if (std::find(existing.begin(), existing.end(), registered.name()) != existing.end()) {
    throw ValidationException("Could not register temporary system function. A function named '" +
                              name + "' does already exist.");
  }
  functions.put(std::move(registered));
}

bool TableEnvironment::dropTemporarySystemFunction(const std::string& name) {
  return impl_->catalogManager().functions().remove(name);
}

std::vector<std::string> TableEnvironment::listUserDefinedFunctions() const {
  std::vector<std::string> names;
  for (std::string name : impl_->catalogManager().functions().functionNames()) {
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    names.push_back(std::move(name));
  }
  return names;
}

TableResult TableEnvironment::executeSql(const std::string& text) {
  sql::StatementPtr statement = sql::parseStatement(text);
  // What the operations may use of this environment: its session.
  class Context final : public table::operations::OperationContext {
   public:
    explicit Context(table::TableEnvironmentImpl& session) : session_(session) {}
    catalog::CatalogManager& catalogs() override { return session_.catalogManager(); }
    std::map<std::string, std::string>& configuration() override { return session_.configuration_; }
    function::BindingContext bindingContext() const override { return session_.bindingContext(); }
    bool isStreaming() const override { return session_.isStreaming(); }
    table::SessionJobs& sessionJobs() override { return session_.jobs_; }
    TableResult executePlan(const std::shared_ptr<const sql::LogicalNode>& plan) override {
      return session_.executePlan(plan);
    }
    std::string explainQueryPlan(const std::shared_ptr<const sql::LogicalNode>& plan,
                                 bool changelogMode, bool estimatedCost,
                                 bool jsonExecutionPlan) const override {
      return session_.explainQueryPlan(plan, changelogMode, estimatedCost, jsonExecutionPlan);
    }
    table::InsertPlan planInsert(const sql::InsertStatement& insert) override {
      return session_.planInsert(insert);
    }
    TableResult executeInserts(const std::vector<const sql::InsertStatement*>& inserts) override {
      return session_.executeInserts(inserts);
    }
    TableResult runInserts(const std::vector<table::InsertPlan>& inserts) override {
      return session_.runInserts(inserts);
    }
    std::string explainInserts(const std::vector<table::InsertPlan>& inserts, bool changelogMode,
                               bool estimatedCost, bool jsonExecutionPlan) const override {
      return session_.explainInserts(inserts, changelogMode, estimatedCost, jsonExecutionPlan);
    }

   private:
    table::TableEnvironmentImpl& session_;
  };
  Context context(*impl_);
  namespace operations = table::operations;
  const sql::Statement& parsed = *statement;
  switch (parsed.kind) {
    case sql::StatementKind::kQuery:
      return operations::executeQuery(context, parsed.as<sql::QueryStatement>());
    case sql::StatementKind::kInsert:
      return operations::executeInsert(context, parsed.as<sql::InsertStatement>());
    case sql::StatementKind::kStatementSet:
      return operations::executeStatementSet(context, parsed.as<sql::StatementSetStatement>());
    case sql::StatementKind::kExecute: {
      // EXECUTE INSERT ... / EXECUTE SELECT ...: the statement it wraps.
      const sql::Statement& inner = *parsed.as<sql::ExecuteStatement>().statement;
      if (inner.is<sql::InsertStatement>()) {
        return operations::executeInsert(context, inner.as<sql::InsertStatement>());
      }
      if (inner.is<sql::QueryStatement>()) {
        return operations::executeQuery(context, inner.as<sql::QueryStatement>());
      }
      throw ValidationException("EXECUTE accepts a query or an INSERT statement");
    }
    case sql::StatementKind::kCreateView:
      return operations::createView(context, parsed.as<sql::CreateViewStatement>());
    case sql::StatementKind::kCreateTable:
      return operations::createTable(context, parsed.as<sql::CreateTableStatement>());
    case sql::StatementKind::kCreateDatabase:
      return operations::createDatabase(context, parsed.as<sql::CreateDatabaseStatement>());
    case sql::StatementKind::kDrop:
      return operations::drop(context, parsed.as<sql::DropStatement>());
    case sql::StatementKind::kAlterTable:
      return operations::alterTable(context, parsed.as<sql::AlterTableStatement>());
    case sql::StatementKind::kCreateCatalog:
      return operations::createCatalog(context, parsed.as<sql::CreateCatalogStatement>());
    case sql::StatementKind::kUseCatalog:
      return operations::useCatalog(context, parsed.as<sql::UseCatalogStatement>());
    case sql::StatementKind::kUseDatabase:
      return operations::useDatabase(context, parsed.as<sql::UseDatabaseStatement>());
    case sql::StatementKind::kShow:
      return operations::show(context, parsed.as<sql::ShowStatement>());
    case sql::StatementKind::kDescribe:
      return operations::describe(context, parsed.as<sql::DescribeStatement>());
    case sql::StatementKind::kExplain:
      return operations::explain(context, parsed.as<sql::ExplainStatement>());
    case sql::StatementKind::kSet:
      return operations::set(context, parsed.as<sql::SetStatement>());
    case sql::StatementKind::kReset:
      return operations::reset(context, parsed.as<sql::ResetStatement>());
    case sql::StatementKind::kStopJob:
      return operations::stopJob(context, parsed.as<sql::StopJobStatement>());
    default:
      break;
  }
  throw TableException("Unsupported statement (not yet in eddy): " + statement->sourceText);
}

}  // namespace eddy

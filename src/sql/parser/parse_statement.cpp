// Statements (recursive_descent_parser.h): queries, INSERT and statement sets, CREATE / DROP /
// ALTER of catalogs, databases, tables (schema elements, LIKE, AS SELECT), views and functions,
// USE, SHOW, DESCRIBE, EXPLAIN, SET, RESET, EXECUTE and the job statements (SHOW JOBS, STOP
// JOB). Each statement records its own source text (parseStatementWithText) for the SQL client
// and EXPLAIN.
#include "sql/parser/recursive_descent_parser.h"

namespace eddy::sql::detail {

StatementPtr Parser::parseStatementWithText() {
  const Token& first = peek();
  StatementPtr statement = parseStatementBody();
  statement->position = first.position;
  statement->sourceText = std::string(sql_.substr(first.begin, previous().end - first.begin));
  return statement;
}

StatementPtr Parser::parseStatementBody() {
  DepthGuard guard(*this);
  if (isQueryStart()) {
    auto statement = makeNode<QueryStatement>(peek().position);
    statement->query = parseQuery();
    return statement;
  }
  if (isKeyword("INSERT")) return parseInsert();
  if (isKeyword("CREATE")) return parseCreate();
  if (isKeyword("REPLACE")) {
    SourcePosition position = next().position;
    expectKeyword("TABLE");
    return parseCreateTable(position, false, CreateTableStatement::Replace::kReplace);
  }
  if (isKeyword("DROP")) return parseDrop();
  if (isKeyword("ALTER")) return parseAlter();
  if (isKeyword("USE")) return parseUse();
  if (isKeyword("SHOW")) return parseShow();
  if (isKeyword("DESCRIBE") || isKeyword("DESC")) return parseDescribe();
  if (isKeyword("EXPLAIN")) return parseExplain();
  if (isKeyword("SET")) return parseSet();
  if (isKeyword("RESET")) return parseReset();
  if (isKeyword("EXECUTE")) return parseExecute();
  // A lookahead of two, as Flink's: `STOP` alone is no statement start (it is not reserved).
  if (isKeyword("STOP") && isKeyword("JOB", 1)) return parseStopJob();
  if (isKeyword("BEGIN")) {
    SourcePosition position = next().position;
    expectKeyword("STATEMENT");
    expectKeyword("SET");
    expectSymbol(";");
    return parseStatementSetBody(position);
  }
  failExpected({"\"SELECT\"", "\"INSERT\"", "\"CREATE\"", "\"DROP\"", "\"ALTER\"", "\"USE\"",
                "\"SHOW\"", "\"DESCRIBE\"", "\"EXPLAIN\"", "\"SET\"", "\"RESET\"", "\"EXECUTE\"",
                "\"BEGIN\"", "\"VALUES\"", "\"WITH\""});
}

// The INSERTs of a statement set up to and including END.
StatementPtr Parser::parseStatementSetBody(SourcePosition position) {
  auto set = makeNode<StatementSetStatement>(position);
  while (true) {
    while (acceptSymbol(";")) {
    }
    if (acceptKeyword("END")) break;
    if (!isKeyword("INSERT")) failExpected({"\"INSERT\"", "\"END\""});
    set->statements.push_back(parseStatementWithText());
    if (!isKeyword("END")) expectSymbol(";");
  }
  return set;
}

StatementPtr Parser::parseInsert() {
  auto insert = makeNode<InsertStatement>(next().position);
  if (acceptKeyword("OVERWRITE")) {
    insert->overwrite = true;
  } else {
    expectKeyword("INTO");
  }
  insert->tableName = parseQualifiedName();
  if (acceptKeyword("PARTITION")) {
    expectSymbol("(");
    do {
      PartitionValue value;
      value.column = parseIdentifier();
      expectSymbol("=");
      value.value = parseAdditive();
      insert->partition.push_back(std::move(value));
    } while (acceptSymbol(","));
    expectSymbol(")");
  }
  if (isSymbol("(") && !isQueryStart()) {
    insert->columns = parseParenthesizedIdentifiers();
  }
  if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
  insert->query = parseQuery();
  return insert;
}

bool Parser::parseIfNotExists() {
  if (!acceptKeyword("IF")) return false;
  expectKeyword("NOT");
  expectKeyword("EXISTS");
  return true;
}

bool Parser::parseIfExists() {
  if (!acceptKeyword("IF")) return false;
  expectKeyword("EXISTS");
  return true;
}

std::optional<std::string> Parser::parseOptionalComment() {
  if (acceptKeyword("COMMENT")) return parseStringLiteral();
  return std::nullopt;
}

StatementPtr Parser::parseCreate() {
  SourcePosition position = next().position;
  if (acceptKeyword("OR")) {
    expectKeyword("REPLACE");
    expectKeyword("TABLE");
    return parseCreateTable(position, false, CreateTableStatement::Replace::kCreateOrReplace);
  }
  bool temporary = acceptKeyword("TEMPORARY");
  if (acceptKeyword("TABLE")) return parseCreateTable(position, temporary);
  if (acceptKeyword("VIEW")) return parseCreateView(position, temporary);
  if (!temporary) {
    if (acceptKeyword("DATABASE")) {
      auto create = makeNode<CreateDatabaseStatement>(position);
      create->ifNotExists = parseIfNotExists();
      create->databaseName = parseQualifiedName();
      create->comment = parseOptionalComment();
      if (acceptKeyword("WITH")) create->options = parseOptions();
      return create;
    }
    if (acceptKeyword("CATALOG")) {
      auto create = makeNode<CreateCatalogStatement>(position);
      create->ifNotExists = parseIfNotExists();
      create->catalogName = parseIdentifier();
      create->comment = parseOptionalComment();
      expectKeyword("WITH");
      create->options = parseOptions();
      return create;
    }
  }
  failExpected();
}

// `[CONSTRAINT name] PRIMARY KEY` with the current token at CONSTRAINT or PRIMARY.
PrimaryKeyConstraint Parser::parsePrimaryKeyStart() {
  PrimaryKeyConstraint key;
  key.position = peek().position;
  if (acceptKeyword("CONSTRAINT")) key.name = parseIdentifier();
  expectKeyword("PRIMARY");
  expectKeyword("KEY");
  return key;
}

void Parser::parseEnforcement(PrimaryKeyConstraint& key) {
  if (acceptKeyword("NOT")) {
    expectKeyword("ENFORCED");
    key.notEnforced = true;
  } else {
    acceptKeyword("ENFORCED");
  }
}

void Parser::setPrimaryKey(std::optional<PrimaryKeyConstraint>& target, PrimaryKeyConstraint key) {
  if (target) {
    failAt(key.position, fmt::format("Duplicate primary key definition at line {}, column {}.",
                                     key.position.line, key.position.column));
  }
  target = std::move(key);
}

// One element of a table schema: a column, a WATERMARK or a PRIMARY KEY.
/// One element of a CREATE TABLE schema or an ALTER TABLE ADD/MODIFY list; `placed`: a
/// column may end with `FIRST` or `AFTER column` (ALTER TABLE).
void Parser::parseSchemaElement(std::vector<TableColumn>& columns,
                                std::vector<WatermarkDefinition>& watermarks,
                                std::optional<PrimaryKeyConstraint>& primaryKey, bool placed) {
  if (isKeyword("WATERMARK") && isKeyword("FOR", 1)) {
    WatermarkDefinition watermark;
    watermark.position = next().position;
    next();
    watermark.column = parseQualifiedName();
    expectKeyword("AS");
    watermark.expression = parseExpression();
    watermarks.push_back(std::move(watermark));
    return;
  }
  if (isKeyword("CONSTRAINT") || (isKeyword("PRIMARY") && isKeyword("KEY", 1))) {
    PrimaryKeyConstraint key = parsePrimaryKeyStart();
    key.columns = parseParenthesizedIdentifiers();
    parseEnforcement(key);
    setPrimaryKey(primaryKey, std::move(key));
    return;
  }
  TableColumn column;
  column.position = peek().position;
  column.name = parseIdentifier();
  if (!placed && (isSymbol(",") || isSymbol(")"))) {
    // A bare name: a CTAS column list (parseCreateTable rejects it elsewhere; ALTER TABLE
    // expects a type here).
    columns.push_back(std::move(column));
    return;
  }
  if (acceptKeyword("AS")) {
    column.kind = ColumnKind::kComputed;
    column.expression = parseExpression();
  } else {
    column.type = parseType();
    if (acceptKeyword("METADATA")) {
      column.kind = ColumnKind::kMetadata;
      if (acceptKeyword("FROM")) column.metadataKey = parseStringLiteral();
      column.isVirtual = acceptKeyword("VIRTUAL");
    } else if (isKeyword("CONSTRAINT") || isKeyword("PRIMARY")) {
      PrimaryKeyConstraint key = parsePrimaryKeyStart();
      key.columns = {column.name};
      parseEnforcement(key);
      setPrimaryKey(primaryKey, std::move(key));
    }
  }
  column.comment = parseOptionalComment();
  if (placed && acceptKeyword("FIRST")) {
    column.placement = TableColumn::Placement::kFirst;
  } else if (placed && acceptKeyword("AFTER")) {
    column.placement = TableColumn::Placement::kAfter;
    column.afterColumn = parseIdentifier();
  }
  columns.push_back(std::move(column));
}

StatementPtr Parser::parseCreateTable(SourcePosition position, bool temporary,
                                      CreateTableStatement::Replace replace) {
  auto create = makeNode<CreateTableStatement>(position);
  create->temporary = temporary;
  create->replace = replace;
  if (replace == CreateTableStatement::Replace::kNo) create->ifNotExists = parseIfNotExists();
  create->tableName = parseQualifiedName();
  if (acceptSymbol("(")) {
    do {
      parseSchemaElement(create->columns, create->watermarks, create->primaryKey);
    } while (acceptSymbol(","));
    expectSymbol(")");
  }
  create->comment = parseOptionalComment();
  if (acceptKeyword("PARTITIONED")) {
    expectKeyword("BY");
    create->partitionKeys = parseParenthesizedIdentifiers();
  }
  if (acceptKeyword("WITH")) create->options = parseOptions();
  if (replace == CreateTableStatement::Replace::kNo && acceptKeyword("LIKE")) {
    LikeClause like;
    like.position = previous().position;
    like.sourceTable = parseQualifiedName();
    if (acceptSymbol("(")) {
      while (!acceptSymbol(")")) like.options.push_back(parseLikeOption());
    }
    create->like = std::move(like);
  }
  if (acceptKeyword("AS")) {
    if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
    create->asQuery = parseQuery();
  } else if (replace != CreateTableStatement::Replace::kNo) {
    failExpected({"\"AS\""});
  }
  if (!create->asQuery) {
    for (const TableColumn& column : create->columns) {
      if (column.kind == ColumnKind::kPhysical && !column.type) {
        failAt(column.position,
               fmt::format("Column '{}' has no data type; a column list of bare names is "
                           "only allowed in CREATE TABLE .. AS SELECT",
                           column.name));
      }
    }
  }
  return create;
}

LikeOption Parser::parseLikeOption() {
  LikeOption option;
  if (acceptKeyword("INCLUDING")) {
    option.strategy = LikeStrategy::kIncluding;
  } else if (acceptKeyword("EXCLUDING")) {
    option.strategy = LikeStrategy::kExcluding;
  } else if (acceptKeyword("OVERWRITING")) {
    option.strategy = LikeStrategy::kOverwriting;
  } else {
    failExpected();
  }
  static constexpr std::pair<std::string_view, LikeFeature> kFeatures[] = {
      {"ALL", LikeFeature::kAll},
      {"CONSTRAINTS", LikeFeature::kConstraints},
      {"GENERATED", LikeFeature::kGenerated},
      {"METADATA", LikeFeature::kMetadata},
      {"OPTIONS", LikeFeature::kOptions},
      {"PARTITIONS", LikeFeature::kPartitions},
      {"WATERMARKS", LikeFeature::kWatermarks}};
  for (const auto& [name, feature] : kFeatures) {
    if (acceptKeyword(name)) {
      option.feature = feature;
      return option;
    }
  }
  failExpected();
}

StatementPtr Parser::parseCreateView(SourcePosition position, bool temporary) {
  auto create = makeNode<CreateViewStatement>(position);
  create->temporary = temporary;
  create->ifNotExists = parseIfNotExists();
  create->viewName = parseQualifiedName();
  if (isSymbol("(")) create->columns = parseParenthesizedIdentifiers();
  create->comment = parseOptionalComment();
  expectKeyword("AS");
  if (!isQueryStart()) failExpected({"\"SELECT\"", "\"VALUES\"", "\"WITH\"", "\"(\""});
  create->query = parseQuery();
  return create;
}

StatementPtr Parser::parseDrop() {
  auto drop = makeNode<DropStatement>(next().position);
  drop->temporary = acceptKeyword("TEMPORARY");
  if (acceptKeyword("TABLE")) {
    drop->objectKind = ObjectKind::kTable;
  } else if (acceptKeyword("VIEW")) {
    drop->objectKind = ObjectKind::kView;
  } else if (!drop->temporary && acceptKeyword("DATABASE")) {
    drop->objectKind = ObjectKind::kDatabase;
  } else if (!drop->temporary && acceptKeyword("CATALOG")) {
    drop->objectKind = ObjectKind::kCatalog;
  } else {
    failExpected();
  }
  drop->ifExists = parseIfExists();
  drop->name = parseQualifiedName();
  if (drop->objectKind == ObjectKind::kDatabase) {
    if (acceptKeyword("CASCADE")) {
      drop->cascade = true;
    } else {
      acceptKeyword("RESTRICT");
    }
  }
  return drop;
}

StatementPtr Parser::parseAlter() {
  SourcePosition position = next().position;
  expectKeyword("TABLE");
  auto alter = makeNode<AlterTableStatement>(position);
  alter->ifExists = parseIfExists();
  alter->tableName = parseQualifiedName();
  if (acceptKeyword("RENAME")) {
    if (acceptKeyword("TO")) {
      alter->action = AlterTableAction::kRename;
      alter->newName = parseQualifiedName();
    } else {
      alter->action = AlterTableAction::kRenameColumn;
      alter->column = parseIdentifier();
      expectKeyword("TO");
      alter->newColumnName = parseIdentifier();
    }
  } else if (acceptKeyword("DROP")) {
    if (acceptKeyword("PRIMARY")) {
      expectKeyword("KEY");
      alter->action = AlterTableAction::kDropPrimaryKey;
    } else if (acceptKeyword("CONSTRAINT")) {
      alter->action = AlterTableAction::kDropPrimaryKey;
      alter->constraintName = parseIdentifier();
    } else if (acceptKeyword("WATERMARK")) {
      alter->action = AlterTableAction::kDropWatermark;
    } else {
      alter->action = AlterTableAction::kDropColumns;
      if (isSymbol("(")) {
        alter->dropColumns = parseParenthesizedIdentifiers();
      } else {
        alter->dropColumns.push_back(parseIdentifier());
      }
    }
  } else if (acceptKeyword("SET")) {
    alter->action = AlterTableAction::kSetOptions;
    alter->options = parseOptions();
  } else if (acceptKeyword("RESET")) {
    alter->action = AlterTableAction::kResetOptions;
    expectSymbol("(");
    do {
      alter->resetKeys.push_back(parseStringLiteral());
    } while (acceptSymbol(","));
    expectSymbol(")");
  } else if (isKeyword("ADD") || isKeyword("MODIFY")) {
    alter->action = next().keyword == "ADD" ? AlterTableAction::kAdd : AlterTableAction::kModify;
    if (acceptSymbol("(")) {
      do {
        parseSchemaElement(alter->columns, alter->watermarks, alter->primaryKey, /*placed=*/true);
      } while (acceptSymbol(","));
      expectSymbol(")");
    } else {
      parseSchemaElement(alter->columns, alter->watermarks, alter->primaryKey, /*placed=*/true);
    }
  } else {
    failExpected();
  }
  return alter;
}

StatementPtr Parser::parseUse() {
  SourcePosition position = next().position;
  if (isKeyword("CATALOG") && !isSymbol(".", 1) && !atEndOfStatement(1)) {
    next();
    auto use = makeNode<UseCatalogStatement>(position);
    use->catalogName = parseIdentifier();
    return use;
  }
  auto use = makeNode<UseDatabaseStatement>(position);
  use->databaseName = parseQualifiedName();
  return use;
}

bool Parser::atEndOfStatement(size_t ahead) const {
  return peek(ahead).kind == TokenKind::kEnd || isSymbol(";", ahead);
}

void Parser::parseShowLike(ShowStatement& show) {
  if (isKeyword("NOT") && isKeyword("LIKE", 1)) {
    position_ += 2;
    show.notLike = true;
    show.likePattern = parseStringLiteral();
  } else if (acceptKeyword("LIKE")) {
    show.likePattern = parseStringLiteral();
  }
}

StatementPtr Parser::parseShow() {
  auto show = makeNode<ShowStatement>(next().position);
  auto parseFromName = [&](bool required) {
    if (acceptKeyword("FROM") || acceptKeyword("IN")) {
      show->name = parseQualifiedName();
    } else if (required) {
      failExpected();
    }
  };
  if (acceptKeyword("CATALOGS")) {
    show->showKind = ShowKind::kCatalogs;
  } else if (acceptKeyword("CURRENT")) {
    if (acceptKeyword("CATALOG")) {
      show->showKind = ShowKind::kCurrentCatalog;
    } else {
      expectKeyword("DATABASE");
      show->showKind = ShowKind::kCurrentDatabase;
    }
  } else if (acceptKeyword("DATABASES")) {
    show->showKind = ShowKind::kDatabases;
  } else if (acceptKeyword("TABLES")) {
    show->showKind = ShowKind::kTables;
    parseFromName(false);
    parseShowLike(*show);
  } else if (acceptKeyword("VIEWS")) {
    show->showKind = ShowKind::kViews;
    parseFromName(false);
  } else if (acceptKeyword("FUNCTIONS")) {
    show->showKind = ShowKind::kFunctions;
  } else if (acceptKeyword("JOBS")) {
    show->showKind = ShowKind::kJobs;
  } else if (acceptKeyword("COLUMNS")) {
    show->showKind = ShowKind::kColumns;
    parseFromName(true);
    parseShowLike(*show);
  } else if (acceptKeyword("CREATE")) {
    if (acceptKeyword("TABLE")) {
      show->showKind = ShowKind::kCreateTable;
    } else {
      expectKeyword("VIEW");
      show->showKind = ShowKind::kCreateView;
    }
    show->name = parseQualifiedName();
  } else {
    failExpected();
  }
  return show;
}

StatementPtr Parser::parseStopJob() {
  auto stop = makeNode<StopJobStatement>(next().position);
  next();  // JOB
  stop->jobId = parseStringLiteral();
  if (isKeyword("WITH") && isKeyword("SAVEPOINT", 1)) {
    position_ += 2;
    stop->withSavepoint = true;
  }
  if (isKeyword("WITH") && isKeyword("DRAIN", 1)) {
    if (!stop->withSavepoint) {
      // Flink's ParserResource#withDrainOnlyUsedWithSavepoint, with Calcite's span of WITH DRAIN.
      const Token& drain = peek(1);
      failAt(peek().position,
             fmt::format("From line {}, column {} to line {}, column {}: WITH DRAIN could only be "
                         "used after WITH SAVEPOINT.",
                         peek().position.line, peek().position.column, drain.position.line,
                         drain.position.column + static_cast<int>(drain.end - drain.begin) - 1));
    }
    position_ += 2;
    stop->withDrain = true;
  }
  return stop;
}

StatementPtr Parser::parseDescribe() {
  auto describe = makeNode<DescribeStatement>(next().position);
  describe->extended = acceptKeyword("EXTENDED");
  describe->tableName = parseQualifiedName();
  return describe;
}

StatementPtr Parser::parseExplain() {
  auto explain = makeNode<ExplainStatement>(next().position);
  if (acceptKeyword("PLAN")) {
    expectKeyword("FOR");
    explain->planFor = true;
  } else {
    static constexpr std::pair<std::string_view, ExplainDetail> kDetails[] = {
        {"CHANGELOG_MODE", ExplainDetail::kChangelogMode},
        {"ESTIMATED_COST", ExplainDetail::kEstimatedCost},
        {"JSON_EXECUTION_PLAN", ExplainDetail::kJsonExecutionPlan},
        {"PLAN_ADVICE", ExplainDetail::kPlanAdvice}};
    bool more = true;
    while (more) {
      more = false;
      for (const auto& [name, detail] : kDetails) {
        if (isKeyword(name)) {
          next();
          explain->details.push_back(detail);
          if (acceptSymbol(",")) {
            more = true;
          }
          break;
        }
      }
    }
  }
  SourcePosition position = peek().position;
  if (isKeyword("STATEMENT") && isKeyword("SET", 1)) {
    position_ += 2;
    expectKeyword("BEGIN");
    explain->statement = parseStatementSetBody(position);
    explain->statement->sourceText = "";
  } else if (isKeyword("INSERT") || isQueryStart() || isKeyword("REPLACE") ||
             (isKeyword("CREATE") && (isKeyword("TABLE", 1) || isKeyword("OR", 1)))) {
    explain->statement = parseStatementWithText();
    if (explain->statement->is<CreateTableStatement>() &&
        !explain->statement->as<CreateTableStatement>().asQuery) {
      failAt(explain->statement->position,
             "EXPLAIN of CREATE TABLE needs AS SELECT (CREATE TABLE .. AS SELECT or REPLACE "
             "TABLE .. AS SELECT)");
    }
  } else {
    failExpected({"\"SELECT\"", "\"INSERT\"", "\"CREATE\"", "\"REPLACE\"", "\"STATEMENT\"",
                  "\"VALUES\"", "\"WITH\""});
  }
  return explain;
}

StatementPtr Parser::parseSet() {
  auto set = makeNode<SetStatement>(next().position);
  if (peek().kind == TokenKind::kString) {
    set->key = next().text;
    expectSymbol("=");
    set->value = parseStringLiteral();
  }
  return set;
}

StatementPtr Parser::parseReset() {
  auto reset = makeNode<ResetStatement>(next().position);
  if (peek().kind == TokenKind::kString) reset->key = next().text;
  return reset;
}

StatementPtr Parser::parseExecute() {
  SourcePosition position = next().position;
  if (isKeyword("STATEMENT") && isKeyword("SET", 1)) {
    position_ += 2;
    expectKeyword("BEGIN");
    return parseStatementSetBody(position);
  }
  auto execute = makeNode<ExecuteStatement>(position);
  if (isKeyword("INSERT") || isQueryStart()) {
    execute->statement = parseStatementWithText();
  } else {
    failExpected({"\"STATEMENT\"", "\"INSERT\"", "\"SELECT\"", "\"VALUES\"", "\"WITH\""});
  }
  return execute;
}

}  // namespace eddy::sql::detail

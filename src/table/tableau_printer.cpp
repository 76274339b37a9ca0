#include "table/tableau_printer.h"

#include <fmt/format.h>
#include <utf8proc.h>

#include <algorithm>

#include "function/scalar/cast.h"

namespace eddy::table {

namespace {

// Flink 1.15+ (PrintStyle.NULL_VALUE; Flink 1.14 printed "(NULL)").
constexpr const char* kNull = "<NULL>";
constexpr const char* kTruncated = "...";

/// The columns a value of `type` takes at most (strings and other unbounded kinds: `maxWidth`).
int typeWidth(const LogicalType& type, int maxWidth) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
      return 4;
    case LogicalTypeRoot::SMALLINT:
      return 6;
    case LogicalTypeRoot::INTEGER:
      return 11;
    case LogicalTypeRoot::BIGINT:
      return 20;
    case LogicalTypeRoot::DECIMAL:
      return type.getPrecision() + 2;
    case LogicalTypeRoot::BOOLEAN:
      return 5;
    case LogicalTypeRoot::DATE:
      return 10;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      return type.getPrecision() == 0 ? 8 : type.getPrecision() + 9;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
      int precision = type.getPrecision();
      return precision == 0 ? 19 : precision <= 3 ? 23 : precision <= 6 ? 26 : 29;
    }
    default:
      return maxWidth;
  }
}

/// `text` cut to `width` display columns, padded on the left when a wide character does not fit.
std::string truncate(const std::string& text, int width) {
  std::string result;
  int used = 0;
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  utf8proc_ssize_t offset = 0;
  while (offset < static_cast<utf8proc_ssize_t>(text.size())) {
    utf8proc_int32_t codePoint;
    utf8proc_ssize_t length = utf8proc_iterate(bytes + offset, text.size() - offset, &codePoint);
    if (length <= 0) length = 1;
    int charWidth = codePoint >= 0 && utf8proc_charwidth(codePoint) == 2 ? 2 : 1;
    if (used + charWidth > width) break;
    result.append(text, offset, length);
    used += charWidth;
    offset += length;
  }
  return std::string(width - used, ' ') + result;
}

}  // namespace

int TableauPrinter::displayWidth(std::string_view text) {
  int width = 0;
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  utf8proc_ssize_t offset = 0;
  while (offset < static_cast<utf8proc_ssize_t>(text.size())) {
    utf8proc_int32_t codePoint;
    utf8proc_ssize_t length = utf8proc_iterate(bytes + offset, text.size() - offset, &codePoint);
    if (length <= 0) length = 1;  // invalid UTF-8: one column per byte
    width += codePoint >= 0 && utf8proc_charwidth(codePoint) == 2 ? 2 : 1;
    offset += length;
  }
  return width;
}

std::string TableauPrinter::formatField(const Value& value, const LogicalType& type,
                                        const common::SessionTimeZone& zone) {
  if (value.isNull()) return kNull;
  // Flink's tableau shows a field as its CAST to STRING (RowDataToStringConverterImpl over the
  // cast rules): TRUE/FALSE, DECIMALs in plain notation, intervals as +1 00:00:00.000 and
  // +1-00, TIMESTAMP_LTZ in the session zone, nested values as [1, NULL] / {a=1} / (1, abc).
  // Binary strings and the types no cast to STRING takes (RAW, STRUCTURED) print as the value
  // prints itself.
  const LogicalTypePtr shown = type.copy(true);
  static const LogicalTypePtr kString = LogicalType::varchar(LogicalType::kMaxLength, false);
  if (!type.isBinaryString() && function::isCastSupported(*shown, *kString)) {
    return function::castToStringText(value, shown, zone);
  }
  return value.toString();
}

std::string TableauPrinter::borderLine(const std::vector<int>& widths) {
  std::string text = "+";
  for (int width : widths) text += std::string(width + 2, '-') + "+";
  return text;
}

std::string TableauPrinter::line(const std::vector<int>& widths,
                                 const std::vector<std::string>& cells) {
  std::string text = "|";
  for (size_t i = 0; i < cells.size(); ++i) {
    int width = displayWidth(cells[i]);
    text += " ";
    if (width <= widths[i]) {
      text += std::string(widths[i] - width, ' ') + cells[i];
    } else {
      text += truncate(cells[i], widths[i] - 3) + kTruncated;
    }
    text += " |";
  }
  return text;
}

void TableauPrinter::printBatch(const std::vector<TableauColumn>& columns,
                                const std::vector<Row>& rows, std::ostream& out,
                                const common::SessionTimeZone& zone, int maxColumnWidth) {
  if (rows.empty()) {
    out << "Empty set\n";
    return;
  }
  std::vector<std::string> header;
  std::vector<int> widths;
  for (const TableauColumn& column : columns) {
    header.push_back(column.name);
    widths.push_back(displayWidth(column.name));
  }
  std::vector<std::vector<std::string>> cells;
  for (const Row& row : rows) {
    std::vector<std::string> rowCells;
    for (size_t i = 0; i < columns.size(); ++i) {
      rowCells.push_back(formatField(row.getField(static_cast<int>(i)), *columns[i].type, zone));
      widths[i] = std::max(widths[i], displayWidth(rowCells.back()));
    }
    cells.push_back(std::move(rowCells));
  }
  for (int& width : widths) width = std::min(width, maxColumnWidth);
  std::string border = borderLine(widths);
  out << border << "\n" << line(widths, header) << "\n" << border << "\n";
  for (const auto& rowCells : cells) out << line(widths, rowCells) << "\n";
  out << border << "\n" << rows.size() << (rows.size() > 1 ? " rows" : " row") << " in set\n";
}

TableauPrinter::TableauPrinter(std::vector<TableauColumn> columns, std::ostream& out,
                               common::SessionTimeZone zone, int maxColumnWidth)
    : columns_(std::move(columns)), out_(out), zone_(std::move(zone)) {
  widths_.push_back(2);  // "op"
  for (const TableauColumn& column : columns_) {
    int nullWidth = static_cast<int>(std::char_traits<char>::length(kNull));
    widths_.push_back(std::max(displayWidth(column.name),
                               std::max(typeWidth(*column.type, maxColumnWidth), nullWidth)));
  }
}

std::vector<std::string> TableauPrinter::cellsOf(const Row& row) const {
  std::vector<std::string> cells{std::string(shortString(row.getKind()))};
  for (size_t i = 0; i < columns_.size(); ++i) {
    cells.push_back(formatField(row.getField(static_cast<int>(i)), *columns_[i].type, zone_));
  }
  return cells;
}

void TableauPrinter::begin() {
  std::vector<std::string> header{"op"};
  for (const TableauColumn& column : columns_) header.push_back(column.name);
  std::string border = borderLine(widths_);
  out_ << border << "\n" << line(widths_, header) << "\n" << border << "\n";
  out_.flush();
}

void TableauPrinter::printRow(const Row& row) {
  out_ << line(widths_, cellsOf(row)) << "\n";
  out_.flush();
  ++rowCount_;
}

void TableauPrinter::end() {
  if (rowCount_ == 0) {
    // Flink prints the header, then says nothing arrived.
    out_ << borderLine(widths_) << "\nEmpty set\n";
    return;
  }
  out_ << borderLine(widths_) << "\nReceived a total of " << rowCount_
       << (rowCount_ > 1 ? " rows" : " row") << "\n";
  out_.flush();
}

}  // namespace eddy::table

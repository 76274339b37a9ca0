// TypeInformation: Flink's toString forms and the TypeInformation → DataType mapping of
// Flink's TypeInfoDataTypeConverter.
#include "eddy/types/type_information.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <set>

#include "eddy/exceptions.h"

namespace eddy {

namespace types {
std::string demangledTypeName(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(type.name());
}
}  // namespace types

int TypeInformation::getArity() const {
  if (kind_ == Kind::ROW || kind_ == Kind::TUPLE) return static_cast<int>(children_.size());
  return 1;
}

std::string TypeInformation::toString() const {
  switch (kind_) {
    case Kind::STRING:
      return "String";
    case Kind::BOOLEAN:
      return "Boolean";
    case Kind::BYTE:
      return "Byte";
    case Kind::SHORT:
      return "Short";
    case Kind::INT:
      return "Integer";
    case Kind::LONG:
      return "Long";
    case Kind::FLOAT:
      return "Float";
    case Kind::DOUBLE:
      return "Double";
    case Kind::BIG_DEC:
      return "BigDecimal";
    case Kind::LOCAL_DATE:
      return "LocalDate";
    case Kind::LOCAL_TIME:
      return "LocalTime";
    case Kind::LOCAL_DATE_TIME:
      return "LocalDateTime";
    case Kind::INSTANT:
      return "Instant";
    case Kind::ROW: {
      if (!knownFields_) return "Row";
      std::string out = "Row(";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) out.append(", ");
        out.append(fieldNames_[i]).append(": ").append(children_[i].toString());
      }
      return out + ")";
    }
    case Kind::TUPLE: {
      std::string out = fmt::format("Java Tuple{}<", children_.size());
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i > 0) out.append(", ");
        out.append(children_[i].toString());
      }
      return out + ">";
    }
    case Kind::GENERIC:
      return "GenericType<" + className_ + ">";
    case Kind::LIST:
      return "List<" + children_[0].toString() + ">";
    case Kind::MAP:
      return "Map<" + children_[0].toString() + ", " + children_[1].toString() + ">";
  }
  return "?";
}

DataType TypeInformation::toDataType() const {
  switch (kind_) {
    case Kind::STRING:
      return DataTypes::STRING();
    case Kind::BOOLEAN:
      return DataTypes::BOOLEAN();
    case Kind::BYTE:
      return DataTypes::TINYINT();
    case Kind::SHORT:
      return DataTypes::SMALLINT();
    case Kind::INT:
      return DataTypes::INT();
    case Kind::LONG:
      return DataTypes::BIGINT();
    case Kind::FLOAT:
      return DataTypes::FLOAT();
    case Kind::DOUBLE:
      return DataTypes::DOUBLE();
    case Kind::BIG_DEC:
      return DataTypes::DECIMAL(38, 18);
    case Kind::LOCAL_DATE:
      return DataTypes::DATE();
    case Kind::LOCAL_TIME:
      return DataTypes::TIME(9);
    case Kind::LOCAL_DATE_TIME:
      return DataTypes::TIMESTAMP(9);
    case Kind::INSTANT:
      return DataTypes::TIMESTAMP_LTZ(9);
    case Kind::ROW:
    case Kind::TUPLE: {
      if (!knownFields_) return DataTypes::RAW("Row", "");
      std::vector<DataTypes::Field> fields;
      for (size_t i = 0; i < children_.size(); ++i) {
        fields.push_back(DataTypes::FIELD(fieldNames_[i], children_[i].toDataType()));
      }
      return DataTypes::ROW(fields);
    }
    case Kind::GENERIC:
      return DataTypes::RAW(className_, "");
    case Kind::LIST:
      return DataTypes::ARRAY(children_[0].toDataType());
    case Kind::MAP:
      return DataTypes::MAP(children_[0].toDataType(), children_[1].toDataType());
  }
  throw InternalError("unknown TypeInformation kind");
}

bool TypeInformation::operator==(const TypeInformation& other) const {
  return kind_ == other.kind_ && knownFields_ == other.knownFields_ &&
         fieldNames_ == other.fieldNames_ && children_ == other.children_ &&
         className_ == other.className_;
}

TypeInformation Types::ROW(std::vector<TypeInformation> types) {
  std::vector<std::string> names;
  for (size_t i = 0; i < types.size(); ++i) names.push_back("f" + std::to_string(i));
  return ROW_NAMED(std::move(names), std::move(types));
}

TypeInformation Types::ROW_NAMED(std::vector<std::string> names,
                                 std::vector<TypeInformation> types) {
  if (names.size() != types.size()) {
    throw ValidationException(
        fmt::format("Number of field names ({}) and field types ({}) of a ROW type must be equal.",
                    names.size(), types.size()));
  }
  std::set<std::string> seen;
  for (const std::string& name : names) {
    if (!seen.insert(name).second) {
      throw ValidationException(
          fmt::format("Field names of a ROW type must be unique: '{}' "
                      "appears more than once.",
                      name));
    }
  }
  TypeInformation info(TypeInformation::Kind::ROW);
  info.fieldNames_ = std::move(names);
  info.children_ = std::move(types);
  return info;
}

TypeInformation Types::ROW_UNKNOWN() {
  TypeInformation info(TypeInformation::Kind::ROW);
  info.knownFields_ = false;
  return info;
}

TypeInformation Types::TUPLE(std::vector<TypeInformation> types) {
  TypeInformation info(TypeInformation::Kind::TUPLE);
  for (size_t i = 0; i < types.size(); ++i) info.fieldNames_.push_back("f" + std::to_string(i));
  info.children_ = std::move(types);
  return info;
}

TypeInformation Types::GENERIC(std::string className) {
  TypeInformation info(TypeInformation::Kind::GENERIC);
  info.className_ = std::move(className);
  return info;
}

TypeInformation Types::LIST(TypeInformation elementType) {
  TypeInformation info(TypeInformation::Kind::LIST);
  info.children_.push_back(std::move(elementType));
  return info;
}

TypeInformation Types::MAP(TypeInformation keyType, TypeInformation valueType) {
  TypeInformation info(TypeInformation::Kind::MAP);
  info.children_.push_back(std::move(keyType));
  info.children_.push_back(std::move(valueType));
  return info;
}

}  // namespace eddy

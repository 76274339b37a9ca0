// The non-template half of the state type bridge: kind names and the compatibility check
// every backend applies when a state name is requested again.
#include "eddy/detail/state/state_type.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace eddy::state {
namespace {

// A readable C++ type name: demangled, with std::string spelled as such.
std::string readableTypeName(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), &std::free);
  std::string name = status == 0 && demangled ? demangled.get() : type.name();
  static constexpr std::string_view kLongString =
      "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >";
  for (size_t position = name.find(kLongString); position != std::string::npos;
       position = name.find(kLongString, position)) {
    name.replace(position, kLongString.size(), "std::string");
  }
  return name;
}

}  // namespace

std::string_view stateKindName(StateKind kind) {
  switch (kind) {
    case StateKind::kValue:
      return "ValueState";
    case StateKind::kList:
      return "ListState";
    case StateKind::kMap:
      return "MapState";
    case StateKind::kReducing:
      return "ReducingState";
    case StateKind::kAggregating:
      return "AggregatingState";
  }
  return "UnknownState";
}

void checkStateTypeMatches(StateKind registeredKind, const std::type_info& registeredType,
                           const StateType& requested) {
  if (registeredKind != requested.kind()) {
    throw ValidationException(fmt::format(
        "State '{}' is registered as a {} and cannot be accessed as a {}", requested.name(),
        stateKindName(registeredKind), stateKindName(requested.kind())));
  }
  if (registeredType != requested.descriptorType()) {
    throw ValidationException(fmt::format(
        "State '{}' is registered with descriptor {} and cannot be accessed with descriptor {}",
        requested.name(), readableTypeName(registeredType),
        readableTypeName(requested.descriptorType())));
  }
}

}  // namespace eddy::state

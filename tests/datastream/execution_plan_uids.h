// Reads the operator uids (src/graph/operator_uid.h) out of a JSON execution plan
// (StreamExecutionEnvironment::getExecutionPlan), for the uid tests of the DataStream and
// Table layers.
#pragma once

#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace eddy::testing {

/// (name, uid) of each operator of `plan`, in the plan's order.
inline std::vector<std::pair<std::string, std::string>> operatorUidsOf(const std::string& plan) {
  static const std::regex node(
      "\"type\":\"([^\"]*)\",\"pact\":\"[^\"]*\",\"contents\":\"[^\"]*\",\"parallelism\":[0-9]+,"
      "\"uid\":\"([^\"]*)\"");
  std::vector<std::pair<std::string, std::string>> uids;
  for (std::sregex_iterator it(plan.begin(), plan.end(), node), end; it != end; ++it) {
    uids.emplace_back((*it)[1], (*it)[2]);
  }
  return uids;
}

/// Whether `uid` has the form of a derived uid: 16 lower-case hex digits.
inline bool isDerivedUid(const std::string& uid) {
  static const std::regex derived("[0-9a-f]{16}");
  return std::regex_match(uid, derived);
}

}  // namespace eddy::testing

// EvaluationContext: what a scalar kernel may read besides its arguments while an operator
// evaluates expressions — the rows of the chunk being evaluated (for kernels without arguments
// that produce a value per row: RAND(), UUID()), the evaluating operator's current watermark
// (CURRENT_WATERMARK), and per-call state that lives as long as the operator (the generator of
// RAND(seed), which continues from chunk to chunk). The session time zone is not here: it is
// captured when a plan is bound (function::BindingContext), so a plan keeps the zone it was
// bound in.
//
// Each operator instance (one per subtask) owns one and passes it to every evaluation
// (expression::ExpressionEvaluator), so no kernel reads a thread-local or a global. Not
// thread-safe: one evaluating thread at a time, as an operator instance is.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <unordered_map>
#include <utility>

namespace eddy::function {

class EvaluationContext {
 public:
  /// The watermark value before the first one (and in BATCH, which has none).
  static constexpr int64_t kNoWatermark = std::numeric_limits<int64_t>::min();

  /// The rows of the chunk being evaluated: set by the evaluator around a call without
  /// arguments; 1 elsewhere.
  int64_t rowCount() const { return rowCount_; }
  void setRowCount(int64_t rows) { rowCount_ = rows; }

  /// The evaluating operator's current watermark (kNoWatermark: none yet).
  int64_t watermark() const { return watermark_; }
  void setWatermark(int64_t watermark) { watermark_ = watermark; }

  /// The state of the bound call identified by `call` (an address the bound call owns), made
  /// from `arguments` on first use and kept for the context's lifetime. One call keeps one
  /// state type.
  template <typename State, typename... Arguments>
  State& callState(const void* call, Arguments&&... arguments) {
    std::shared_ptr<void>& state = callStates_[call];
    if (!state) state = std::make_shared<State>(std::forward<Arguments>(arguments)...);
    return *static_cast<State*>(state.get());
  }

  /// The generator of unseeded random calls (RAND(), UUID()), seeded from std::random_device on
  /// first use.
  std::mt19937_64& random();

 private:
  int64_t rowCount_ = 1;
  int64_t watermark_ = kNoWatermark;
  std::unordered_map<const void*, std::shared_ptr<void>> callStates_;
  std::optional<std::mt19937_64> random_;
};

}  // namespace eddy::function

// StateTtlConfig: time-to-live for keyed state, as Flink's StateTtlConfig. A state whose
// descriptor enables TTL stamps each value (each list element, each map entry) with the
// processing time of its last write (and, with OnReadAndWrite, of its last read); once `ttl`
// has passed since that stamp the value is expired. Processing time is read from the Clock
// the keyed state backend was given, so tests drive expiry with a ManualClock.
//
// Expired values are removed lazily: on access to the key that holds them, and a snapshot
// never writes them. A config is an immutable value, copied into each descriptor.
#pragma once

#include <chrono>

namespace eddy {

/// How long keyed state lives, when its clock is refreshed and whether expired values show.
class StateTtlConfig {
 public:
  /// When the last-access timestamp of a value is refreshed.
  enum class UpdateType {
    /// TTL is disabled: values never expire.
    Disabled,
    /// Refreshed when the value is created or written.
    OnCreateAndWrite,
    /// Refreshed on writes and also on every read.
    OnReadAndWrite,
  };

  /// Whether a read may return a value that has expired but was not yet removed.
  enum class StateVisibility {
    /// An expired value is returned once (by the read that finds it), then removed.
    ReturnExpiredIfNotCleanedUp,
    /// An expired value behaves as absent.
    NeverReturnExpired,
  };

  /// Builds a StateTtlConfig; starts as OnCreateAndWrite, NeverReturnExpired.
  class Builder {
   public:
    explicit Builder(std::chrono::milliseconds ttl) : ttl_(ttl) {}

    Builder& setUpdateType(UpdateType updateType) {
      updateType_ = updateType;
      return *this;
    }
    Builder& updateTtlOnCreateAndWrite() { return setUpdateType(UpdateType::OnCreateAndWrite); }
    Builder& updateTtlOnReadAndWrite() { return setUpdateType(UpdateType::OnReadAndWrite); }

    Builder& setStateVisibility(StateVisibility stateVisibility) {
      stateVisibility_ = stateVisibility;
      return *this;
    }
    Builder& neverReturnExpired() {
      return setStateVisibility(StateVisibility::NeverReturnExpired);
    }
    Builder& returnExpiredIfNotCleanedUp() {
      return setStateVisibility(StateVisibility::ReturnExpiredIfNotCleanedUp);
    }

    /// Kept for Flink compatibility: eddy's snapshots always leave expired values out.
    Builder& cleanupFullSnapshot() {
      cleanupFullSnapshot_ = true;
      return *this;
    }

    Builder& setTtl(std::chrono::milliseconds ttl) {
      ttl_ = ttl;
      return *this;
    }

    /// The config; throws ValidationException when the TTL is not positive.
    StateTtlConfig build() const;

   private:
    std::chrono::milliseconds ttl_;
    UpdateType updateType_ = UpdateType::OnCreateAndWrite;
    StateVisibility stateVisibility_ = StateVisibility::NeverReturnExpired;
    bool cleanupFullSnapshot_ = false;
  };

  /// Starts a config whose values live for `ttl` after their last access.
  static Builder newBuilder(std::chrono::milliseconds ttl) { return Builder(ttl); }

  std::chrono::milliseconds getTtl() const { return ttl_; }
  UpdateType getUpdateType() const { return updateType_; }
  StateVisibility getStateVisibility() const { return stateVisibility_; }
  bool isCleanupInFullSnapshot() const { return cleanupFullSnapshot_; }
  /// False when the update type is Disabled.
  bool isEnabled() const { return updateType_ != UpdateType::Disabled; }

 private:
  StateTtlConfig(std::chrono::milliseconds ttl, UpdateType updateType,
                 StateVisibility stateVisibility, bool cleanupFullSnapshot)
      : ttl_(ttl),
        updateType_(updateType),
        stateVisibility_(stateVisibility),
        cleanupFullSnapshot_(cleanupFullSnapshot) {}

  std::chrono::milliseconds ttl_;
  UpdateType updateType_;
  StateVisibility stateVisibility_;
  bool cleanupFullSnapshot_;
};

}  // namespace eddy

// StateTtlConfig: time-to-live for keyed state, as Flink's StateTtlConfig. A state whose
// descriptor enables TTL stamps each value (each list element, each map entry) with the
// processing time of its last write (and, with OnReadAndWrite, of its last read); once `ttl`
// has passed since that stamp the value is expired. Processing time is read from the Clock
// the keyed state backend was given, so tests drive expiry with a ManualClock.
//
// Expired values are removed on access to the key that holds them, and a snapshot never
// writes them. So that state whose keys are never seen again does not grow without bound, the
// heap backend also removes expired values in the background, as Flink's heap backend does:
// incremental cleanup (on by default, as in Flink since 1.10), where the first access of a
// state for each record (for each new current key), and with runCleanupForEveryRecord every
// record, visits the next `cleanupSize` entries of the state and removes the expired ones
// (CleanupStrategies). Nothing is removed while no record comes. A config is an immutable value,
// copied into each descriptor.
#pragma once

#include <chrono>
#include <optional>
#include <utility>

namespace eddy {

/// How long keyed state lives, when its clock is refreshed and whether expired values show.
class StateTtlConfig {
 public:
  class Builder;

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

  /// Flink's IncrementalCleanupStrategy: each access of the state (the first after the
  /// current key changed; later ones of the same key find the key's entry as it was) visits
  /// the next `cleanupSize` entries (keys) of it, all its key groups in turn, and removes the
  /// expired values among them; with `runCleanupForEveryRecord` every record the backend's
  /// current key is set for does so too, whether it accesses the state or not.
  class IncrementalCleanupStrategy {
   public:
    /// Flink's default: 5 entries per access, not for every record.
    static constexpr int kDefaultCleanupSize = 5;

    IncrementalCleanupStrategy(int cleanupSize, bool runCleanupForEveryRecord)
        : cleanupSize_(cleanupSize), runCleanupForEveryRecord_(runCleanupForEveryRecord) {}

    int getCleanupSize() const { return cleanupSize_; }
    bool runCleanupForEveryRecord() const { return runCleanupForEveryRecord_; }

   private:
    int cleanupSize_;
    bool runCleanupForEveryRecord_;
  };

  /// How expired values are removed besides on access to their key (Flink's
  /// StateTtlConfig.CleanupStrategies).
  class CleanupStrategies {
   public:
    /// Snapshots leave expired values out (always so in eddy).
    bool inFullSnapshot() const { return inFullSnapshot_; }
    /// False after Builder::disableCleanupInBackground().
    bool isCleanupInBackground() const { return cleanupInBackground_; }
    /// The incremental cleanup the heap backend runs: the one the builder was given, else,
    /// while cleanup in background is on, Flink's default (5 entries per access); nullopt:
    /// none.
    std::optional<IncrementalCleanupStrategy> getIncrementalCleanupStrategy() const {
      if (incremental_) return incremental_;
      if (cleanupInBackground_) {
        return IncrementalCleanupStrategy(IncrementalCleanupStrategy::kDefaultCleanupSize, false);
      }
      return std::nullopt;
    }

   private:
    friend class Builder;
    bool inFullSnapshot_ = false;
    bool cleanupInBackground_ = true;
    std::optional<IncrementalCleanupStrategy> incremental_;
  };

  /// Builds a StateTtlConfig; starts as OnCreateAndWrite, NeverReturnExpired, with the default
  /// incremental cleanup in the background.
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
      cleanupStrategies_.inFullSnapshot_ = true;
      return *this;
    }

    /// Incremental cleanup with `cleanupSize` entries per state access (and per record when
    /// `runCleanupForEveryRecord`); see IncrementalCleanupStrategy. build() rejects a
    /// `cleanupSize` that is not positive.
    Builder& cleanupIncrementally(int cleanupSize, bool runCleanupForEveryRecord) {
      cleanupStrategies_.incremental_ =
          IncrementalCleanupStrategy(cleanupSize, runCleanupForEveryRecord);
      return *this;
    }

    /// No default cleanup in the background: expired values go only when their key is
    /// accessed and from snapshots (a strategy set with cleanupIncrementally still runs).
    Builder& disableCleanupInBackground() {
      cleanupStrategies_.cleanupInBackground_ = false;
      return *this;
    }

    Builder& setTtl(std::chrono::milliseconds ttl) {
      ttl_ = ttl;
      return *this;
    }

    /// The config; throws ValidationException when the TTL or the incremental cleanup size is
    /// not positive.
    StateTtlConfig build() const;

   private:
    std::chrono::milliseconds ttl_;
    UpdateType updateType_ = UpdateType::OnCreateAndWrite;
    StateVisibility stateVisibility_ = StateVisibility::NeverReturnExpired;
    CleanupStrategies cleanupStrategies_;
  };

  /// Starts a config whose values live for `ttl` after their last access.
  static Builder newBuilder(std::chrono::milliseconds ttl) { return Builder(ttl); }

  std::chrono::milliseconds getTtl() const { return ttl_; }
  UpdateType getUpdateType() const { return updateType_; }
  StateVisibility getStateVisibility() const { return stateVisibility_; }
  bool isCleanupInFullSnapshot() const { return cleanupStrategies_.inFullSnapshot(); }
  const CleanupStrategies& getCleanupStrategies() const { return cleanupStrategies_; }
  /// False when the update type is Disabled.
  bool isEnabled() const { return updateType_ != UpdateType::Disabled; }

 private:
  StateTtlConfig(std::chrono::milliseconds ttl, UpdateType updateType,
                 StateVisibility stateVisibility, CleanupStrategies cleanupStrategies)
      : ttl_(ttl),
        updateType_(updateType),
        stateVisibility_(stateVisibility),
        cleanupStrategies_(std::move(cleanupStrategies)) {}

  std::chrono::milliseconds ttl_;
  UpdateType updateType_;
  StateVisibility stateVisibility_;
  CleanupStrategies cleanupStrategies_;
};

}  // namespace eddy

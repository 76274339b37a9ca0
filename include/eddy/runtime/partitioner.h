// Partitioners decide which downstream subtask receives each record of an edge: FORWARD
// (subtask i to subtask i), REBALANCE (round robin), SHUFFLE (random), BROADCAST (all), and
// HASH (key → key group → the subtask owning that key group; see key_group_range.h).
//
// A Partitioner belongs to one producing subtask and is used only by its task thread. It
// moves the records of an incoming batch into per-target pending batches; the network
// writer ships a pending batch when it is full or when a control element must pass.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "eddy/runtime/record_batch.h"
#include "eddy/state/key_group_range.h"

namespace eddy::runtime {

enum class PartitionKind { FORWARD, REBALANCE, SHUFFLE, BROADCAST, HASH };

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  /// Moves the records of `batch` into `pending[target]`; a null entry is created on demand.
  virtual void partition(BatchPtr batch, std::vector<BatchPtr>& pending) = 0;
};

/// Creates the HASH partitioner of one producing subtask for an edge with `numberOfTargets`
/// consumers, given the job's max parallelism (the number of key groups).
using HashPartitionerFactory =
    std::function<std::unique_ptr<Partitioner>(int numberOfTargets, int maxParallelism)>;

/// What the runtime needs to know about a record type to move it: how to make empty batches
/// and the partitioners that need no key. Implemented by TypedRecordOps<T>.
class RecordTypeOps {
 public:
  virtual ~RecordTypeOps() = default;
  virtual BatchPtr newBatch() const = 0;
  /// FORWARD, REBALANCE, SHUFFLE or BROADCAST (HASH needs a key and comes from keyBy).
  virtual std::unique_ptr<Partitioner> createPartitioner(PartitionKind kind, int subtaskIndex,
                                                         int numberOfTargets) const = 0;
};

namespace partitioning {

template <typename T>
TypedBatch<T>& pendingBatch(std::vector<BatchPtr>& pending, int target) {
  if (!pending[target]) {
    auto batch = std::make_unique<TypedBatch<T>>();
    batch->reserve(kDefaultBatchSize);
    pending[target] = std::move(batch);
  }
  return typedBatch<T>(*pending[target]);
}

/// Moves every record of `batch` to the target chooseTarget(record) returns.
template <typename T, typename ChooseTarget>
void scatter(RecordBatch& batch, std::vector<BatchPtr>& pending, ChooseTarget&& chooseTarget) {
  auto& input = typedBatch<T>(batch);
  for (size_t i = 0; i < input.records.size(); ++i) {
    int target = chooseTarget(input.records[i]);
    pendingBatch<T>(pending, target).push(std::move(input.records[i]), input.timestamps[i]);
  }
}

}  // namespace partitioning

template <typename T>
class ForwardPartitioner final : public Partitioner {
 public:
  explicit ForwardPartitioner(int subtaskIndex) : target_(subtaskIndex) {}
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override {
    if (!pending[target_] || pending[target_]->size() == 0) {
      pending[target_] = std::move(batch);
      return;
    }
    auto& input = typedBatch<T>(*batch);
    auto& output = typedBatch<T>(*pending[target_]);
    for (size_t i = 0; i < input.records.size(); ++i) {
      output.push(std::move(input.records[i]), input.timestamps[i]);
    }
  }

 private:
  int target_;
};

template <typename T>
class RebalancePartitioner final : public Partitioner {
 public:
  RebalancePartitioner(int subtaskIndex, int numberOfTargets)
      : next_(subtaskIndex % numberOfTargets), numberOfTargets_(numberOfTargets) {}
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override {
    partitioning::scatter<T>(*batch, pending, [this](const T&) {
      int target = next_;
      next_ = next_ + 1 == numberOfTargets_ ? 0 : next_ + 1;
      return target;
    });
  }

 private:
  int next_;
  int numberOfTargets_;
};

template <typename T>
class ShufflePartitioner final : public Partitioner {
 public:
  ShufflePartitioner(int subtaskIndex, int numberOfTargets)
      : random_(static_cast<uint64_t>(subtaskIndex) * 7919 + 17),
        distribution_(0, numberOfTargets - 1) {}
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override {
    partitioning::scatter<T>(*batch, pending, [this](const T&) { return distribution_(random_); });
  }

 private:
  std::minstd_rand random_;
  std::uniform_int_distribution<int> distribution_;
};

template <typename T>
class BroadcastPartitioner final : public Partitioner {
 public:
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override {
    auto& input = typedBatch<T>(*batch);
    for (size_t target = 0; target < pending.size(); ++target) {
      auto& output = partitioning::pendingBatch<T>(pending, static_cast<int>(target));
      for (size_t i = 0; i < input.records.size(); ++i) {
        output.push(input.records[i], input.timestamps[i]);
      }
    }
  }
};

/// HASH: routes a record by the key group of its serialized key.
/// KeyBytesOf: void(const T&, std::string& out) appends the key's bytes.
template <typename T, typename KeyBytesOf>
class KeyGroupPartitioner final : public Partitioner {
 public:
  KeyGroupPartitioner(KeyBytesOf keyBytesOf, int maxParallelism, int numberOfTargets)
      : keyBytesOf_(std::move(keyBytesOf)),
        maxParallelism_(maxParallelism),
        numberOfTargets_(numberOfTargets) {}
  void partition(BatchPtr batch, std::vector<BatchPtr>& pending) override {
    partitioning::scatter<T>(*batch, pending, [this](const T& record) {
      keyBytes_.clear();
      keyBytesOf_(record, keyBytes_);
      int keyGroup = assignToKeyGroup(keyBytes_, maxParallelism_);
      return computeOperatorIndexForKeyGroup(maxParallelism_, numberOfTargets_, keyGroup);
    });
  }

 private:
  KeyBytesOf keyBytesOf_;
  int maxParallelism_;
  int numberOfTargets_;
  std::string keyBytes_;  // reused across records: no allocation per record
};

template <typename T>
class TypedRecordOps final : public RecordTypeOps {
 public:
  BatchPtr newBatch() const override { return std::make_unique<TypedBatch<T>>(); }
  std::unique_ptr<Partitioner> createPartitioner(PartitionKind kind, int subtaskIndex,
                                                 int numberOfTargets) const override {
    switch (kind) {
      case PartitionKind::FORWARD:
        return std::make_unique<ForwardPartitioner<T>>(subtaskIndex);
      case PartitionKind::REBALANCE:
        return std::make_unique<RebalancePartitioner<T>>(subtaskIndex, numberOfTargets);
      case PartitionKind::SHUFFLE:
        return std::make_unique<ShufflePartitioner<T>>(subtaskIndex, numberOfTargets);
      case PartitionKind::BROADCAST:
        return std::make_unique<BroadcastPartitioner<T>>();
      case PartitionKind::HASH:
        break;
    }
    return nullptr;  // HASH partitioners come with their key selector (PartitionerFactory)
  }
};

}  // namespace eddy::runtime

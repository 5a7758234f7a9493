//===- StatisticsWorker.h - tensor statistics on a second thread -*- C++ -*-===//
//
// Calibration's statistics (min/max, and the histogram that costs as much as
// the model itself) run on a second thread while the model goes on computing
// the next tensors. The observer copies each tensor while it is in cache; the
// worker counts the copies in the order they were pushed, so the statistics
// are the same as counting in place, whatever the timing.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXQUANT_LIB_CALIBRATION_STATISTICSWORKER_H
#define ONNXQUANT_LIB_CALIBRATION_STATISTICSWORKER_H

#include "Statistics.h"

#include "llvm/ADT/ArrayRef.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace mlir::onnxq {

class StatisticsWorker {
public:
  /// Counts into `stats` (tensor k into stats[k]); at most `maxQueued`
  /// values wait at a time (push blocks beyond that), so memory does not
  /// depend on the number of samples.
  StatisticsWorker(std::vector<TensorStatistics> &stats, size_t maxQueued);
  ~StatisticsWorker();

  /// Queues a copy of tensor `k`'s values.
  void push(size_t k, ArrayRef<float> values);

  /// Waits until every pushed tensor is counted.
  void drain();

private:
  struct Job {
    size_t tensor;
    std::vector<float> values;
  };
  void run();

  std::vector<TensorStatistics> &stats;
  size_t maxQueued;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> queue;
  size_t queued = 0;  ///< values in `queue` and being counted
  bool stopping = false;
  /// Buffers to reuse, per tensor (so they keep their size).
  std::vector<std::vector<std::vector<float>>> spare;
  std::thread thread; ///< last: starts once the rest is set up
};

} // namespace mlir::onnxq

#endif // ONNXQUANT_LIB_CALIBRATION_STATISTICSWORKER_H

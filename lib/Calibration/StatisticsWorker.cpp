//===- StatisticsWorker.cpp - tensor statistics on a second thread --------===//

#include "StatisticsWorker.h"

using namespace mlir;
using namespace mlir::onnxq;

StatisticsWorker::StatisticsWorker(std::vector<TensorStatistics> &stats,
                                   size_t maxQueued)
    : stats(stats), maxQueued(maxQueued), spare(stats.size()),
      thread([this] { run(); }) {}

StatisticsWorker::~StatisticsWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  thread.join();
}

void StatisticsWorker::push(size_t k, ArrayRef<float> values) {
  std::vector<float> copy;
  {
    std::unique_lock<std::mutex> lock(mutex);
    // A tensor larger than the limit still goes through, alone.
    changed.wait(lock, [&] {
      return queued == 0 || queued + values.size() <= maxQueued;
    });
    queued += values.size();
    if (!spare[k].empty()) {
      copy = std::move(spare[k].back());
      spare[k].pop_back();
    }
  }
  copy.assign(values.begin(), values.end());
  {
    std::lock_guard<std::mutex> lock(mutex);
    queue.push_back({k, std::move(copy)});
  }
  changed.notify_all();
}

void StatisticsWorker::drain() {
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return queued == 0; });
}

void StatisticsWorker::run() {
  std::unique_lock<std::mutex> lock(mutex);
  while (true) {
    changed.wait(lock, [&] { return stopping || !queue.empty(); });
    if (queue.empty())
      return; // stopping, and nothing left
    Job job = std::move(queue.front());
    queue.pop_front();
    lock.unlock();
    stats[job.tensor].add(job.values);
    lock.lock();
    queued -= job.values.size();
    spare[job.tensor].push_back(std::move(job.values));
    changed.notify_all();
  }
}

//===- WorkQueue.cpp - One worker thread running all streams' work --------===//

#include "WorkQueue.h"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

namespace respec {
namespace cpu {
namespace {

class WorkQueue {
public:
  WorkQueue() : worker([this] { runWorker(); }) {}

  Ticket submit(std::function<void()> work) {
    std::unique_lock<std::mutex> lock(mutex);
    Ticket ticket = ++lastSubmitted;
    pending.push_back(std::move(work));
    lock.unlock();
    workAvailable.notify_one();
    return ticket;
  }

  bool tryReserveInline(Ticket *ticket) {
    std::lock_guard<std::mutex> lock(mutex);
    if (inlineRunning || !pending.empty() || lastCompleted != lastSubmitted)
      return false;
    inlineRunning = true;
    *ticket = ++lastSubmitted;
    return true;
  }
  void finishInline(Ticket ticket) {
    bool queuedMeanwhile;
    {
      std::lock_guard<std::mutex> lock(mutex);
      inlineRunning = false;
      lastCompleted = ticket;
      queuedMeanwhile = !pending.empty();
    }
    workDone.notify_all();
    // Waking the idle worker for nothing would cost the switch we avoid.
    if (queuedMeanwhile)
      workAvailable.notify_one();
  }
  void wait(Ticket ticket) {
    std::unique_lock<std::mutex> lock(mutex);
    workDone.wait(lock, [&] { return lastCompleted >= ticket; });
  }

  bool done(Ticket ticket) {
    std::lock_guard<std::mutex> lock(mutex);
    return lastCompleted >= ticket;
  }

  Ticket latest() {
    std::lock_guard<std::mutex> lock(mutex);
    return lastSubmitted;
  }

  bool isWorker() const {
    return std::this_thread::get_id() == worker.get_id();
  }

private:
  void runWorker() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      workAvailable.wait(lock,
                         [&] { return !pending.empty() && !inlineRunning; });
      std::function<void()> work = std::move(pending.front());
      pending.pop_front();
      lock.unlock();
      work();
      lock.lock();
      ++lastCompleted;
      workDone.notify_all();
    }
  }

  std::mutex mutex;
  std::condition_variable workAvailable;
  std::condition_variable workDone;
  std::deque<std::function<void()>> pending;
  Ticket lastSubmitted = 0;
  Ticket lastCompleted = 0;
  /// A caller runs the item of ticket lastSubmitted itself (queue idle).
  bool inlineRunning = false;
  std::thread worker; // last member: starts after the state above exists
};

void finishWorkAtExit() { waitForAllWork(); }

/// The queue is never destroyed: clang's module destructors and other exit
/// handlers may still synchronize after static objects are gone. Queued work
/// is finished at exit (CUDA completes it at context teardown too); the idle
/// worker then simply ends with the process.
WorkQueue &queue() {
  static WorkQueue *instance = [] {
    auto *created = new WorkQueue;
    std::atexit(finishWorkAtExit);
    return created;
  }();
  return *instance;
}

} // namespace

Ticket submitWork(std::function<void()> work) {
  return queue().submit(std::move(work));
}

bool tryReserveInlineWork(Ticket *ticket) {
  static const bool alwaysAsync = [] {
    const char *value = std::getenv("RESPEC_ASYNC_LAUNCH");
    return value && value[0] == '1';
  }();
  if (alwaysAsync || queue().isWorker())
    return false;
  return queue().tryReserveInline(ticket);
}

void finishInlineWork(Ticket ticket) { queue().finishInline(ticket); }

void waitForTicket(Ticket ticket) {
  // A host callback that synchronizes would wait for itself; CUDA forbids
  // runtime calls in callbacks, so treat its own queue position as reached.
  if (ticket == 0 || queue().isWorker())
    return;
  queue().wait(ticket);
}

bool isTicketDone(Ticket ticket) { return ticket == 0 || queue().done(ticket); }

void waitForAllWork() { waitForTicket(queue().latest()); }

bool onWorkerThread() { return queue().isWorker(); }

} // namespace cpu
} // namespace respec

//===- Streams.cpp - CUDA streams, events and device synchronization ------===//

#include "Streams.h"

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "WorkQueue.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>

using namespace respec;
using namespace respec::cpu;

namespace {

struct Stream {
  unsigned flags = 0;
  int priority = 0;
  std::atomic<Ticket> lastTicket{0};
};

struct Event {
  unsigned flags = 0;
  /// Ticket of the latest record; 0 while never recorded.
  std::atomic<Ticket> recordTicket{0};
  /// Steady-clock time at which the worker reached the latest record.
  std::atomic<int64_t> timestampNs{0};
};

/// Streams and events live in maps keyed by their handle so that stale or
/// foreign handles are rejected instead of dereferenced.
struct HandleTables {
  std::mutex mutex;
  Stream defaultStream;
  std::unordered_map<cudaStream_t, std::unique_ptr<Stream>> streams;
  std::unordered_map<cudaEvent_t, std::shared_ptr<Event>> events;
};

HandleTables &tables() {
  static HandleTables *instance = new HandleTables;
  return *instance;
}

bool isDefaultStreamHandle(cudaStream_t stream) {
  return stream == nullptr || stream == cudaStreamLegacy ||
         stream == cudaStreamPerThread;
}

/// The stream behind a handle, or null; the caller holds the table lock.
Stream *findStreamLocked(HandleTables &t, cudaStream_t stream) {
  if (isDefaultStreamHandle(stream))
    return &t.defaultStream;
  auto it = t.streams.find(stream);
  return it == t.streams.end() ? nullptr : it->second.get();
}

std::shared_ptr<Event> findEvent(cudaEvent_t event) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.events.find(event);
  return it == t.events.end() ? nullptr : it->second;
}

int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Stream priorities: CUDA's range is [greatest, least] = [-5, 0] on recent
/// GPUs; respec accepts the same range (and clamps) but runs FIFO anyway.
constexpr int leastStreamPriority = 0;
constexpr int greatestStreamPriority = -5;

/// The ticket that completes all work submitted to `stream` so far.
bool lastTicketOf(cudaStream_t stream, Ticket *ticket) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found)
    return false;
  *ticket = found->lastTicket.load();
  return true;
}

} // namespace

cudaError_t respec::createStream(cudaStream_t *pStream, unsigned flags,
                                 int priority, const char *call) {
  if (!pStream || (flags & ~unsigned(cudaStreamNonBlocking)))
    return reportError(cudaErrorInvalidValue, call);
  auto stream = std::make_unique<Stream>();
  stream->flags = flags;
  stream->priority = priority > leastStreamPriority ? leastStreamPriority
                     : priority < greatestStreamPriority
                         ? greatestStreamPriority
                         : priority;
  auto handle = reinterpret_cast<cudaStream_t>(stream.get());
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.streams.emplace(handle, std::move(stream));
  *pStream = handle;
  return cudaSuccess;
}

namespace respec {
namespace cpu {

bool isValidStream(cudaStream_t stream) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  return findStreamLocked(t, stream) != nullptr;
}

cudaError_t enqueueOnStream(cudaStream_t stream, const char *call,
                            std::function<void()> work, Placement placement) {
  Ticket inlineTicket = 0;
  {
    HandleTables &t = tables();
    std::lock_guard<std::mutex> lock(t.mutex);
    Stream *found = findStreamLocked(t, stream);
    if (!found)
      return reportError(cudaErrorInvalidResourceHandle, call,
                         "unknown stream %p", static_cast<void *>(stream));
    // Taking tickets under the table lock keeps each stream's increasing.
    if (placement == Placement::InlineWhenIdle &&
        tryReserveInlineWork(&inlineTicket)) {
      found->lastTicket = inlineTicket;
    } else {
      found->lastTicket = submitWork(std::move(work));
      return cudaSuccess;
    }
  }
  // Outside the table lock: other host threads may use streams meanwhile.
  work();
  finishInlineWork(inlineTicket);
  return cudaSuccess;
}

cudaError_t runOnStreamAndWait(cudaStream_t stream, const char *call,
                               std::function<void()> work) {
  cudaError_t status = enqueueOnStream(stream, call, std::move(work));
  if (status != cudaSuccess)
    return status;
  Ticket ticket = 0;
  lastTicketOf(stream, &ticket);
  waitForTicket(ticket);
  return cudaSuccess;
}

} // namespace cpu
} // namespace respec

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                        int *greatestPriority) {
  if (leastPriority)
    *leastPriority = leastStreamPriority;
  if (greatestPriority)
    *greatestPriority = greatestStreamPriority;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream,
                                             int *priority) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *stream = findStreamLocked(t, hStream);
  if (!stream)
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamGetPriority");
  if (!priority)
    return reportError(cudaErrorInvalidValue, "cudaStreamGetPriority");
  *priority = stream->priority;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
                                          unsigned int *flags) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *stream = findStreamLocked(t, hStream);
  if (!stream)
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamGetFlags");
  if (!flags)
    return reportError(cudaErrorInvalidValue, "cudaStreamGetFlags");
  *flags = stream->flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  // Work already queued on the stream still runs: it does not reference the
  // stream object, only the queue.
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (isDefaultStreamHandle(stream) || !t.streams.erase(stream))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamDestroy");
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  Ticket ticket = 0;
  if (!lastTicketOf(stream, &ticket))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize");
  waitForTicket(ticket);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) {
  Ticket ticket = 0;
  if (!lastTicketOf(stream, &ticket))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamQuery");
  // cudaErrorNotReady is a status, not a failure: CUDA does not record it.
  return isTicketDone(ticket) ? cudaSuccess : cudaErrorNotReady;
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                           cudaEvent_t event,
                                           unsigned int flags) {
  if (!isValidStream(stream) || !findEvent(event))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamWaitEvent");
  if (flags & ~unsigned(cudaEventWaitExternal))
    return reportError(cudaErrorInvalidValue, "cudaStreamWaitEvent");
  // The event's record was submitted before this call, and the single FIFO
  // runs it before anything submitted to `stream` from now on.
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                             cudaStreamCallback_t callback,
                                             void *userData,
                                             unsigned int flags) {
  if (!callback || flags != 0)
    return reportError(cudaErrorInvalidValue, "cudaStreamAddCallback");
  return enqueueOnStream(
      stream, "cudaStreamAddCallback",
      [=] { callback(stream, cudaSuccess, userData); }, Placement::Worker);
}

extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                          void *userData) {
  if (!fn)
    return reportError(cudaErrorInvalidValue, "cudaLaunchHostFunc");
  return enqueueOnStream(
      stream, "cudaLaunchHostFunc", [=] { fn(userData); }, Placement::Worker);
}

extern "C" cudaError_t cudaDeviceSynchronize(void) {
  waitForAllWork();
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                unsigned int flags) {
  constexpr unsigned knownFlags =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!event || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, "cudaEventCreateWithFlags");
  // Interprocess events must also disable timing, as in CUDA.
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
    return reportError(cudaErrorInvalidValue, "cudaEventCreateWithFlags",
                       "cudaEventInterprocess requires cudaEventDisableTiming");
  auto state = std::make_shared<Event>();
  state->flags = flags;
  auto handle = reinterpret_cast<cudaEvent_t>(state.get());
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.events.emplace(handle, std::move(state));
  *event = handle;
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  // A pending record keeps its own reference to the event state.
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.events.erase(event))
    return reportError(cudaErrorInvalidResourceHandle, "cudaEventDestroy");
  return cudaSuccess;
}

static cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream,
                               const char *call) {
  std::shared_ptr<Event> state = findEvent(event);
  if (!state)
    return reportError(cudaErrorInvalidResourceHandle, call, "unknown event");
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found)
    return reportError(cudaErrorInvalidResourceHandle, call, "unknown stream");
  // An idle queue has run everything before the record: time it now.
  Ticket ticket = 0;
  if (tryReserveInlineWork(&ticket)) {
    state->timestampNs = steadyNowNs();
    finishInlineWork(ticket);
  } else {
    ticket = submitWork([state] { state->timestampNs = steadyNowNs(); });
  }
  found->lastTicket = ticket;
  state->recordTicket = ticket;
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return recordEvent(event, stream, "cudaEventRecord");
}

extern "C" cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
                                                cudaStream_t stream,
                                                unsigned int flags) {
  if (flags & ~unsigned(cudaEventRecordExternal))
    return reportError(cudaErrorInvalidValue, "cudaEventRecordWithFlags");
  return recordEvent(event, stream, "cudaEventRecordWithFlags");
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event) {
  std::shared_ptr<Event> state = findEvent(event);
  if (!state)
    return reportError(cudaErrorInvalidResourceHandle, "cudaEventQuery");
  return isTicketDone(state->recordTicket) ? cudaSuccess : cudaErrorNotReady;
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  std::shared_ptr<Event> state = findEvent(event);
  if (!state)
    return reportError(cudaErrorInvalidResourceHandle, "cudaEventSynchronize");
  waitForTicket(state->recordTicket);
  return cudaSuccess;
}

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                            cudaEvent_t end) {
  const char *call = "cudaEventElapsedTime";
  if (!ms)
    return reportError(cudaErrorInvalidValue, call);
  std::shared_ptr<Event> first = findEvent(start), last = findEvent(end);
  if (!first || !last)
    return reportError(cudaErrorInvalidResourceHandle, call, "unknown event");
  if ((first->flags | last->flags) & cudaEventDisableTiming)
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "event created with cudaEventDisableTiming");
  if (!first->recordTicket || !last->recordTicket)
    return reportError(cudaErrorInvalidResourceHandle, call,
                       "event never recorded");
  if (!isTicketDone(first->recordTicket) || !isTicketDone(last->recordTicket))
    return reportError(cudaErrorNotReady, call);
  *ms = static_cast<float>(
      static_cast<double>(last->timestampNs - first->timestampNs) * 1e-6);
  return cudaSuccess;
}

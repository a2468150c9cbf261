//===- Streams.cpp - CUDA streams, events and device synchronization ------===//

#include "Streams.h"

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "Allocations.h"
#include "Graphs.h"
#include "WorkQueue.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

using namespace respec;
using namespace respec::cpu;

namespace {

/// A stream capture in progress: the streams taking part record their work
/// into `graph` (in submission order) instead of running it.
struct Capture {
  std::shared_ptr<Graph> graph;
  cudaGraph_t handle;
  cudaStream_t origin;
  unsigned long long id;
  /// A synchronization during the capture: cudaStreamEndCapture fails.
  bool invalidated = false;
  bool ended = false;
};

std::atomic<unsigned long long> nextStreamId{1};

struct Stream {
  unsigned flags = 0;
  int priority = 0;
  /// cudaStreamGetId: unique among the streams of the process.
  unsigned long long id = nextStreamId.fetch_add(1);
  /// Values set with cudaStreamSetAttribute, by attribute.
  std::map<int, cudaLaunchAttributeValue> attributes;
  std::atomic<Ticket> lastTicket{0};
  /// Set while the stream takes part in a capture.
  std::shared_ptr<Capture> capture;
};

struct Event {
  unsigned flags = 0;
  /// Ticket of the latest record; 0 while never recorded.
  std::atomic<Ticket> recordTicket{0};
  /// Steady-clock time at which the worker reached the latest record.
  std::atomic<int64_t> timestampNs{0};
  /// The capture the latest record was part of: a stream that waits for
  /// the event joins it (the fork of a multi-stream capture).
  std::weak_ptr<Capture> capturedIn;
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

namespace {

/// `priority` within the device's range (CUDA clamps, it does not fail).
int clampPriority(int priority) {
  return std::min(leastStreamPriority,
                  std::max(greatestStreamPriority, priority));
}

} // namespace

cudaError_t respec::createStream(cudaStream_t *pStream, unsigned flags,
                                 int priority, const char *call) {
  if (!pStream || (flags & ~unsigned(cudaStreamNonBlocking)))
    return reportError(cudaErrorInvalidValue, call);
  auto stream = std::make_unique<Stream>();
  stream->flags = flags;
  stream->priority = clampPriority(priority);
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
                            std::function<void()> work, Placement placement,
                            const cudaKernelNodeParams *kernel) {
  Ticket inlineTicket = 0;
  {
    HandleTables &t = tables();
    std::lock_guard<std::mutex> lock(t.mutex);
    Stream *found = findStreamLocked(t, stream);
    if (!found)
      return reportError(cudaErrorInvalidResourceHandle, call,
                         "unknown stream %p", static_cast<void *>(stream));
    if (found->capture) {
      auto node = std::make_shared<GraphNode>();
      node->type = nodeTypeOfCall(call);
      if (kernel)
        node->kernel = *kernel;
      found->capture->graph->steps.push_back(
          {std::move(work), placement, std::move(node)});
      return cudaSuccess;
    }
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
  if (isCapturing(stream))
    return enqueueOnStream(stream, call, std::move(work));
  cudaError_t status = enqueueOnStream(stream, call, std::move(work));
  if (status != cudaSuccess)
    return status;
  Ticket ticket = 0;
  lastTicketOf(stream, &ticket);
  waitForTicket(ticket);
  return cudaSuccess;
}

cudaError_t
recordIntoGraph(const std::shared_ptr<Graph> &graph,
                const std::function<cudaError_t(cudaStream_t)> &submit) {
  auto stream = std::make_unique<Stream>();
  auto handle = reinterpret_cast<cudaStream_t>(stream.get());
  auto capture = std::make_shared<Capture>();
  capture->graph = graph;
  capture->handle = nullptr;
  capture->origin = handle;
  stream->capture = std::move(capture);
  HandleTables &t = tables();
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    t.streams.emplace(handle, std::move(stream));
  }
  cudaError_t status = submit(handle);
  std::lock_guard<std::mutex> lock(t.mutex);
  t.streams.erase(handle);
  return status;
}

bool isCapturing(cudaStream_t stream) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  return found && found->capture;
}

} // namespace cpu
} // namespace respec

namespace {

/// Synchronizing with a capturing stream is not allowed: CUDA fails the
/// call and the capture. Returns true (after reporting) in that case.
bool refuseDuringCapture(cudaStream_t stream, const char *call) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found || !found->capture)
    return false;
  found->capture->invalidated = true;
  reportError(cudaErrorStreamCaptureUnsupported, call,
              "the stream is capturing; the capture is invalidated");
  return true;
}

} // namespace

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

namespace {

/// Runs `use` on the stream `hStream` under the table lock, or fails `call`
/// with cudaErrorInvalidResourceHandle when there is no such stream.
template <typename Use>
cudaError_t withStream(cudaStream_t hStream, const char *call, Use use) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *stream = findStreamLocked(t, hStream);
  if (!stream)
    return reportError(cudaErrorInvalidResourceHandle, call);
  return use(*stream);
}

/// Writes what `read` gives for the stream `hStream` to `out`: the shared
/// checks (a live stream, somewhere to write) of the stream queries.
template <typename T, typename Read>
cudaError_t queryStream(cudaStream_t hStream, T *out, const char *call,
                        Read read) {
  return withStream(hStream, call, [&](Stream &stream) {
    if (!out)
      return reportError(cudaErrorInvalidValue, call);
    *out = read(stream);
    return cudaSuccess;
  });
}

} // namespace

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream,
                                             int *priority) {
  return queryStream(hStream, priority, "cudaStreamGetPriority",
                     [](const Stream &stream) { return stream.priority; });
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
                                          unsigned int *flags) {
  return queryStream(hStream, flags, "cudaStreamGetFlags",
                     [](const Stream &stream) { return stream.flags; });
}

extern "C" cudaError_t cudaStreamGetId(cudaStream_t hStream,
                                       unsigned long long *streamId) {
  return queryStream(hStream, streamId, "cudaStreamGetId",
                     [](const Stream &stream) { return stream.id; });
}

extern "C" cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device) {
  return queryStream(hStream, device, "cudaStreamGetDevice",
                     [](const Stream &) { return 0; });
}

namespace {

/// The launch attributes that are also stream attributes.
bool isStreamAttribute(cudaStreamAttrID attr) {
  switch (attr) {
  case cudaLaunchAttributeAccessPolicyWindow:
  case cudaLaunchAttributeSynchronizationPolicy:
  case cudaLaunchAttributePriority:
  case cudaLaunchAttributeMemSyncDomainMap:
  case cudaLaunchAttributeMemSyncDomain:
    return true;
  default:
    return false;
  }
}

} // namespace

// Stream attributes are hints for the GPU's memory system and scheduler
// (L2 persistence windows, synchronization policy, memory sync domains);
// the CPU keeps what the program sets and reads it back, and the priority
// is the stream's own.
extern "C" cudaError_t
cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr,
                       const cudaStreamAttrValue *value) {
  const char *call = "cudaStreamSetAttribute";
  return withStream(hStream, call, [&](Stream &stream) {
    if (!value || !isStreamAttribute(attr))
      return reportError(cudaErrorInvalidValue, call, "attribute %d",
                         int(attr));
    if (attr == cudaLaunchAttributePriority)
      stream.priority = clampPriority(value->priority);
    else
      stream.attributes[attr] = *value;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaStreamGetAttribute(cudaStream_t hStream,
                                              cudaStreamAttrID attr,
                                              cudaStreamAttrValue *value) {
  const char *call = "cudaStreamGetAttribute";
  return withStream(hStream, call, [&](Stream &stream) {
    if (!value || !isStreamAttribute(attr))
      return reportError(cudaErrorInvalidValue, call, "attribute %d",
                         int(attr));
    std::memset(value, 0, sizeof(*value));
    if (attr == cudaLaunchAttributePriority) {
      value->priority = stream.priority;
      return cudaSuccess;
    }
    if (attr == cudaLaunchAttributeSynchronizationPolicy)
      value->syncPolicy = cudaSyncPolicyAuto;
    auto it = stream.attributes.find(attr);
    if (it != stream.attributes.end())
      *value = it->second;
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaStreamCopyAttributes(cudaStream_t dst,
                                                cudaStream_t src) {
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *to = findStreamLocked(t, dst);
  Stream *from = findStreamLocked(t, src);
  if (!to || !from)
    return reportError(cudaErrorInvalidResourceHandle,
                       "cudaStreamCopyAttributes");
  to->attributes = from->attributes;
  to->priority = from->priority;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamAttachMemAsync(cudaStream_t hStream,
                                                void *devPtr, size_t length,
                                                unsigned int flags) {
  {
    HandleTables &t = tables();
    std::lock_guard<std::mutex> lock(t.mutex);
    if (!findStreamLocked(t, hStream))
      return reportError(cudaErrorInvalidResourceHandle,
                         "cudaStreamAttachMemAsync");
  }
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost &&
      flags != cudaMemAttachSingle)
    return reportError(cudaErrorInvalidValue, "cudaStreamAttachMemAsync",
                       "flags %#x", flags);
  // Managed memory is host memory on the CPU: every stream and the host may
  // touch it at any time, so attaching changes nothing. CUDA's argument
  // rules still hold: managed memory, and the whole allocation (length 0
  // or its size).
  Allocation found;
  bool managed = findAllocation(devPtr, &found) &&
                 (found.kind == AllocationKind::Managed ||
                  found.kind == AllocationKind::ManagedVariable);
  if (!managed || found.base != devPtr || (length != 0 && length != found.size))
    return reportError(cudaErrorInvalidValue, "cudaStreamAttachMemAsync",
                       "not the start of a managed allocation, or not its "
                       "whole size");
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
  if (refuseDuringCapture(stream, "cudaStreamSynchronize"))
    return cudaErrorStreamCaptureUnsupported;
  Ticket ticket = 0;
  if (!lastTicketOf(stream, &ticket))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamSynchronize");
  waitForTicket(ticket);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (refuseDuringCapture(stream, "cudaStreamQuery"))
    return cudaErrorStreamCaptureUnsupported;
  Ticket ticket = 0;
  if (!lastTicketOf(stream, &ticket))
    return reportError(cudaErrorInvalidResourceHandle, "cudaStreamQuery");
  // cudaErrorNotReady is a status, not a failure: CUDA does not record it.
  return isTicketDone(ticket) ? cudaSuccess : cudaErrorNotReady;
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                           cudaEvent_t event,
                                           unsigned int flags) {
  const char *call = "cudaStreamWaitEvent";
  std::shared_ptr<Event> state = findEvent(event);
  if (!isValidStream(stream) || !state)
    return reportError(cudaErrorInvalidResourceHandle, call);
  if (flags & ~unsigned(cudaEventWaitExternal))
    return reportError(cudaErrorInvalidValue, call);
  // The event's record was submitted before this call, and the single FIFO
  // runs it before anything submitted to `stream` from now on. An event
  // recorded in a capture brings the waiting stream into that capture.
  std::shared_ptr<Capture> capture = state->capturedIn.lock();
  if (!capture || capture->ended)
    return cudaSuccess;
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (found->capture == capture)
    return cudaSuccess;
  if (found->capture)
    return reportError(cudaErrorStreamCaptureMerge, call,
                       "the stream takes part in another capture");
  if (isDefaultStreamHandle(stream))
    return reportError(cudaErrorStreamCaptureImplicit, call,
                       "the default stream cannot join a capture");
  found->capture = capture;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                             cudaStreamCallback_t callback,
                                             void *userData,
                                             unsigned int flags) {
  if (!callback || flags != 0)
    return reportError(cudaErrorInvalidValue, "cudaStreamAddCallback");
  // As in CUDA, stream callbacks cannot be captured (cudaLaunchHostFunc
  // can); the capture is invalidated.
  if (refuseDuringCapture(stream, "cudaStreamAddCallback"))
    return cudaErrorStreamCaptureUnsupported;
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
  if (found->capture) {
    // A record inside a capture only orders the capture's streams.
    state->capturedIn = found->capture;
    return cudaSuccess;
  }
  state->capturedIn.reset();
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

//===----------------------------------------------------------------------===//
// Stream capture
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                              enum cudaStreamCaptureMode mode) {
  const char *call = "cudaStreamBeginCapture";
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
    return reportError(cudaErrorInvalidValue, call, "capture mode %d",
                       static_cast<int>(mode));
  if (isDefaultStreamHandle(stream))
    return reportError(cudaErrorStreamCaptureUnsupported, call,
                       "the default stream cannot be captured");
  static std::atomic<unsigned long long> nextId{1};
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found)
    return reportError(cudaErrorInvalidResourceHandle, call);
  if (found->capture)
    return reportError(cudaErrorIllegalState, call,
                       "the stream is already capturing");
  auto capture = std::make_shared<Capture>();
  capture->graph = std::make_shared<Graph>();
  capture->handle = registerGraph(capture->graph);
  capture->origin = stream;
  capture->id = nextId++;
  found->capture = std::move(capture);
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                            cudaGraph_t *pGraph) {
  const char *call = "cudaStreamEndCapture";
  if (!pGraph)
    return reportError(cudaErrorInvalidValue, call);
  HandleTables &t = tables();
  std::unique_lock<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found)
    return reportError(cudaErrorInvalidResourceHandle, call);
  std::shared_ptr<Capture> capture = found->capture;
  if (!capture)
    return reportError(cudaErrorIllegalState, call,
                       "the stream is not capturing");
  if (capture->origin != stream) {
    capture->invalidated = true;
    return reportError(cudaErrorStreamCaptureUnmatched, call,
                       "the capture began in another stream");
  }
  // Every stream that joined the capture leaves it with its origin.
  found->capture.reset();
  for (auto &entry : t.streams)
    if (entry.second->capture == capture)
      entry.second->capture.reset();
  capture->ended = true;
  lock.unlock();
  if (capture->invalidated) {
    forgetGraph(capture->handle);
    *pGraph = nullptr;
    return reportError(cudaErrorStreamCaptureInvalidated, call);
  }
  *pGraph = capture->handle;
  return cudaSuccess;
}

/// The capture state of `stream`, for cudaStreamGetCaptureInfo and
/// cudaStreamIsCapturing (`call`).
static cudaError_t captureInfo(cudaStream_t stream, const char *call,
                               cudaStreamCaptureStatus *captureStatus_out,
                               unsigned long long *id_out,
                               cudaGraph_t *graph_out) {
  if (!captureStatus_out)
    return reportError(cudaErrorInvalidValue, call);
  HandleTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  Stream *found = findStreamLocked(t, stream);
  if (!found)
    return reportError(cudaErrorInvalidResourceHandle, call);
  const Capture *capture = found->capture.get();
  *captureStatus_out = !capture ? cudaStreamCaptureStatusNone
                       : capture->invalidated
                           ? cudaStreamCaptureStatusInvalidated
                           : cudaStreamCaptureStatusActive;
  if (id_out && capture)
    *id_out = capture->id;
  if (graph_out)
    *graph_out = capture ? capture->handle : nullptr;
  return cudaSuccess;
}

extern "C" cudaError_t cudaStreamGetCaptureInfo(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out,
    const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out) {
  cudaError_t status = captureInfo(stream, "cudaStreamGetCaptureInfo",
                                   captureStatus_out, id_out, graph_out);
  // The captured operations form a chain; respec does not expose its nodes.
  if (dependencies_out)
    *dependencies_out = nullptr;
  if (edgeData_out)
    *edgeData_out = nullptr;
  if (numDependencies_out)
    *numDependencies_out = 0;
  return status;
}

extern "C" cudaError_t
cudaStreamIsCapturing(cudaStream_t stream,
                      enum cudaStreamCaptureStatus *pCaptureStatus) {
  return captureInfo(stream, "cudaStreamIsCapturing", pCaptureStatus, nullptr,
                     nullptr);
}

extern "C" cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  // The modes restrict which unsafe calls other threads may make during a
  // capture; respec does not police them, but keeps each thread's mode.
  static thread_local cudaStreamCaptureMode current =
      cudaStreamCaptureModeGlobal;
  if (!mode || *mode < cudaStreamCaptureModeGlobal ||
      *mode > cudaStreamCaptureModeRelaxed)
    return reportError(cudaErrorInvalidValue,
                       "cudaThreadExchangeStreamCaptureMode");
  std::swap(current, *mode);
  return cudaSuccess;
}

//===- Streams.cpp - Streams, events and host callbacks on the GPU --------===//
//
// Runtime streams and events are the driver's handles themselves, and the
// runtime's stream and event flags have the driver's values, so these calls
// forward to the driver after validating what CUDA's runtime validates.
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/Diagnostics.h"
#include "Context.h"

using namespace respec;
using namespace respec::gpu;

namespace {

/// A legacy stream callback carried through cuLaunchHostFunc, which passes
/// only one pointer.
struct StreamCallback {
  cudaStreamCallback_t callback;
  cudaStream_t stream;
  void *userData;
};

void runStreamCallback(void *data) {
  auto *pending = static_cast<StreamCallback *>(data);
  // A host function only runs when the work before it succeeded.
  pending->callback(pending->stream, cudaSuccess, pending->userData);
  delete pending;
}

cudaError_t addCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                        void *userData, unsigned flags, const char *call) {
  if (!callback || flags != 0)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  // The callback's state is freed after its one run, so it cannot become a
  // graph node that runs at every launch; CUDA refuses stream callbacks in
  // a capture too (cudaLaunchHostFunc is captured).
  int capturing = CU_STREAM_CAPTURE_STATUS_NONE;
  if (driver().streamIsCapturing &&
      driver().streamIsCapturing(toDriverStream(stream), &capturing) ==
          CUDA_SUCCESS &&
      capturing != CU_STREAM_CAPTURE_STATUS_NONE)
    return reportError(cudaErrorStreamCaptureUnsupported, call,
                       "stream callbacks cannot be captured; use "
                       "cudaLaunchHostFunc");
  auto *pending = new StreamCallback{callback, stream, userData};
  status = checkDriver(driver().launchHostFunc(toDriverStream(stream),
                                               runStreamCallback, pending),
                       call);
  if (status != cudaSuccess)
    delete pending;
  return status;
}

cudaError_t launchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData,
                           const char *call) {
  if (!fn)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().launchHostFunc(toDriverStream(stream), fn, userData), call);
}

cudaError_t synchronizeStream(cudaStream_t stream, const char *call) {
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().streamSynchronize(toDriverStream(stream)), call);
}

/// cudaErrorNotReady is a status, not a failure: CUDA does not record it.
cudaError_t queryResult(CUresult result, const char *call) {
  if (result == CUDA_ERROR_NOT_READY)
    return cudaErrorNotReady;
  return checkDriver(result, call);
}

cudaError_t queryStream(cudaStream_t stream, const char *call) {
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return queryResult(driver().streamQuery(toDriverStream(stream)), call);
}

cudaError_t waitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags,
                      const char *call) {
  if (flags & ~unsigned(cudaEventWaitExternal))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().streamWaitEvent(toDriverStream(stream),
                                              reinterpret_cast<CUevent>(event),
                                              flags),
                     call);
}

cudaError_t recordEvent(cudaEvent_t event, cudaStream_t stream, unsigned flags,
                        const char *call) {
  if (flags & ~unsigned(cudaEventRecordExternal))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  auto driverEvent = reinterpret_cast<CUevent>(event);
  // The flag-less driver call works with every driver version.
  return checkDriver(
      flags ? driver().eventRecordWithFlags(driverEvent, toDriverStream(stream),
                                            flags)
            : driver().eventRecord(driverEvent, toDriverStream(stream)),
      call);
}

} // namespace

cudaError_t respec::createStream(cudaStream_t *pStream, unsigned flags,
                                 int priority, const char *call) {
  if (!pStream || (flags & ~unsigned(cudaStreamNonBlocking)))
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUstream stream = nullptr;
  status = checkDriver(
      driver().streamCreateWithPriority(&stream, flags, priority), call);
  if (status == cudaSuccess)
    *pStream = reinterpret_cast<cudaStream_t>(stream);
  return status;
}

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                        int *greatestPriority) {
  const char *call = "cudaDeviceGetStreamPriorityRange";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  int least = 0, greatest = 0;
  status =
      checkDriver(driver().ctxGetStreamPriorityRange(&least, &greatest), call);
  if (leastPriority)
    *leastPriority = least;
  if (greatestPriority)
    *greatestPriority = greatest;
  return status;
}

extern "C" cudaError_t cudaStreamGetPriority(cudaStream_t hStream,
                                             int *priority) {
  const char *call = "cudaStreamGetPriority";
  if (!priority)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().streamGetPriority(toDriverStream(hStream), priority), call);
}

extern "C" cudaError_t cudaStreamGetFlags(cudaStream_t hStream,
                                          unsigned int *flags) {
  const char *call = "cudaStreamGetFlags";
  if (!flags)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().streamGetFlags(toDriverStream(hStream), flags),
                     call);
}

extern "C" cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  const char *call = "cudaStreamDestroy";
  // The default streams are not objects the program may destroy.
  if (!stream || stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return reportError(cudaErrorInvalidResourceHandle, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().streamDestroy(toDriverStream(stream)), call);
}

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return synchronizeStream(stream, "cudaStreamSynchronize");
}

extern "C" cudaError_t cudaStreamQuery(cudaStream_t stream) {
  return queryStream(stream, "cudaStreamQuery");
}

extern "C" cudaError_t cudaStreamWaitEvent(cudaStream_t stream,
                                           cudaEvent_t event,
                                           unsigned int flags) {
  return waitEvent(stream, event, flags, "cudaStreamWaitEvent");
}

extern "C" cudaError_t cudaStreamAddCallback(cudaStream_t stream,
                                             cudaStreamCallback_t callback,
                                             void *userData,
                                             unsigned int flags) {
  return addCallback(stream, callback, userData, flags,
                     "cudaStreamAddCallback");
}

extern "C" cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
                                          void *userData) {
  return launchHostFunc(stream, fn, userData, "cudaLaunchHostFunc");
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event,
                                                unsigned int flags) {
  const char *call = "cudaEventCreateWithFlags";
  constexpr unsigned knownFlags =
      cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (!event || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, call);
  // Interprocess events must also disable timing, as in CUDA.
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming))
    return reportError(cudaErrorInvalidValue, call,
                       "cudaEventInterprocess requires cudaEventDisableTiming");
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUevent created = nullptr;
  status = checkDriver(driver().eventCreate(&created, flags), call);
  if (status == cudaSuccess)
    *event = reinterpret_cast<cudaEvent_t>(created);
  return status;
}

extern "C" cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

extern "C" cudaError_t cudaEventDestroy(cudaEvent_t event) {
  const char *call = "cudaEventDestroy";
  if (!event)
    return reportError(cudaErrorInvalidResourceHandle, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().eventDestroy(reinterpret_cast<CUevent>(event)),
                     call);
}

extern "C" cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return recordEvent(event, stream, 0, "cudaEventRecord");
}

extern "C" cudaError_t cudaEventRecordWithFlags(cudaEvent_t event,
                                                cudaStream_t stream,
                                                unsigned int flags) {
  return recordEvent(event, stream, flags, "cudaEventRecordWithFlags");
}

extern "C" cudaError_t cudaEventQuery(cudaEvent_t event) {
  const char *call = "cudaEventQuery";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return queryResult(driver().eventQuery(reinterpret_cast<CUevent>(event)),
                     call);
}

extern "C" cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  const char *call = "cudaEventSynchronize";
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().eventSynchronize(reinterpret_cast<CUevent>(event)), call);
}

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                            cudaEvent_t end) {
  const char *call = "cudaEventElapsedTime";
  if (!ms)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return queryResult(driver().eventElapsedTime(ms,
                                               reinterpret_cast<CUevent>(start),
                                               reinterpret_cast<CUevent>(end)),
                     call);
}

//===----------------------------------------------------------------------===//
// Per-thread default stream variants (_ptsz): the null stream is the calling
// thread's per-thread stream.
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) {
  return queryStream(perThreadDefault(stream), "cudaStreamQuery");
}

extern "C" cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream,
                                               unsigned int *flags) {
  return cudaStreamGetFlags(perThreadDefault(stream), flags);
}

extern "C" cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream,
                                                  int *priority) {
  return cudaStreamGetPriority(perThreadDefault(stream), priority);
}

extern "C" cudaError_t cudaEventRecord_ptsz(cudaEvent_t event,
                                            cudaStream_t stream) {
  return recordEvent(event, perThreadDefault(stream), 0, "cudaEventRecord");
}

extern "C" cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
                                                     cudaStream_t stream,
                                                     unsigned int flags) {
  return recordEvent(event, perThreadDefault(stream), flags,
                     "cudaEventRecordWithFlags");
}

extern "C" cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream,
                                                cudaEvent_t event,
                                                unsigned int flags) {
  return waitEvent(perThreadDefault(stream), event, flags,
                   "cudaStreamWaitEvent");
}

extern "C" cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                                  cudaStreamCallback_t callback,
                                                  void *userData,
                                                  unsigned int flags) {
  return addCallback(perThreadDefault(stream), callback, userData, flags,
                     "cudaStreamAddCallback");
}

extern "C" cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return synchronizeStream(perThreadDefault(stream), "cudaStreamSynchronize");
}

extern "C" cudaError_t
cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  return launchHostFunc(perThreadDefault(stream), fn, userData,
                        "cudaLaunchHostFunc");
}

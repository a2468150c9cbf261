//===- Streams.h - Submitting work to CUDA streams on the CPU device ------===//

#ifndef RESPEC_RUNTIME_CPU_STREAMS_H
#define RESPEC_RUNTIME_CPU_STREAMS_H

#include <cuda_runtime_api.h>

#include <functional>

namespace respec {
namespace cpu {

/// True for the default stream handles (0, cudaStreamLegacy,
/// cudaStreamPerThread) and for streams created and not yet destroyed.
bool isValidStream(cudaStream_t stream);

/// Where a work item may run.
enum class Placement {
  /// On the calling thread when the queue is idle, else on the worker
  /// (kernels, copies, memsets, event records; see tryReserveInlineWork).
  InlineWhenIdle,
  /// Always on the worker thread (host callbacks, which may synchronize).
  Worker,
};

/// Submits `work` on `stream`; fails with cudaErrorInvalidResourceHandle
/// (reported as a failure of `call`) when the stream is not valid. With
/// Placement::InlineWhenIdle the work may have run when this returns. A
/// capturing stream records the work into its capture's graph, with
/// `kernel` (a kernel launch's parameters, valid as long as `work` is) as
/// what the node queries answer.
cudaError_t enqueueOnStream(cudaStream_t stream, const char *call,
                            std::function<void()> work,
                            Placement placement = Placement::InlineWhenIdle,
                            const cudaKernelNodeParams *kernel = nullptr);

/// Queues `work` on `stream` and waits for it: the synchronous API calls
/// (cudaMemcpy, cudaMemset, ...) behave as work on the default stream. On a
/// capturing stream the work is recorded, like any other.
cudaError_t runOnStreamAndWait(cudaStream_t stream, const char *call,
                               std::function<void()> work);

/// True while `stream` takes part in a stream capture: work submitted to it
/// is recorded into the capture's graph instead of run.
bool isCapturing(cudaStream_t stream);

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_STREAMS_H

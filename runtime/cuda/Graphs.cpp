//===- Graphs.cpp - Stream capture and CUDA graphs on the GPU -------------===//
//
// Stream capture and graphs are the driver's (cuStreamBeginCapture,
// cuGraph*): the runtime's graph handles are the driver's, and its capture
// modes and statuses, update results and the layout of
// cudaGraphExecUpdateResultInfo are the driver's, so they pass through
// unchanged. The runtime checks the arguments the CPU runtime checks where
// the driver would write through a null pointer or could misread a
// value.
//
//===----------------------------------------------------------------------===//

#include "../common/Diagnostics.h"
#include "Context.h"

#include <cstddef>

using namespace respec;
using namespace respec::gpu;

static_assert(cudaStreamCaptureModeGlobal == CU_STREAM_CAPTURE_MODE_GLOBAL &&
              cudaStreamCaptureModeThreadLocal ==
                  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
              cudaStreamCaptureModeRelaxed == CU_STREAM_CAPTURE_MODE_RELAXED);
static_assert(cudaStreamCaptureStatusNone == CU_STREAM_CAPTURE_STATUS_NONE &&
              cudaStreamCaptureStatusActive ==
                  CU_STREAM_CAPTURE_STATUS_ACTIVE &&
              cudaStreamCaptureStatusInvalidated ==
                  CU_STREAM_CAPTURE_STATUS_INVALIDATED);
static_assert(sizeof(cudaStreamCaptureMode) == sizeof(int) &&
              sizeof(cudaStreamCaptureStatus) == sizeof(int));
static_assert(sizeof(cudaGraphEdgeData) == sizeof(CUgraphEdgeData));
static_assert(sizeof(cudaGraphExecUpdateResultInfo) ==
                  sizeof(CUgraphExecUpdateResultInfo) &&
              offsetof(cudaGraphExecUpdateResultInfo, errorNode) ==
                  offsetof(CUgraphExecUpdateResultInfo, errorNode) &&
              offsetof(cudaGraphExecUpdateResultInfo, errorFromNode) ==
                  offsetof(CUgraphExecUpdateResultInfo, errorFromNode));
static_assert(cudaGraphExecUpdateSuccess == CU_GRAPH_EXEC_UPDATE_SUCCESS &&
              cudaGraphExecUpdateError == CU_GRAPH_EXEC_UPDATE_ERROR);

namespace {

/// Graph calls need a driver with the graph entry points (CUDA 12.3 or
/// newer); older drivers run everything else.
cudaError_t requireGraphEntryPoints(const char *call) {
  if (const char *missing = missingGraphEntryPoint(driver()))
    return reportError(cudaErrorNotSupported, call,
                       "the CUDA driver lacks %s; graphs and stream capture "
                       "need a CUDA 12.3 or newer driver",
                       missing);
  return cudaSuccess;
}

/// enterContext, for a graph call.
cudaError_t enterGraphContext(const char *call) {
  cudaError_t status = enterContext(call);
  return status == cudaSuccess ? requireGraphEntryPoints(call) : status;
}

CUgraph toDriverGraph(cudaGraph_t graph) {
  return reinterpret_cast<CUgraph>(graph);
}

cudaGraph_t fromDriverGraph(CUgraph graph) {
  return reinterpret_cast<cudaGraph_t>(graph);
}

CUgraphExec toDriverExec(cudaGraphExec_t exec) {
  return reinterpret_cast<CUgraphExec>(exec);
}

bool isValidMode(cudaStreamCaptureMode mode) {
  return mode >= cudaStreamCaptureModeGlobal &&
         mode <= cudaStreamCaptureModeRelaxed;
}

cudaError_t beginCapture(cudaStream_t stream, cudaStreamCaptureMode mode,
                         const char *call) {
  if (!isValidMode(mode))
    return reportError(cudaErrorInvalidValue, call, "capture mode %d",
                       static_cast<int>(mode));
  // The legacy default stream synchronizes with every blocking stream and
  // cannot be captured; the per-thread default stream can.
  if (!stream || stream == cudaStreamLegacy)
    return reportError(cudaErrorStreamCaptureUnsupported, call,
                       "the legacy default stream cannot be captured");
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().streamBeginCapture(toDriverStream(stream), mode),
                     call);
}

cudaError_t endCapture(cudaStream_t stream, cudaGraph_t *pGraph,
                       const char *call) {
  if (!pGraph)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  CUgraph graph = nullptr;
  status = checkDriver(
      driver().streamEndCapture(toDriverStream(stream), &graph), call);
  // An invalidated capture ends with an error and a null graph.
  *pGraph = fromDriverGraph(graph);
  return status;
}

cudaError_t isCapturing(cudaStream_t stream,
                        cudaStreamCaptureStatus *pCaptureStatus,
                        const char *call) {
  if (!pCaptureStatus)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  int captureStatus = CU_STREAM_CAPTURE_STATUS_NONE;
  status = checkDriver(
      driver().streamIsCapturing(toDriverStream(stream), &captureStatus), call);
  if (status == cudaSuccess)
    *pCaptureStatus = static_cast<cudaStreamCaptureStatus>(captureStatus);
  return status;
}

cudaError_t getCaptureInfo(cudaStream_t stream,
                           cudaStreamCaptureStatus *captureStatus_out,
                           unsigned long long *id_out, cudaGraph_t *graph_out,
                           const cudaGraphNode_t **dependencies_out,
                           const cudaGraphEdgeData **edgeData_out,
                           size_t *numDependencies_out, const char *call) {
  if (!captureStatus_out)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  int captureStatus = CU_STREAM_CAPTURE_STATUS_NONE;
  CUgraph graph = nullptr;
  status =
      checkDriver(driver().streamGetCaptureInfo(
                      toDriverStream(stream), &captureStatus, id_out,
                      graph_out ? &graph : nullptr,
                      reinterpret_cast<const CUgraphNode **>(dependencies_out),
                      reinterpret_cast<const CUgraphEdgeData **>(edgeData_out),
                      numDependencies_out),
                  call);
  if (status != cudaSuccess)
    return status;
  *captureStatus_out = static_cast<cudaStreamCaptureStatus>(captureStatus);
  if (graph_out)
    *graph_out = fromDriverGraph(graph);
  return cudaSuccess;
}

cudaError_t uploadGraph(cudaGraphExec_t graphExec, cudaStream_t stream,
                        const char *call) {
  if (!graphExec)
    return reportError(cudaErrorInvalidValue, call, "null executable graph");
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().graphUpload(toDriverExec(graphExec), toDriverStream(stream)),
      call);
}

cudaError_t launchGraph(cudaGraphExec_t graphExec, cudaStream_t stream,
                        const char *call) {
  if (!graphExec)
    return reportError(cudaErrorInvalidValue, call, "null executable graph");
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().graphLaunch(toDriverExec(graphExec), toDriverStream(stream)),
      call);
}

} // namespace

//===----------------------------------------------------------------------===//
// Stream capture
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
                                              enum cudaStreamCaptureMode mode) {
  return beginCapture(stream, mode, "cudaStreamBeginCapture");
}

extern "C" cudaError_t cudaStreamEndCapture(cudaStream_t stream,
                                            cudaGraph_t *pGraph) {
  return endCapture(stream, pGraph, "cudaStreamEndCapture");
}

extern "C" cudaError_t
cudaStreamIsCapturing(cudaStream_t stream,
                      enum cudaStreamCaptureStatus *pCaptureStatus) {
  return isCapturing(stream, pCaptureStatus, "cudaStreamIsCapturing");
}

extern "C" cudaError_t cudaStreamGetCaptureInfo(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out,
    const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out) {
  return getCaptureInfo(stream, captureStatus_out, id_out, graph_out,
                        dependencies_out, edgeData_out, numDependencies_out,
                        "cudaStreamGetCaptureInfo");
}

extern "C" cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode) {
  const char *call = "cudaThreadExchangeStreamCaptureMode";
  if (!mode || !isValidMode(*mode))
    return reportError(cudaErrorInvalidValue, call);
  // The mode belongs to the thread, not to a context.
  cudaError_t status = ensureDriver(call);
  if (status == cudaSuccess)
    status = requireGraphEntryPoints(call);
  if (status != cudaSuccess)
    return status;
  int driverMode = *mode;
  status =
      checkDriver(driver().threadExchangeStreamCaptureMode(&driverMode), call);
  if (status == cudaSuccess)
    *mode = static_cast<cudaStreamCaptureMode>(driverMode);
  return status;
}

//===----------------------------------------------------------------------===//
// Graphs and executable graphs
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaGraphCreate(cudaGraph_t *pGraph,
                                       unsigned int flags) {
  const char *call = "cudaGraphCreate";
  if (!pGraph || flags != 0)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  CUgraph graph = nullptr;
  status = checkDriver(driver().graphCreate(&graph, flags), call);
  if (status == cudaSuccess)
    *pGraph = fromDriverGraph(graph);
  return status;
}

extern "C" cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  const char *call = "cudaGraphDestroy";
  if (!graph)
    return reportError(cudaErrorInvalidValue, call, "null graph");
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().graphDestroy(toDriverGraph(graph)), call);
}

extern "C" cudaError_t
cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  const char *call = "cudaGraphGetNodes";
  if (!graph || !numNodes)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().graphGetNodes(toDriverGraph(graph),
                             reinterpret_cast<CUgraphNode *>(nodes), numNodes),
      call);
}

extern "C" cudaError_t
cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                              unsigned long long flags) {
  const char *call = "cudaGraphInstantiate";
  if (!pGraphExec || !graph)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  // The flags have the driver's values; the driver checks them (device
  // launch is a GPU feature the CPU runtime lacks).
  CUgraphExec exec = nullptr;
  status = checkDriver(
      driver().graphInstantiateWithFlags(&exec, toDriverGraph(graph), flags),
      call);
  if (status == cudaSuccess)
    *pGraphExec = reinterpret_cast<cudaGraphExec_t>(exec);
  return status;
}

extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                            cudaGraph_t graph,
                                            unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
}

extern "C" cudaError_t
cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                    cudaGraphExecUpdateResultInfo *resultInfo) {
  const char *call = "cudaGraphExecUpdate";
  if (!hGraphExec || !hGraph)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  // The result structure is optional, as in the CPU runtime.
  CUgraphExecUpdateResultInfo ignored{};
  CUgraphExecUpdateResultInfo *info =
      resultInfo ? reinterpret_cast<CUgraphExecUpdateResultInfo *>(resultInfo)
                 : &ignored;
  return checkDriver(driver().graphExecUpdate(toDriverExec(hGraphExec),
                                              toDriverGraph(hGraph), info),
                     call);
}

extern "C" cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec,
                                       cudaStream_t stream) {
  return uploadGraph(graphExec, stream, "cudaGraphUpload");
}

extern "C" cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                       cudaStream_t stream) {
  return launchGraph(graphExec, stream, "cudaGraphLaunch");
}

extern "C" cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  const char *call = "cudaGraphExecDestroy";
  if (!graphExec)
    return reportError(cudaErrorInvalidValue, call, "null executable graph");
  cudaError_t status = enterGraphContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().graphExecDestroy(toDriverExec(graphExec)), call);
}

//===----------------------------------------------------------------------===//
// Per-thread default stream variants (_ptsz): the null stream is the calling
// thread's per-thread stream.
//===----------------------------------------------------------------------===//

extern "C" cudaError_t
cudaStreamBeginCapture_ptsz(cudaStream_t stream,
                            enum cudaStreamCaptureMode mode) {
  return beginCapture(perThreadDefault(stream), mode, "cudaStreamBeginCapture");
}

extern "C" cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream,
                                                 cudaGraph_t *pGraph) {
  return endCapture(perThreadDefault(stream), pGraph, "cudaStreamEndCapture");
}

extern "C" cudaError_t
cudaStreamIsCapturing_ptsz(cudaStream_t stream,
                           enum cudaStreamCaptureStatus *pCaptureStatus) {
  return isCapturing(perThreadDefault(stream), pCaptureStatus,
                     "cudaStreamIsCapturing");
}

extern "C" cudaError_t cudaStreamGetCaptureInfo_ptsz(
    cudaStream_t stream, enum cudaStreamCaptureStatus *captureStatus_out,
    unsigned long long *id_out, cudaGraph_t *graph_out,
    const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out) {
  return getCaptureInfo(perThreadDefault(stream), captureStatus_out, id_out,
                        graph_out, dependencies_out, edgeData_out,
                        numDependencies_out, "cudaStreamGetCaptureInfo");
}

extern "C" cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t graphExec,
                                            cudaStream_t stream) {
  return uploadGraph(graphExec, perThreadDefault(stream), "cudaGraphUpload");
}

extern "C" cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t graphExec,
                                            cudaStream_t stream) {
  return launchGraph(graphExec, perThreadDefault(stream), "cudaGraphLaunch");
}

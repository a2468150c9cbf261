//===- Graphs.cpp - CUDA graphs: instantiation and launch -----------------===//
//
// Graphs come from stream capture (Streams.cpp): each is the list of
// operations the captured streams submitted. An executable graph is a
// snapshot of that list; launching it submits one work item to the stream
// that runs the operations in order, so a graph launch costs one queue
// entry, and kernel arguments, copies and memsets are those captured.
// Building graphs node by node (cudaGraphAddKernelNode, ...) is not
// supported.
//
//===----------------------------------------------------------------------===//

#include "Graphs.h"

#include "../common/Diagnostics.h"

#include <mutex>
#include <unordered_map>

using namespace respec;
using namespace respec::cpu;

namespace {

/// An instantiated graph: the operations it runs, shared with pending
/// launches so that destroying it does not disturb them.
struct GraphExec {
  std::shared_ptr<const std::vector<GraphStep>> steps;
};

struct GraphTables {
  std::mutex mutex;
  std::unordered_map<cudaGraph_t, std::shared_ptr<Graph>> graphs;
  std::unordered_map<cudaGraphExec_t, std::unique_ptr<GraphExec>> execs;
};

GraphTables &tables() {
  static GraphTables *instance = new GraphTables;
  return *instance;
}

std::shared_ptr<Graph> findGraph(cudaGraph_t handle) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.graphs.find(handle);
  return it == t.graphs.end() ? nullptr : it->second;
}

/// A snapshot of `graph`'s operations.
std::shared_ptr<const std::vector<GraphStep>> snapshot(const Graph &graph) {
  // Captures append under the stream table's lock; a graph is instantiated
  // after its capture ended, when nothing appends any more.
  return std::make_shared<const std::vector<GraphStep>>(graph.steps);
}

} // namespace

cudaGraph_t respec::cpu::registerGraph(std::shared_ptr<Graph> graph) {
  auto handle = reinterpret_cast<cudaGraph_t>(graph.get());
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.graphs.emplace(handle, std::move(graph));
  return handle;
}

void respec::cpu::forgetGraph(cudaGraph_t handle) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.graphs.erase(handle);
}

extern "C" cudaError_t cudaGraphCreate(cudaGraph_t *pGraph,
                                       unsigned int flags) {
  if (!pGraph || flags != 0)
    return reportError(cudaErrorInvalidValue, "cudaGraphCreate");
  *pGraph = registerGraph(std::make_shared<Graph>());
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.graphs.erase(graph))
    return reportError(cudaErrorInvalidValue, "cudaGraphDestroy",
                       "%p is not a graph", static_cast<void *>(graph));
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  const char *call = "cudaGraphGetNodes";
  std::shared_ptr<Graph> found = findGraph(graph);
  if (!found || !numNodes)
    return reportError(cudaErrorInvalidValue, call);
  if (nodes)
    return reportError(cudaErrorNotSupported, call,
                       "respec counts a graph's nodes but has no node "
                       "handles");
  *numNodes = found->steps.size();
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
                              unsigned long long flags) {
  const char *call = "cudaGraphInstantiate";
  constexpr unsigned long long knownFlags =
      cudaGraphInstantiateFlagAutoFreeOnLaunch |
      cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagUseNodePriority;
  if (!pGraphExec || (flags & ~knownFlags))
    return reportError(cudaErrorInvalidValue, call, "flags 0x%llx", flags);
  std::shared_ptr<Graph> found = findGraph(graph);
  if (!found)
    return reportError(cudaErrorInvalidValue, call, "%p is not a graph",
                       static_cast<void *>(graph));
  auto exec = std::make_unique<GraphExec>();
  exec->steps = snapshot(*found);
  auto handle = reinterpret_cast<cudaGraphExec_t>(exec.get());
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.execs.emplace(handle, std::move(exec));
  *pGraphExec = handle;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec,
                                            cudaGraph_t graph,
                                            unsigned long long flags) {
  return cudaGraphInstantiateWithFlags(pGraphExec, graph, flags);
}

extern "C" cudaError_t
cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                    cudaGraphExecUpdateResultInfo *info) {
  const char *call = "cudaGraphExecUpdate";
  std::shared_ptr<Graph> graph = findGraph(hGraph);
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.execs.find(hGraphExec);
  if (!graph || it == t.execs.end())
    return reportError(cudaErrorInvalidValue, call);
  // The executable graph takes the new graph's operations: launches from
  // now on run them, pending launches keep the old ones.
  it->second->steps = snapshot(*graph);
  if (info) {
    info->result = cudaGraphExecUpdateSuccess;
    info->errorNode = nullptr;
    info->errorFromNode = nullptr;
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec,
                                       cudaStream_t stream) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.execs.count(graphExec))
    return reportError(cudaErrorInvalidValue, "cudaGraphUpload");
  // Nothing to upload: the CPU device runs from host memory.
  return isValidStream(stream)
             ? cudaSuccess
             : reportError(cudaErrorInvalidResourceHandle, "cudaGraphUpload");
}

extern "C" cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec,
                                       cudaStream_t stream) {
  const char *call = "cudaGraphLaunch";
  std::shared_ptr<const std::vector<GraphStep>> steps;
  {
    GraphTables &t = tables();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.execs.find(graphExec);
    if (it == t.execs.end())
      return reportError(cudaErrorInvalidValue, call,
                         "%p is not an executable graph",
                         static_cast<void *>(graphExec));
    steps = it->second->steps;
  }
  // Host functions may synchronize with the device: a graph with one runs
  // on the worker, as they do.
  bool onWorker = false;
  for (const GraphStep &step : *steps)
    onWorker |= step.placement == Placement::Worker;
  return enqueueOnStream(
      stream, call,
      [steps] {
        for (const GraphStep &step : *steps)
          step.work();
      },
      onWorker ? Placement::Worker : Placement::InlineWhenIdle);
}

extern "C" cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (!t.execs.erase(graphExec))
    return reportError(cudaErrorInvalidValue, "cudaGraphExecDestroy");
  return cudaSuccess;
}

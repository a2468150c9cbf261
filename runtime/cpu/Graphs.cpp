//===- Graphs.cpp - CUDA graphs: instantiation and launch -----------------===//
//
// Graphs come from stream capture (Streams.cpp) or are built node by node
// (cudaGraphAddKernelNode, ...), whose nodes are recorded through the same
// stream calls into the graph. Each graph is a list of operations; an
// executable graph is a snapshot of that list, ordered so that every
// dependency the graph states holds. Launching it submits one work item to
// the stream that runs the operations in order, so a graph launch costs one
// queue entry, and kernel arguments, copies and memsets are those recorded.
//
//===----------------------------------------------------------------------===//

#include "Graphs.h"

#include "../common/Backend.h"
#include "../common/Diagnostics.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <mutex>
#include <queue>
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

/// A snapshot of `graph`'s operations in an order that keeps every edge
/// (Kahn's algorithm, earliest added first), or null if the edges form a
/// cycle.
std::shared_ptr<const std::vector<GraphStep>> snapshot(const Graph &graph) {
  // Captures append under the stream table's lock; a graph is instantiated
  // after its capture ended, when nothing appends any more.
  if (graph.edges.empty())
    return std::make_shared<const std::vector<GraphStep>>(graph.steps);
  size_t count = graph.steps.size();
  std::unordered_map<const GraphNode *, size_t> indexOf;
  for (size_t i = 0; i < count; ++i)
    indexOf[graph.steps[i].node.get()] = i;
  std::vector<std::vector<size_t>> successors(count);
  std::vector<size_t> waitingFor(count, 0);
  for (auto [from, to] : graph.edges) {
    successors[indexOf[from]].push_back(indexOf[to]);
    ++waitingFor[indexOf[to]];
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < count; ++i)
    if (!waitingFor[i])
      ready.push(i);
  auto ordered = std::make_shared<std::vector<GraphStep>>();
  while (!ready.empty()) {
    size_t next = ready.top();
    ready.pop();
    ordered->push_back(graph.steps[next]);
    for (size_t successor : successors[next])
      if (!--waitingFor[successor])
        ready.push(successor);
  }
  if (ordered->size() != count)
    return nullptr;
  return ordered;
}

/// The index of the step of node `node` in `graph`, or -1.
long stepOf(const Graph &graph, cudaGraphNode_t node) {
  for (size_t i = 0; i < graph.steps.size(); ++i)
    if (reinterpret_cast<cudaGraphNode_t>(graph.steps[i].node.get()) == node)
      return static_cast<long>(i);
  return -1;
}

/// The graph that holds node `node`, or null.
std::shared_ptr<Graph> graphOfNode(cudaGraphNode_t node, long *step) {
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  for (auto &[handle, graph] : t.graphs)
    if ((*step = stepOf(*graph, node)) >= 0)
      return graph;
  return nullptr;
}

using Submit = std::function<cudaError_t(cudaStream_t)>;

/// Adds the node that `submit` records (an empty node if it records
/// nothing or is null) to `graph`, after `dependencies`.
cudaError_t addNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                    const cudaGraphNode_t *dependencies, size_t count,
                    cudaGraphNodeType type, const char *call,
                    const Submit &submit,
                    const cudaKernelNodeParams *kernel = nullptr) {
  std::shared_ptr<Graph> found = findGraph(graph);
  if (!pGraphNode || !found || (count && !dependencies))
    return reportError(cudaErrorInvalidValue, call);
  for (size_t i = 0; i < count; ++i)
    if (stepOf(*found, dependencies[i]) < 0)
      return reportError(cudaErrorInvalidValue, call,
                         "dependency %zu is not a node of the graph", i);
  size_t before = found->steps.size();
  if (submit)
    if (cudaError_t status = recordIntoGraph(found, submit)) {
      found->steps.resize(before);
      return status;
    }
  if (found->steps.size() == before)
    found->steps.push_back(
        {[] {}, Placement::InlineWhenIdle, std::make_shared<GraphNode>()});
  GraphNode &node = *found->steps.back().node;
  node.type = type;
  if (kernel)
    node.kernel = *kernel;
  for (size_t i = 0; i < count; ++i)
    found->edges.push_back(
        {reinterpret_cast<const GraphNode *>(dependencies[i]), &node});
  *pGraphNode = reinterpret_cast<cudaGraphNode_t>(&node);
  return cudaSuccess;
}

/// The one step `submit` records, for replacing a node's work.
cudaError_t recordOneStep(const Submit &submit, const char *call,
                          GraphStep *step) {
  auto scratch = std::make_shared<Graph>();
  if (cudaError_t status = recordIntoGraph(scratch, submit))
    return status;
  if (scratch->steps.size() != 1)
    return reportError(cudaErrorInvalidValue, call);
  *step = scratch->steps.front();
  return cudaSuccess;
}

/// Gives node `node` of executable graph `exec` the work `submit` records;
/// launches already queued keep the old work.
cudaError_t replaceExecStep(cudaGraphExec_t exec, cudaGraphNode_t node,
                            cudaGraphNodeType type, const char *call,
                            const Submit &submit) {
  GraphStep replacement;
  if (cudaError_t status = recordOneStep(submit, call, &replacement))
    return status;
  GraphTables &t = tables();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.execs.find(exec);
  if (it == t.execs.end())
    return reportError(cudaErrorInvalidValue, call,
                       "%p is not an executable graph",
                       static_cast<void *>(exec));
  auto steps = std::make_shared<std::vector<GraphStep>>(*it->second->steps);
  for (GraphStep &step : *steps) {
    if (reinterpret_cast<cudaGraphNode_t>(step.node.get()) != node)
      continue;
    if (step.node->type != type)
      return reportError(cudaErrorInvalidValue, call,
                         "the node is of another type");
    step.work = std::move(replacement.work);
    step.placement = replacement.placement;
    it->second->steps = std::move(steps);
    return cudaSuccess;
  }
  return reportError(cudaErrorInvalidValue, call,
                     "the node is not in the executable graph");
}

Submit kernelLaunch(const cudaKernelNodeParams &p, const char *call) {
  return [p, call](cudaStream_t stream) -> cudaError_t {
    if (p.extra)
      return reportError(cudaErrorNotSupported, call,
                         "kernel arguments in the `extra` format are not "
                         "supported by respec");
    return launchKernel(p.func, p.gridDim, p.blockDim, p.kernelParams,
                        p.sharedMemBytes, stream, /*cooperative=*/false, call);
  };
}

Submit copy(const cudaMemcpy3DParms &p, const char *call) {
  return [p, call](cudaStream_t stream) {
    return copy3D(&p, Ordering{stream, true}, call);
  };
}

/// A memset of elements of 1, 2 or 4 bytes (CUDA's memset nodes).
Submit fill(const cudaMemsetParams &p, const char *call) {
  return [p, call](cudaStream_t stream) -> cudaError_t {
    unsigned size = p.elementSize;
    if ((size != 1 && size != 2 && size != 4) || !p.dst ||
        (p.height > 1 && p.pitch < p.width * size))
      return reportError(cudaErrorInvalidValue, call,
                         "element size %u, pitch %zu, width %zu", size, p.pitch,
                         p.width);
    return enqueueOnStream(stream, call, [p, size] {
      for (size_t row = 0; row < p.height; ++row) {
        char *start = static_cast<char *>(p.dst) + row * p.pitch;
        for (size_t i = 0; i < p.width; ++i)
          std::memcpy(start + i * size, &p.value, size); // low bytes first
      }
    });
  };
}

Submit hostCall(const cudaHostNodeParams &p, const char *call) {
  return [p, call](cudaStream_t stream) -> cudaError_t {
    if (!p.fn)
      return reportError(cudaErrorInvalidValue, call);
    return enqueueOnStream(
        stream, call, [p] { p.fn(p.userData); }, Placement::Worker);
  };
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
  // Like CUDA: with `nodes`, up to *numNodes handles, the rest null, and
  // *numNodes becomes the number of handles written.
  size_t count = found->steps.size();
  if (nodes) {
    for (size_t i = 0; i < *numNodes; ++i)
      nodes[i] =
          i < count
              ? reinterpret_cast<cudaGraphNode_t>(found->steps[i].node.get())
              : nullptr;
    count = std::min(count, *numNodes);
  }
  *numNodes = count;
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
  if (!exec->steps)
    return reportError(cudaErrorInvalidValue, call,
                       "the graph's dependencies form a cycle");
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
  auto steps = snapshot(*graph);
  if (!steps)
    return reportError(cudaErrorInvalidValue, call,
                       "the graph's dependencies form a cycle");
  it->second->steps = std::move(steps);
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

//===----------------------------------------------------------------------===//
// Building graphs node by node
//===----------------------------------------------------------------------===//

cudaGraphNodeType respec::cpu::nodeTypeOfCall(const char *call) {
  if (std::strstr(call, "Memcpy"))
    return cudaGraphNodeTypeMemcpy;
  if (std::strstr(call, "Memset"))
    return cudaGraphNodeTypeMemset;
  if (std::strstr(call, "HostFunc") || std::strstr(call, "HostNode") ||
      std::strstr(call, "Callback"))
    return cudaGraphNodeTypeHost;
  if (std::strstr(call, "cudaGraphLaunch") || std::strstr(call, "ChildGraph"))
    return cudaGraphNodeTypeGraph;
  return cudaGraphNodeTypeKernel;
}

extern "C" cudaError_t
cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const cudaKernelNodeParams *pNodeParams) {
  const char *call = "cudaGraphAddKernelNode";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeKernel, call,
                 kernelLaunch(*pNodeParams, call), pNodeParams);
}

extern "C" cudaError_t
cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const cudaMemcpy3DParms *pCopyParams) {
  const char *call = "cudaGraphAddMemcpyNode";
  if (!pCopyParams)
    return reportError(cudaErrorInvalidValue, call);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeMemcpy, call, copy(*pCopyParams, call));
}

extern "C" cudaError_t
cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                         const cudaGraphNode_t *pDependencies,
                         size_t numDependencies, void *dst, const void *src,
                         size_t count, cudaMemcpyKind kind) {
  const char *call = "cudaGraphAddMemcpyNode1D";
  return addNode(
      pGraphNode, graph, pDependencies, numDependencies,
      cudaGraphNodeTypeMemcpy, call, [=](cudaStream_t stream) {
        return copyLinear(dst, src, count, kind, Ordering{stream, true}, call);
      });
}

extern "C" cudaError_t
cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                       const cudaGraphNode_t *pDependencies,
                       size_t numDependencies,
                       const cudaMemsetParams *pMemsetParams) {
  const char *call = "cudaGraphAddMemsetNode";
  if (!pMemsetParams)
    return reportError(cudaErrorInvalidValue, call);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeMemset, call, fill(*pMemsetParams, call));
}

extern "C" cudaError_t
cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                     const cudaGraphNode_t *pDependencies,
                     size_t numDependencies,
                     const cudaHostNodeParams *pNodeParams) {
  const char *call = "cudaGraphAddHostNode";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeHost, call, hostCall(*pNodeParams, call));
}

extern "C" cudaError_t
cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                           const cudaGraphNode_t *pDependencies,
                           size_t numDependencies, cudaGraph_t childGraph) {
  const char *call = "cudaGraphAddChildGraphNode";
  std::shared_ptr<Graph> child = findGraph(childGraph);
  std::shared_ptr<const std::vector<GraphStep>> steps =
      child ? snapshot(*child) : nullptr;
  if (!steps)
    return reportError(cudaErrorInvalidValue, call,
                       "%p is not a graph without cycles",
                       static_cast<void *>(childGraph));
  // The child's operations as they are now, run as one node.
  bool onWorker = false;
  for (const GraphStep &step : *steps)
    onWorker |= step.placement == Placement::Worker;
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeGraph, call, [=](cudaStream_t stream) {
                   return enqueueOnStream(
                       stream, call,
                       [steps] {
                         for (const GraphStep &step : *steps)
                           step.work();
                       },
                       onWorker ? Placement::Worker
                                : Placement::InlineWhenIdle);
                 });
}

extern "C" cudaError_t
cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                      const cudaGraphNode_t *pDependencies,
                      size_t numDependencies) {
  return addNode(pGraphNode, graph, pDependencies, numDependencies,
                 cudaGraphNodeTypeEmpty, "cudaGraphAddEmptyNode", nullptr);
}

extern "C" cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
                                                const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to,
                                                const cudaGraphEdgeData *,
                                                size_t numDependencies) {
  const char *call = "cudaGraphAddDependencies";
  std::shared_ptr<Graph> found = findGraph(graph);
  if (!found || (numDependencies && (!from || !to)))
    return reportError(cudaErrorInvalidValue, call);
  for (size_t i = 0; i < numDependencies; ++i) {
    if (stepOf(*found, from[i]) < 0 || stepOf(*found, to[i]) < 0)
      return reportError(cudaErrorInvalidValue, call,
                         "edge %zu joins nodes of another graph", i);
    found->edges.push_back({reinterpret_cast<const GraphNode *>(from[i]),
                            reinterpret_cast<const GraphNode *>(to[i])});
  }
  return cudaSuccess;
}

extern "C" cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
                                            enum cudaGraphNodeType *pType) {
  long step;
  if (!pType || !graphOfNode(node, &step))
    return reportError(cudaErrorInvalidValue, "cudaGraphNodeGetType");
  *pType = reinterpret_cast<const GraphNode *>(node)->type;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
                             cudaKernelNodeParams *pNodeParams) {
  const char *call = "cudaGraphKernelNodeGetParams";
  long step;
  const auto *found = reinterpret_cast<const GraphNode *>(node);
  if (!pNodeParams || !graphOfNode(node, &step))
    return reportError(cudaErrorInvalidValue, call);
  if (found->type != cudaGraphNodeTypeKernel || !found->kernel.func)
    return reportError(cudaErrorInvalidValue, call, "not a kernel node");
  *pNodeParams = found->kernel;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                             const cudaKernelNodeParams *pNodeParams) {
  const char *call = "cudaGraphKernelNodeSetParams";
  long step;
  std::shared_ptr<Graph> graph = graphOfNode(node, &step);
  if (!pNodeParams || !graph ||
      graph->steps[step].node->type != cudaGraphNodeTypeKernel)
    return reportError(cudaErrorInvalidValue, call);
  GraphStep replacement;
  if (cudaError_t status =
          recordOneStep(kernelLaunch(*pNodeParams, call), call, &replacement))
    return status;
  GraphStep &target = graph->steps[step];
  target.work = std::move(replacement.work);
  target.node->kernel = *pNodeParams;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const cudaKernelNodeParams *pNodeParams) {
  const char *call = "cudaGraphExecKernelNodeSetParams";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return replaceExecStep(hGraphExec, node, cudaGraphNodeTypeKernel, call,
                         kernelLaunch(*pNodeParams, call));
}

extern "C" cudaError_t
cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const cudaMemcpy3DParms *pNodeParams) {
  const char *call = "cudaGraphExecMemcpyNodeSetParams";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return replaceExecStep(hGraphExec, node, cudaGraphNodeTypeMemcpy, call,
                         copy(*pNodeParams, call));
}

extern "C" cudaError_t
cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec,
                                 cudaGraphNode_t node,
                                 const cudaMemsetParams *pNodeParams) {
  const char *call = "cudaGraphExecMemsetNodeSetParams";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return replaceExecStep(hGraphExec, node, cudaGraphNodeTypeMemset, call,
                         fill(*pNodeParams, call));
}

extern "C" cudaError_t
cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                               const cudaHostNodeParams *pNodeParams) {
  const char *call = "cudaGraphExecHostNodeSetParams";
  if (!pNodeParams)
    return reportError(cudaErrorInvalidValue, call);
  return replaceExecStep(hGraphExec, node, cudaGraphNodeTypeHost, call,
                         hostCall(*pNodeParams, call));
}

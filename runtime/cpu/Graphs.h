//===- Graphs.h - CUDA graphs on the CPU device ---------------------------===//
//
// A graph is the work a stream capture recorded (cudaStreamBeginCapture ...
// cudaStreamEndCapture), in the order it was submitted, which respects
// every dependency the captured streams and events expressed: the CPU
// device runs all streams on one in-order queue, so a graph's operations run
// one after the other when it is launched.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_GRAPHS_H
#define RESPEC_RUNTIME_CPU_GRAPHS_H

#include "Streams.h"

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace respec {
namespace cpu {

/// A node of a graph (the handle cudaGraphNode_t points to): what it does,
/// and the parameters it was given, for the node queries.
struct GraphNode {
  cudaGraphNodeType type;
  cudaKernelNodeParams kernel;
};

/// One operation of a graph: the work a stream would have run.
struct GraphStep {
  std::function<void()> work;
  Placement placement;
  std::shared_ptr<GraphNode> node;
};

/// The steps, in the order they were captured or added, and the
/// dependencies the explicit graph API added between them (a step depends
/// on `from` before it in this order unless an edge says otherwise;
/// instantiation orders the steps so that every edge holds).
struct Graph {
  std::vector<GraphStep> steps;
  std::vector<std::pair<const GraphNode *, const GraphNode *>> edges;
};

/// The node type of the work a runtime call (`call`) submits.
cudaGraphNodeType nodeTypeOfCall(const char *call);

/// Runs `submit` with a stream whose work is recorded into `graph` instead
/// of run, as in a capture: the explicit graph API builds its nodes with
/// the same calls as streams take.
cudaError_t
recordIntoGraph(const std::shared_ptr<Graph> &graph,
                const std::function<cudaError_t(cudaStream_t)> &submit);

/// Registers `graph` and returns its handle.
cudaGraph_t registerGraph(std::shared_ptr<Graph> graph);

/// Forgets the graph `handle` names (a capture that failed).
void forgetGraph(cudaGraph_t handle);

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_GRAPHS_H

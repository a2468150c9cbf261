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
#include <vector>

namespace respec {
namespace cpu {

/// One operation of a graph: the work a stream would have run.
struct GraphStep {
  std::function<void()> work;
  Placement placement;
};

struct Graph {
  std::vector<GraphStep> steps;
};

/// Registers `graph` and returns its handle.
cudaGraph_t registerGraph(std::shared_ptr<Graph> graph);

/// Forgets the graph `handle` names (a capture that failed).
void forgetGraph(cudaGraph_t handle);

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_GRAPHS_H

//===- CrossingValues.cpp - Values kept across a barrier ------------------===//
//
// The flow network has two nodes per candidate value v: v.in -> v.out with
// capacity size(v) (cutting it means storing v). A recomputable op needs its
// operands, so u.out -> v.in has infinite capacity for each operand u; a
// value that cannot be recomputed is fed by the source, a needed value feeds
// the sink. Edmonds-Karp finds the maximum flow; the saturated v.in -> v.out
// edges on the source side of the residual graph form the minimum cut.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/CrossingValues.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <limits>

using namespace mlir;
using namespace mlir::respec;

namespace {
/// A small max-flow network with residual capacities.
class FlowNetwork {
public:
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

  int addNode() {
    adjacency.emplace_back();
    return adjacency.size() - 1;
  }

  void addEdge(int from, int to, int64_t capacity) {
    adjacency[from].push_back(edges.size());
    edges.push_back({to, capacity});
    adjacency[to].push_back(edges.size());
    edges.push_back({from, 0});
  }

  void maximizeFlow(int source, int sink) {
    while (true) {
      SmallVector<int> parentEdge(adjacency.size(), -1);
      std::deque<int> queue{source};
      parentEdge[source] = -2;
      while (!queue.empty() && parentEdge[sink] == -1) {
        int node = queue.front();
        queue.pop_front();
        for (int e : adjacency[node])
          if (edges[e].capacity > 0 && parentEdge[edges[e].to] == -1) {
            parentEdge[edges[e].to] = e;
            queue.push_back(edges[e].to);
          }
      }
      if (parentEdge[sink] == -1)
        return;
      int64_t bottleneck = kInfinite;
      for (int node = sink; node != source; node = edges[parentEdge[node] ^ 1].to)
        bottleneck = std::min(bottleneck, edges[parentEdge[node]].capacity);
      for (int node = sink; node != source; node = edges[parentEdge[node] ^ 1].to) {
        edges[parentEdge[node]].capacity -= bottleneck;
        edges[parentEdge[node] ^ 1].capacity += bottleneck;
      }
    }
  }

  /// Nodes reachable from `source` in the residual graph.
  SmallVector<bool> reachableFrom(int source) const {
    SmallVector<bool> reached(adjacency.size(), false);
    std::deque<int> queue{source};
    reached[source] = true;
    while (!queue.empty()) {
      int node = queue.front();
      queue.pop_front();
      for (int e : adjacency[node])
        if (edges[e].capacity > 0 && !reached[edges[e].to]) {
          reached[edges[e].to] = true;
          queue.push_back(edges[e].to);
        }
    }
    return reached;
  }

private:
  struct Edge {
    int to;
    int64_t capacity;
  };
  SmallVector<Edge> edges;
  SmallVector<SmallVector<int>> adjacency;
};
} // namespace

/// The op in `producer` defining `value`, or null if it is available
/// everywhere after the split.
static Operation *producerOf(Value value, Block *producer) {
  Operation *def = value.getDefiningOp();
  return def && def->getBlock() == producer ? def : nullptr;
}

static bool isBefore(Value a, Value b) {
  Operation *opA = a.getDefiningOp(), *opB = b.getDefiningOp();
  if (opA == opB)
    return cast<OpResult>(a).getResultNumber() <
           cast<OpResult>(b).getResultNumber();
  return opA->isBeforeInBlock(opB);
}

CrossingPlan mlir::respec::planCrossingValues(
    Block *producer, ArrayRef<Value> needed,
    function_ref<bool(Operation *)> isRecomputable,
    function_ref<int64_t(Value)> sizeInBytes, bool minimize) {
  CrossingPlan plan;
  if (!minimize) {
    SmallVector<Value> sorted(needed);
    llvm::sort(sorted, isBefore);
    plan.stored.insert(sorted.begin(), sorted.end());
    return plan;
  }

  FlowNetwork network;
  int source = network.addNode(), sink = network.addNode();
  llvm::DenseMap<Value, int> inNode; // out node is inNode + 1
  SmallVector<Value> candidates;
  auto nodeOf = [&](Value value) {
    auto [it, inserted] = inNode.try_emplace(value, 0);
    if (inserted) {
      it->second = network.addNode();
      network.addNode();
      network.addEdge(it->second, it->second + 1,
                      std::max<int64_t>(1, sizeInBytes(value)));
      candidates.push_back(value);
    }
    return it->second;
  };
  for (Value value : needed)
    network.addEdge(nodeOf(value) + 1, sink, FlowNetwork::kInfinite);
  for (size_t i = 0; i < candidates.size(); ++i) {
    Value value = candidates[i];
    Operation *def = producerOf(value, producer);
    if (!isRecomputable(def)) {
      network.addEdge(source, inNode[value], FlowNetwork::kInfinite);
      continue;
    }
    for (Value operand : def->getOperands())
      if (producerOf(operand, producer))
        network.addEdge(nodeOf(operand) + 1, inNode[value],
                        FlowNetwork::kInfinite);
  }
  network.maximizeFlow(source, sink);
  SmallVector<bool> reached = network.reachableFrom(source);

  llvm::DenseSet<Value> cut;
  for (Value value : candidates)
    if (reached[inNode[value]] && !reached[inNode[value] + 1])
      cut.insert(value);

  // Everything needed and not kept is recomputed from kept values; the cut
  // values not needed for that are dropped.
  SmallVector<Value> stored;
  llvm::SetVector<Operation *> recomputed;
  SmallVector<Value> worklist(needed);
  llvm::DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    Operation *def = producerOf(value, producer);
    // A non-recomputable value outside the cut cannot happen with an exact
    // cut; keeping it is correct either way.
    if (cut.contains(value) || !isRecomputable(def)) {
      stored.push_back(value);
      continue;
    }
    recomputed.insert(def);
    for (Value operand : def->getOperands())
      if (producerOf(operand, producer))
        worklist.push_back(operand);
  }
  llvm::sort(stored, isBefore);
  plan.stored.insert(stored.begin(), stored.end());
  plan.recomputed.assign(recomputed.begin(), recomputed.end());
  llvm::sort(plan.recomputed,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return plan;
}

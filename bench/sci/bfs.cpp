// BFS: breadth-first search from node 0 of a random graph in CSR form,
// level-synchronous over the distance array: at level L every node whose
// distance is L (scanned in parallel, in node order) gives its unreached
// neighbours distance L + 1; the search stops after a level that reached no
// node. Concurrent writers of one distance write the same value (relaxed
// atomics make that race well defined).
#include "common.h"

#ifndef NODES
#define NODES (1 << 21)
#endif

int main() {
  const int n = NODES;
  std::vector<int> offsets, edges;
  makeGraph(n, offsets, edges);
  std::vector<int> cost(n);
  int levels = 0;
  timeIt([&] { std::fill(cost.begin(), cost.end(), -1); },
         [&] {
           int *d = cost.data();
           const int *off = offsets.data(), *adj = edges.data();
           d[0] = 0;
           bool changed = true;
           for (levels = 0; changed; ++levels) {
             changed = false;
             const int level = levels;
#pragma omp parallel for reduction(|| : changed) schedule(static)
             for (int v = 0; v < n; ++v) {
               if (d[v] != level)
                 continue;
               for (int e = off[v]; e < off[v + 1]; ++e) {
                 int u = adj[e];
                 if (__atomic_load_n(&d[u], __ATOMIC_RELAXED) == -1) {
                   __atomic_store_n(&d[u], level + 1, __ATOMIC_RELAXED);
                   changed = true;
                 }
               }
             }
           }
         });
  std::fprintf(stderr, "bfs: %d levels\n", levels);
  printChecksum(intChecksum(cost));
  return 0;
}

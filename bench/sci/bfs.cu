// BFS: breadth-first search from node 0 of a random graph in CSR form,
// level-synchronous with masks: `bfsExpand` (one thread per node) takes
// each node of the frontier off the frontier and gives its unvisited
// neighbours the next level's cost, marking them in an update mask;
// `bfsCommit` moves the marked nodes into the frontier and the visited set
// and raises a flag. The host repeats the two launches until the flag stays
// down.
#include "common.h"
#include <cuda_runtime.h>

#ifndef NODES
#define NODES (1 << 21)
#endif
#define BLOCK 256

__global__ void bfsExpand(const int *offsets, const int *edges, bool *frontier,
                          bool *updating, const bool *visited, int *cost,
                          int n) {
  int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < n && frontier[v]) {
    frontier[v] = false;
    for (int e = offsets[v]; e < offsets[v + 1]; ++e) {
      int u = edges[e];
      if (!visited[u]) {
        cost[u] = cost[v] + 1;
        updating[u] = true;
      }
    }
  }
}

__global__ void bfsCommit(bool *frontier, bool *updating, bool *visited,
                          bool *changed, int n) {
  int v = blockIdx.x * BLOCK + threadIdx.x;
  if (v < n && updating[v]) {
    frontier[v] = true;
    visited[v] = true;
    updating[v] = false;
    *changed = true;
  }
}

int main() {
  const int n = NODES;
  std::vector<int> offsets, edges;
  makeGraph(n, offsets, edges);
  std::vector<int> cost(n);
  int *dOffsets, *dEdges, *dCost;
  bool *dFrontier, *dUpdating, *dVisited, *dChanged;
  cudaMalloc(&dOffsets, offsets.size() * sizeof(int));
  cudaMalloc(&dEdges, edges.size() * sizeof(int));
  cudaMalloc(&dCost, n * sizeof(int));
  cudaMalloc(&dFrontier, n);
  cudaMalloc(&dUpdating, n);
  cudaMalloc(&dVisited, n);
  cudaMalloc(&dChanged, 1);
  cudaMemcpy(dOffsets, offsets.data(), offsets.size() * sizeof(int),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dEdges, edges.data(), edges.size() * sizeof(int),
             cudaMemcpyHostToDevice);
  const int blocks = (n + BLOCK - 1) / BLOCK;
  const bool yes = true;
  const int zero = 0;
  int levels = 0;
  timeIt(
      [&] {
        cudaMemset(dCost, 0xff, n * sizeof(int)); // -1: not reached
        cudaMemset(dFrontier, 0, n);
        cudaMemset(dUpdating, 0, n);
        cudaMemset(dVisited, 0, n);
        cudaMemcpy(dFrontier, &yes, 1, cudaMemcpyHostToDevice);
        cudaMemcpy(dVisited, &yes, 1, cudaMemcpyHostToDevice);
        cudaMemcpy(dCost, &zero, sizeof(int), cudaMemcpyHostToDevice);
        cudaDeviceSynchronize();
      },
      [&] {
        bool changed;
        levels = 0;
        do {
          changed = false;
          cudaMemcpy(dChanged, &changed, 1, cudaMemcpyHostToDevice);
          bfsExpand<<<blocks, BLOCK>>>(dOffsets, dEdges, dFrontier, dUpdating,
                                       dVisited, dCost, n);
          bfsCommit<<<blocks, BLOCK>>>(dFrontier, dUpdating, dVisited, dChanged,
                                       n);
          cudaMemcpy(&changed, dChanged, 1, cudaMemcpyDeviceToHost);
          ++levels;
        } while (changed);
      });
  cudaMemcpy(cost.data(), dCost, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::fprintf(stderr, "bfs: %d levels\n", levels);
  printChecksum(intChecksum(cost));
  cudaFree(dOffsets);
  cudaFree(dEdges);
  cudaFree(dCost);
  cudaFree(dFrontier);
  cudaFree(dUpdating);
  cudaFree(dVisited);
  cudaFree(dChanged);
  return 0;
}

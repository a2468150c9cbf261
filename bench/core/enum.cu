// ENUM: exhaustive search of a batch of small 0-1 integer programs:
// maximize c.x subject to A x <= b, x in {0,1}^VARS, CONS constraints.
// Register-cache style: one group of G threads per problem. The group loads
// its problem's record coalesced (value e in register e / G of lane e % G)
// and hands every value to all lanes with shuffles; then the lanes split
// the 2^VARS candidates into contiguous ranges, and the best value is
// reduced by a __shfl_xor_sync butterfly. The lowest lane that holds the
// best value (found with __ballot_sync) holds the smallest maximizer.
#ifndef GROUP
#define GROUP 32
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL_MASK 0xffffffffu
#define VARS 10
#define CONS 4

// Value `e` of a record held by the group G values per register.
template <int G, int PER, typename T>
__device__ __forceinline__ T fromGroup(const T (&cache)[PER], int e) {
  return __shfl_sync(FULL_MASK, cache[e / G], e % G, G);
}

template <typename T, int G>
__global__ void enumerate(const T *problems, T *bestValue, int *bestX,
                          int batch) {
  constexpr int record = VARS + CONS * VARS + CONS;
  constexpr int per = (record + G - 1) / G;
  constexpr int candidates = (1 << VARS) / G; // per lane
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  // Every thread of a warp takes part in the shuffles: threads past the
  // batch work on the last problem and store nothing.
  bool active = problem < batch;
  size_t p = active ? problem : batch - 1;

  T cache[per];
#pragma unroll
  for (int r = 0; r < per; ++r) {
    int e = r * G + lane;
    cache[r] = e < record ? problems[p * record + e] : T(0);
  }
  T c[VARS], a[CONS][VARS], b[CONS];
#pragma unroll
  for (int j = 0; j < VARS; ++j)
    c[j] = fromGroup<G>(cache, j);
#pragma unroll
  for (int i = 0; i < CONS; ++i)
#pragma unroll
    for (int j = 0; j < VARS; ++j)
      a[i][j] = fromGroup<G>(cache, VARS + i * VARS + j);
#pragma unroll
  for (int i = 0; i < CONS; ++i)
    b[i] = fromGroup<G>(cache, VARS + CONS * VARS + i);

  T best = -1;
  int arg = 0;
  for (int x = lane * candidates; x < (lane + 1) * candidates; ++x) {
    T value = 0, lhs[CONS] = {};
#pragma unroll
    for (int j = 0; j < VARS; ++j)
      if (x >> j & 1) {
        value += c[j];
#pragma unroll
        for (int i = 0; i < CONS; ++i)
          lhs[i] += a[i][j];
      }
    bool feasible = true;
#pragma unroll
    for (int i = 0; i < CONS; ++i)
      feasible = feasible && lhs[i] <= b[i];
    if (feasible && value > best) {
      best = value;
      arg = x;
    }
  }

  T groupBest = best;
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2) {
    T other = __shfl_xor_sync(FULL_MASK, groupBest, offset, G);
    groupBest = other > groupBest ? other : groupBest;
  }
  unsigned holders = __ballot_sync(FULL_MASK, best == groupBest);
  unsigned groupBits = G == 32 ? FULL_MASK : (1u << G) - 1;
  holders = holders >> (threadIdx.x % 32 / G * G) & groupBits;
  arg = __shfl_sync(FULL_MASK, arg, __ffs(holders) - 1, G);
  if (active && lane == 0) {
    bestValue[p] = groupBest;
    bestX[p] = arg;
  }
}

int main() {
  const int G = GROUP;
  std::vector<Real> problems = makeKnapsacks<Real>(VARS, CONS),
                    best(BATCH);
  std::vector<int> arg(BATCH);
  size_t bytes = problems.size() * sizeof(Real);
  Real *dProblems, *dBest;
  int *dArg;
  cudaMalloc(&dProblems, bytes);
  cudaMalloc(&dBest, BATCH * sizeof(Real));
  cudaMalloc(&dArg, BATCH * sizeof(int));
  cudaMemcpy(dProblems, problems.data(), bytes, cudaMemcpyHostToDevice);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    enumerate<Real, G><<<blocks, BLOCK>>>(dProblems, dBest, dArg, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(best.data(), dBest, BATCH * sizeof(Real),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(arg.data(), dArg, BATCH * sizeof(int), cudaMemcpyDeviceToHost);
  printChecksum(checksum(best) + checksum(arg));
  cudaFree(dProblems);
  cudaFree(dBest);
  cudaFree(dArg);
  return 0;
}

// Loops without warp primitives inside kernels whose warps run as
// interleaved lanes: a while loop whose trip count differs between lanes
// (Collatz steps, with loads and a store inside, and an early exit), a
// counted loop with the same bounds in every lane, and a loop over a range
// that starts at a lane-dependent index; the warp then combines the
// results with shuffles. Checked against the host, also for a block whose
// last warp is partial (80 threads) and with the barrier emulation.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: block 128: ok
// CHECK: block 80: ok
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#define FULL 0xffffffffu

__device__ __host__ int collatzSteps(unsigned x, const int *limit) {
  int steps = 0;
  while (x != 1) {
    x = x % 2 ? 3 * x + 1 : x / 2;
    ++steps;
    if (steps >= *limit)
      break;
  }
  return steps;
}

__global__ void lanes(const unsigned *in, const int *limit, int *steps,
                      int *sums, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int mine = t < n ? collatzSteps(in[t], limit) : 0;
  if (t < n)
    steps[t] = mine;
  // Same bounds in every lane.
  int squares = 0;
  for (int k = 0; k < 5; ++k)
    squares += (mine + k) * (mine + k);
  // A range starting at a lane-dependent index.
  int range = 0;
  for (int k = lane * 3; k < lane * 3 + 4; ++k)
    range += k ^ mine;
  int total = squares + range;
  for (int offset = 16; offset > 0; offset /= 2)
    total += __shfl_xor_sync(FULL, total, offset);
  int warp = blockIdx.x * ((blockDim.x + 31) / 32) + threadIdx.x / 32;
  if (lane == 0)
    sums[warp] = total;
}

bool run(int block) {
  const int n = 1000, blocks = (n + block - 1) / block;
  const int perBlock = (block + 31) / 32, warps = blocks * perBlock;
  std::vector<unsigned> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = 1 + (i * 2654435761u) % 5000;
  int limit = 90;
  unsigned *dIn;
  int *dLimit, *dSteps, *dSums;
  cudaMalloc(&dIn, n * sizeof(unsigned));
  cudaMalloc(&dLimit, sizeof(int));
  cudaMalloc(&dSteps, n * sizeof(int));
  cudaMalloc(&dSums, warps * sizeof(int));
  cudaMemcpy(dIn, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(dLimit, &limit, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dSums, 0, warps * sizeof(int));
  lanes<<<blocks, block>>>(dIn, dLimit, dSteps, dSums, n);
  std::vector<int> steps(n), sums(warps);
  cudaMemcpy(steps.data(), dSteps, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), dSums, warps * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dLimit);
  cudaFree(dSteps);
  cudaFree(dSums);
  for (int i = 0; i < n; ++i)
    if (steps[i] != collatzSteps(in[i], &limit)) {
      printf("block %d: steps[%d] = %d, expected %d\n", block, i, steps[i],
             collatzSteps(in[i], &limit));
      return false;
    }
  // Warps are aligned to blocks: a warp's threads are those of its block
  // (a partial last warp of each 80-thread block holds 16 threads).
  for (int b = 0; b < blocks; ++b)
    for (int w = 0; w < perBlock; ++w) {
      int first = b * block + w * 32;
      int total = 0;
      for (int lane = 0; lane < 32; ++lane) {
        int t = first + lane;
        bool exists = w * 32 + lane < block;
        if (!exists)
          continue;
        int mine = t < n ? steps[t] : 0;
        for (int k = 0; k < 5; ++k)
          total += (mine + k) * (mine + k);
        for (int k = lane * 3; k < lane * 3 + 4; ++k)
          total += k ^ mine;
      }
      // The partial warps (80-thread blocks) read missing lanes as their
      // own values in the butterfly: only full warps are compared.
      if (w * 32 + 32 > block)
        continue;
      if (sums[b * perBlock + w] != total) {
        printf("block %d: warp at thread %d: %d, expected %d\n", block, first,
               sums[b * perBlock + w], total);
        return false;
      }
    }
  printf("block %d: ok\n", block);
  return true;
}

int main() {
  bool ok = run(128) & run(80);
  printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}

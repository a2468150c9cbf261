// Shared-memory atomics after per-thread serial loops, where the CPU back
// end runs consecutive threads as SIMD lanes and each localized atomic once
// per lane in thread order: a nearest-center search (a loop per thread)
// followed by a count per center under a bounds check (inactive lanes), a
// ticket per thread from the old value of atomicAdd (each ticket exactly
// once), atomicMax/atomicMin on one shared word, and a float sum built from
// an atomicCAS loop. Blocks of 100 threads (not a multiple of the vector
// width) and a last partial block. Checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=thread-vectorize %s -o %t.scalar
// RUN: %t.scalar | FileCheck %s
// RUN: %respec -O2 --disable-opt=shared-atomics %s -o %t.atomic
// RUN: %t.atomic | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define BLOCK 100
#define CENTERS 7
#define N 1234

__device__ float atomicAddViaCAS(float *address, float value) {
  int *word = (int *)address;
  int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed,
                    __float_as_int(__int_as_float(assumed) + value));
  } while (old != assumed);
  return __int_as_float(old);
}

__global__ void classify(const float *x, const float *centers, int numCenters,
                         int n, int *counts, int *tickets, int *extremes,
                         float *sums) {
  __shared__ int sCounts[CENTERS];
  __shared__ int sNext, sMax, sMin;
  __shared__ float sSum;
  int t = threadIdx.x;
  if (t < CENTERS)
    sCounts[t] = 0;
  if (t == 0) {
    sNext = 0;
    sMax = -1;
    sMin = 1 << 30;
    sSum = 0.0f;
  }
  __syncthreads();
  int i = blockIdx.x * BLOCK + t;
  if (i < n) {
    float v = x[i];
    int best = 0;
    float bestDist = 1e30f;
    for (int c = 0; c < numCenters; ++c) {
      float d = (v - centers[c]) * (v - centers[c]);
      if (d < bestDist) {
        bestDist = d;
        best = c;
      }
    }
    atomicAdd(&sCounts[best], 1);
    tickets[i] = atomicAdd(&sNext, 1);
    atomicMax(&sMax, i % 97);
    atomicMin(&sMin, i % 89);
  }
  __syncthreads();
  if (t < CENTERS)
    atomicAdd(&counts[t], sCounts[t]);
  if (t == 0) {
    extremes[2 * blockIdx.x] = sMax;
    extremes[2 * blockIdx.x + 1] = sMin;
  }
  // A serial loop per thread, then a compare-and-swap loop on shared
  // memory: values that are exact in any order of summation.
  float w = 0.0f;
  for (int k = 0; k <= t % 5; ++k)
    w += 0.25f;
  if (i < n)
    atomicAddViaCAS(&sSum, w);
  __syncthreads();
  if (t == 0)
    sums[blockIdx.x] = sSum;
}

int main() {
  const int blocks = (N + BLOCK - 1) / BLOCK;
  std::vector<float> x(N), centers(CENTERS);
  for (int i = 0; i < N; ++i)
    x[i] = (float)((i * 37) % 101) / 10.0f;
  for (int c = 0; c < CENTERS; ++c)
    centers[c] = 1.5f * c;
  float *dX, *dCenters, *dSums;
  int *dCounts, *dTickets, *dExtremes;
  cudaMalloc(&dX, N * sizeof(float));
  cudaMalloc(&dCenters, CENTERS * sizeof(float));
  cudaMalloc(&dSums, blocks * sizeof(float));
  cudaMalloc(&dCounts, CENTERS * sizeof(int));
  cudaMalloc(&dTickets, N * sizeof(int));
  cudaMalloc(&dExtremes, 2 * blocks * sizeof(int));
  cudaMemcpy(dX, x.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dCenters, centers.data(), CENTERS * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaMemset(dCounts, 0, CENTERS * sizeof(int));
  classify<<<blocks, BLOCK>>>(dX, dCenters, CENTERS, N, dCounts, dTickets,
                              dExtremes, dSums);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED: launch\n");
    return 1;
  }
  std::vector<int> counts(CENTERS), tickets(N), extremes(2 * blocks);
  std::vector<float> sums(blocks);
  cudaMemcpy(counts.data(), dCounts, CENTERS * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(tickets.data(), dTickets, N * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(extremes.data(), dExtremes, 2 * blocks * sizeof(int),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), dSums, blocks * sizeof(float),
             cudaMemcpyDeviceToHost);

  int failures = 0;
  std::vector<int> expectedCounts(CENTERS, 0);
  for (int i = 0; i < N; ++i) {
    int best = 0;
    float bestDist = 1e30f;
    for (int c = 0; c < CENTERS; ++c) {
      float d = (x[i] - centers[c]) * (x[i] - centers[c]);
      if (d < bestDist) {
        bestDist = d;
        best = c;
      }
    }
    ++expectedCounts[best];
  }
  for (int c = 0; c < CENTERS; ++c)
    if (counts[c] != expectedCounts[c]) {
      printf("count of center %d: %d, expected %d\n", c, counts[c],
             expectedCounts[c]);
      ++failures;
    }
  for (int b = 0; b < blocks; ++b) {
    int first = b * BLOCK, size = std::min(BLOCK, N - first);
    std::vector<int> seen(size, 0);
    int expectedMax = -1, expectedMin = 1 << 30;
    float expectedSum = 0.0f;
    for (int t = 0; t < size; ++t) {
      int ticket = tickets[first + t];
      if (ticket < 0 || ticket >= size || seen[ticket]++) {
        printf("block %d thread %d: ticket %d repeated or out of range\n", b, t,
               ticket);
        ++failures;
      }
      expectedMax = std::max(expectedMax, (first + t) % 97);
      expectedMin = std::min(expectedMin, (first + t) % 89);
      expectedSum += 0.25f * (t % 5 + 1);
    }
    if (extremes[2 * b] != expectedMax || extremes[2 * b + 1] != expectedMin) {
      printf("block %d: max %d min %d, expected %d %d\n", b, extremes[2 * b],
             extremes[2 * b + 1], expectedMax, expectedMin);
      ++failures;
    }
    if (sums[b] != expectedSum) {
      printf("block %d: sum %g, expected %g\n", b, sums[b], expectedSum);
      ++failures;
    }
  }
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures ? 1 : 0;
}

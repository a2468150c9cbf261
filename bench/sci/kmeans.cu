// KMEANS: Lloyd's algorithm, a fixed number of iterations, on n points of d
// integer-valued features and k clusters (initial centroids: the first k
// points). On the device the points are stored feature-major (feature f of
// point i at f * n + i), so that the loads of a warp are coalesced.
// Each iteration, `assignPoints` gives each point (one thread) its
// nearest centroid (centroids staged in shared memory) and accumulates the
// point into its cluster's sums: per block in shared memory with atomics,
// then once per block into global memory with atomics. The host divides
// the sums by the counts to get the new centroids.
#include "common.h"
#include <cuda_runtime.h>

#ifndef POINTS
#define POINTS 262144
#endif
#ifndef DIMS
#define DIMS 16
#endif
#ifndef CLUSTERS
#define CLUSTERS 16
#endif
#ifndef ITERS
#define ITERS 6
#endif
#define BLOCK 256

__global__ void assignPoints(const float *featuresT, const float *centroids,
                             int *membership, unsigned long long *sums,
                             unsigned *counts, int n) {
  __shared__ float c[CLUSTERS * DIMS];
  __shared__ unsigned long long bSums[CLUSTERS * DIMS];
  __shared__ unsigned bCounts[CLUSTERS];
  int t = threadIdx.x;
  for (int k = t; k < CLUSTERS * DIMS; k += BLOCK) {
    c[k] = centroids[k];
    bSums[k] = 0;
  }
  if (t < CLUSTERS)
    bCounts[t] = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + t;
  if (i < n) {
    float x[DIMS];
    for (int f = 0; f < DIMS; ++f)
      x[f] = featuresT[(size_t)f * n + i];
    int best = 0;
    float bestDist = 3.0e38f;
    for (int k = 0; k < CLUSTERS; ++k) {
      float dist = 0.0f;
      for (int f = 0; f < DIMS; ++f) {
        float diff = x[f] - c[k * DIMS + f];
        dist += diff * diff;
      }
      if (dist < bestDist) {
        bestDist = dist;
        best = k;
      }
    }
    membership[i] = best;
    atomicAdd(&bCounts[best], 1u);
    for (int f = 0; f < DIMS; ++f)
      atomicAdd(&bSums[best * DIMS + f], (unsigned long long)x[f]);
  }
  __syncthreads();
  for (int k = t; k < CLUSTERS * DIMS; k += BLOCK)
    if (bSums[k])
      atomicAdd(&sums[k], bSums[k]);
  if (t < CLUSTERS && bCounts[t])
    atomicAdd(&counts[t], bCounts[t]);
}

int main() {
  const int n = POINTS;
  std::vector<float> points = makePoints(n, DIMS, CLUSTERS);
  std::vector<float> centroids(CLUSTERS * DIMS);
  std::vector<unsigned long long> sums(CLUSTERS * DIMS);
  std::vector<unsigned> counts(CLUSTERS);
  std::vector<int> membership(n);
  float *dPoints, *dCentroids;
  int *dMembership;
  unsigned long long *dSums;
  unsigned *dCounts;
  cudaMalloc(&dPoints, points.size() * sizeof(float));
  cudaMalloc(&dCentroids, centroids.size() * sizeof(float));
  cudaMalloc(&dMembership, n * sizeof(int));
  cudaMalloc(&dSums, sums.size() * sizeof(unsigned long long));
  cudaMalloc(&dCounts, counts.size() * sizeof(unsigned));
  std::vector<float> transposed(points.size());
  for (int i = 0; i < n; ++i)
    for (int f = 0; f < DIMS; ++f)
      transposed[(size_t)f * n + i] = points[(size_t)i * DIMS + f];
  cudaMemcpy(dPoints, transposed.data(), transposed.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  int blocks = (n + BLOCK - 1) / BLOCK;
  timeIt([&] {
    std::copy(points.begin(), points.begin() + CLUSTERS * DIMS,
              centroids.begin());
    for (int it = 0; it < ITERS; ++it) {
      cudaMemcpy(dCentroids, centroids.data(), centroids.size() * sizeof(float),
                 cudaMemcpyHostToDevice);
      cudaMemset(dSums, 0, sums.size() * sizeof(unsigned long long));
      cudaMemset(dCounts, 0, counts.size() * sizeof(unsigned));
      assignPoints<<<blocks, BLOCK>>>(dPoints, dCentroids, dMembership, dSums,
                                      dCounts, n);
      cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(unsigned long long),
                 cudaMemcpyDeviceToHost);
      cudaMemcpy(counts.data(), dCounts, counts.size() * sizeof(unsigned),
                 cudaMemcpyDeviceToHost);
      for (int k = 0; k < CLUSTERS; ++k)
        if (counts[k])
          for (int f = 0; f < DIMS; ++f)
            centroids[k * DIMS + f] =
                (float)((double)sums[k * DIMS + f] / counts[k]);
    }
  });
  cudaMemcpy(membership.data(), dMembership, n * sizeof(int),
             cudaMemcpyDeviceToHost);
  double sum = checksum(centroids);
  for (int k = 0; k < CLUSTERS; ++k)
    sum += (double)counts[k] * (k + 1) * 1e-3;
  printChecksum(sum);
  cudaFree(dPoints);
  cudaFree(dCentroids);
  cudaFree(dMembership);
  cudaFree(dSums);
  cudaFree(dCounts);
  return 0;
}

// HISTOGRAM of 8-bit pixels into 256 bins. Each block counts its chunk of
// the input into a private histogram in shared memory (shared-memory
// atomics), then writes it to its row of a table of per-block histograms; a
// second kernel reduces the table's columns (one block per bin, tree
// reduction in shared memory) into the final histogram.
#include "common.h"
#include <cuda_runtime.h>

#ifndef PIXELS
#define PIXELS (64 << 20)
#endif
#define BINS 256
#define BLOCK 256
#define PER_THREAD 64

__global__ void blockHistograms(const unsigned char *pixels, size_t n,
                                unsigned *partial) {
  __shared__ unsigned bins[BINS];
  bins[threadIdx.x] = 0; // BLOCK == BINS
  __syncthreads();
  // Coalesced: in round r, thread t reads element base + r * BLOCK + t.
  size_t base = (size_t)blockIdx.x * BLOCK * PER_THREAD;
  for (int r = 0; r < PER_THREAD; ++r) {
    size_t i = base + (size_t)r * BLOCK + threadIdx.x;
    if (i < n)
      atomicAdd(&bins[pixels[i]], 1u);
  }
  __syncthreads();
  partial[(size_t)blockIdx.x * BINS + threadIdx.x] = bins[threadIdx.x];
}

__global__ void reduceHistograms(const unsigned *partial, int blocks,
                                 unsigned *hist) {
  __shared__ unsigned sum[BLOCK];
  int bin = blockIdx.x, t = threadIdx.x;
  unsigned s = 0;
  for (int b = t; b < blocks; b += BLOCK)
    s += partial[(size_t)b * BINS + bin];
  sum[t] = s;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (t < stride)
      sum[t] += sum[t + stride];
    __syncthreads();
  }
  if (t == 0)
    hist[bin] = sum[0];
}

int main() {
  const size_t n = PIXELS;
  std::vector<unsigned char> pixels = makePixels(n);
  std::vector<unsigned> hist(BINS);
  int blocks = (int)((n + BLOCK * PER_THREAD - 1) / (BLOCK * PER_THREAD));
  unsigned char *dPixels;
  unsigned *dPartial, *dHist;
  cudaMalloc(&dPixels, n);
  cudaMalloc(&dPartial, (size_t)blocks * BINS * sizeof(unsigned));
  cudaMalloc(&dHist, BINS * sizeof(unsigned));
  cudaMemcpy(dPixels, pixels.data(), n, cudaMemcpyHostToDevice);
  timeIt([&] {
    blockHistograms<<<blocks, BLOCK>>>(dPixels, n, dPartial);
    reduceHistograms<<<BINS, BLOCK>>>(dPartial, blocks, dHist);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(hist.data(), dHist, BINS * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  printChecksum(intChecksum(hist));
  cudaFree(dPixels);
  cudaFree(dPartial);
  cudaFree(dHist);
  return 0;
}

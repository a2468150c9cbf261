// PARTICLEFILTER: a bootstrap particle filter tracking an object in the
// plane from noisy position observations, n particles, several frames
// (double precision). Per frame: `propagate` moves each particle by the
// motion model plus noise, weighs it by the Gaussian likelihood of the
// observation and reduces the block's weights and weighted positions in
// shared memory; `finishSums` (one block) totals the blocks' sums (the
// estimate is the weighted mean); `normalizeScan` normalises the weights
// and scans them per block (inclusive Hillis-Steele scan in shared memory);
// `scanBlockTotals` (one block) turns the blocks' totals into offsets;
// `addOffsets` completes the CDF; `resample` draws the particles of the
// next frame by systematic resampling, a binary search in the CDF per
// particle.
#include "common.h"
#include <cuda_runtime.h>

#ifndef PARTICLES
#define PARTICLES (1 << 18)
#endif
#ifndef FRAMES
#define FRAMES 8
#endif
#define BLOCK 256
#define SCAN_THREADS 1024
#define SIGMA 2.0

__global__ void propagate(double *px, double *py, double *w, int n, int t,
                          double ox, double oy, double *partial) {
  __shared__ double s0[BLOCK], s1[BLOCK], s2[BLOCK];
  int tid = threadIdx.x, i = blockIdx.x * BLOCK + tid;
  double wi = 0.0, x = 0.0, y = 0.0;
  if (i < n) {
    size_t k = (size_t)t * n + i;
    x = px[i] + 2.0 + 1.0 * benchNormal(301, 2 * k);
    y = py[i] + 2.0 + 1.0 * benchNormal(301, 2 * k + 1);
    double dx = x - ox, dy = y - oy;
    wi = exp(-(dx * dx + dy * dy) / (2.0 * SIGMA * SIGMA));
    px[i] = x;
    py[i] = y;
    w[i] = wi;
  }
  s0[tid] = wi;
  s1[tid] = wi * x;
  s2[tid] = wi * y;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s0[tid] += s0[tid + stride];
      s1[tid] += s1[tid + stride];
      s2[tid] += s2[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    partial[3 * blockIdx.x] = s0[0];
    partial[3 * blockIdx.x + 1] = s1[0];
    partial[3 * blockIdx.x + 2] = s2[0];
  }
}

__global__ void finishSums(const double *partial, int blocks, double *sums) {
  __shared__ double s0[BLOCK], s1[BLOCK], s2[BLOCK];
  int tid = threadIdx.x;
  double a = 0.0, b = 0.0, c = 0.0;
  for (int k = tid; k < blocks; k += BLOCK) {
    a += partial[3 * k];
    b += partial[3 * k + 1];
    c += partial[3 * k + 2];
  }
  s0[tid] = a;
  s1[tid] = b;
  s2[tid] = c;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      s0[tid] += s0[tid + stride];
      s1[tid] += s1[tid + stride];
      s2[tid] += s2[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    sums[0] = s0[0];
    sums[1] = s1[0] / s0[0]; // estimate
    sums[2] = s2[0] / s0[0];
  }
}

__global__ void normalizeScan(const double *w, const double *sums, double *cdf,
                              double *blockTotals, int n) {
  __shared__ double buf[2][BLOCK];
  int tid = threadIdx.x, i = blockIdx.x * BLOCK + tid;
  double total = sums[0];
  int in = 0;
  buf[0][tid] = i < n ? w[i] / total : 0.0;
  __syncthreads();
  for (int offset = 1; offset < BLOCK; offset <<= 1) {
    double v = buf[in][tid];
    if (tid >= offset)
      v += buf[in][tid - offset];
    buf[1 - in][tid] = v;
    in = 1 - in;
    __syncthreads();
  }
  if (i < n)
    cdf[i] = buf[in][tid];
  if (tid == BLOCK - 1)
    blockTotals[blockIdx.x] = buf[in][tid];
}

// Exclusive scan of the blocks' totals in place, one block: each thread
// scans a contiguous chunk, the chunk totals are scanned in shared memory.
__global__ void scanBlockTotals(double *totals, int blocks) {
  __shared__ double buf[2][SCAN_THREADS];
  int tid = threadIdx.x;
  int per = (blocks + SCAN_THREADS - 1) / SCAN_THREADS;
  int begin = min(blocks, tid * per), end = min(blocks, begin + per);
  double mine = 0.0;
  for (int k = begin; k < end; ++k)
    mine += totals[k];
  int in = 0;
  buf[0][tid] = mine;
  __syncthreads();
  for (int offset = 1; offset < SCAN_THREADS; offset <<= 1) {
    double v = buf[in][tid];
    if (tid >= offset)
      v += buf[in][tid - offset];
    buf[1 - in][tid] = v;
    in = 1 - in;
    __syncthreads();
  }
  double run = buf[in][tid] - mine;
  for (int k = begin; k < end; ++k) {
    double v = totals[k];
    totals[k] = run;
    run += v;
  }
}

__global__ void addOffsets(double *cdf, const double *offsets, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    cdf[i] += offsets[blockIdx.x];
}

__global__ void resample(const double *cdf, const double *px, const double *py,
                         double *nx, double *ny, int n, double u0) {
  int j = blockIdx.x * BLOCK + threadIdx.x;
  if (j >= n)
    return;
  double u = (u0 + j) / n;
  int lo = 0, hi = n; // first index with cdf >= u
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cdf[mid] < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  int idx = min(lo, n - 1);
  nx[j] = px[idx];
  ny[j] = py[idx];
}

int main() {
  const int n = PARTICLES, blocks = (n + BLOCK - 1) / BLOCK;
  std::vector<double> x0(n), y0(n);
  double tx, ty;
  pfTruth(0, tx, ty);
  for (int i = 0; i < n; ++i) {
    x0[i] = tx + 2.0 * benchNormal(302, 2 * i);
    y0[i] = ty + 2.0 * benchNormal(302, 2 * i + 1);
  }
  std::vector<double> est(2 * FRAMES), sums(3);
  size_t bytes = n * sizeof(double);
  double *dPx, *dPy, *dNx, *dNy, *dW, *dCdf, *dPartial, *dSums, *dTotals;
  cudaMalloc(&dPx, bytes);
  cudaMalloc(&dPy, bytes);
  cudaMalloc(&dNx, bytes);
  cudaMalloc(&dNy, bytes);
  cudaMalloc(&dW, bytes);
  cudaMalloc(&dCdf, bytes);
  cudaMalloc(&dPartial, 3 * blocks * sizeof(double));
  cudaMalloc(&dSums, 3 * sizeof(double));
  cudaMalloc(&dTotals, blocks * sizeof(double));
  timeIt(
      [&] {
        cudaMemcpy(dPx, x0.data(), bytes, cudaMemcpyHostToDevice);
        cudaMemcpy(dPy, y0.data(), bytes, cudaMemcpyHostToDevice);
      },
      [&] {
        double *px = dPx, *py = dPy, *nx = dNx, *ny = dNy;
        for (int t = 1; t <= FRAMES; ++t) {
          double ox, oy;
          pfObservation(t, ox, oy);
          propagate<<<blocks, BLOCK>>>(px, py, dW, n, t, ox, oy, dPartial);
          finishSums<<<1, BLOCK>>>(dPartial, blocks, dSums);
          normalizeScan<<<blocks, BLOCK>>>(dW, dSums, dCdf, dTotals, n);
          scanBlockTotals<<<1, SCAN_THREADS>>>(dTotals, blocks);
          addOffsets<<<blocks, BLOCK>>>(dCdf, dTotals, n);
          double u0 = 0.5 + 0.5 * benchUniform(303, t);
          resample<<<blocks, BLOCK>>>(dCdf, px, py, nx, ny, n, u0);
          cudaMemcpy(sums.data(), dSums, 3 * sizeof(double),
                     cudaMemcpyDeviceToHost);
          est[2 * (t - 1)] = sums[1];
          est[2 * (t - 1) + 1] = sums[2];
          std::swap(px, nx);
          std::swap(py, ny);
        }
        cudaDeviceSynchronize();
      });
  double sum = checksum(est);
  double fx, fy;
  pfTruth(FRAMES, fx, fy);
  std::fprintf(stderr,
               "particlefilter: final estimate (%.3f, %.3f), "
               "truth (%.3f, %.3f)\n",
               est[2 * FRAMES - 2], est[2 * FRAMES - 1], fx, fy);
  printChecksum(sum);
  cudaFree(dPx);
  cudaFree(dPy);
  cudaFree(dNx);
  cudaFree(dNy);
  cudaFree(dW);
  cudaFree(dCdf);
  cudaFree(dPartial);
  cudaFree(dSums);
  cudaFree(dTotals);
  return 0;
}

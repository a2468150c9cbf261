// Double-precision block reductions without any warp-level code: a barrier
// after every halving step down to one element. Per-block sums, sums of
// squares, minima and maxima of non-integer doubles (block sizes 256, 1000
// with the guarded non-power-of-two loop, and 64), then a second single-block
// kernel (1024 threads, grid-stride accumulation + tree) reduces the
// partial sums to one value. Sums are compared with a tolerance relative to
// the sum of magnitudes; minima and maxima exactly.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O2 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O2 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}
#include <cmath>

__global__ void blockStats(const double *in, int n, double *sums,
                           double *sumsq, double *mins, double *maxs) {
  __shared__ double s[1024];
  __shared__ double q[1024];
  __shared__ double lo[1024];
  __shared__ double hi[1024];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  double v = i < (unsigned)n ? in[i] : 0.0;
  s[tid] = v;
  q[tid] = v * v;
  lo[tid] = i < (unsigned)n ? v : 1e300;
  hi[tid] = i < (unsigned)n ? v : -1e300;
  __syncthreads();
  unsigned p = 1;
  while (p < blockDim.x)
    p <<= 1;
  for (unsigned stride = p / 2; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < blockDim.x) {
      s[tid] += s[tid + stride];
      q[tid] += q[tid + stride];
      lo[tid] = fmin(lo[tid], lo[tid + stride]);
      hi[tid] = fmax(hi[tid], hi[tid + stride]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    sums[blockIdx.x] = s[0];
    sumsq[blockIdx.x] = q[0];
    mins[blockIdx.x] = lo[0];
    maxs[blockIdx.x] = hi[0];
  }
}

__global__ void finalSum(const double *partial, int n, double *result) {
  __shared__ double s[1024];
  unsigned tid = threadIdx.x;
  double acc = 0.0;
  for (int i = tid; i < n; i += blockDim.x)
    acc += partial[i];
  s[tid] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    *result = s[0];
}

static int closeEnough(double got, double want, double scale) {
  return fabs(got - want) <= 1e-12 * scale;
}

int main() {
  const int n = 200003;
  double *h = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    h[i] = ((double)lcg() / 16777216.0 - 0.5) * 3.7 + 1e-3 * (i % 17);
  double *d, *dS, *dQ, *dLo, *dHi, *dR;
  const int maxBlocks = n / 64 + 1;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dS, maxBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dQ, maxBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dLo, maxBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dHi, maxBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dR, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice));
  double *gS = (double *)malloc(maxBlocks * sizeof(double));
  double *gQ = (double *)malloc(maxBlocks * sizeof(double));
  double *gLo = (double *)malloc(maxBlocks * sizeof(double));
  double *gHi = (double *)malloc(maxBlocks * sizeof(double));
  int errors = 0;
  const int blockSizes[] = {256, 1000, 64};
  for (int bs : blockSizes) {
    int grid = (n + bs - 1) / bs;
    blockStats<<<grid, bs>>>(d, n, dS, dQ, dLo, dHi);
    CUDA_CHECK(cudaGetLastError());
    finalSum<<<1, 1024>>>(dS, grid, dR);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(gS, dS, grid * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gQ, dQ, grid * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gLo, dLo, grid * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(gHi, dHi, grid * sizeof(double), cudaMemcpyDeviceToHost));
    double total;
    CUDA_CHECK(cudaMemcpy(&total, dR, sizeof(double), cudaMemcpyDeviceToHost));
    long double allSum = 0, allAbs = 0;
    for (int b = 0; b < grid; ++b) {
      long double s = 0, q = 0, a = 0;
      double lo = 1e300, hi = -1e300;
      for (int i = b * bs; i < n && i < (b + 1) * bs; ++i) {
        s += h[i];
        q += (long double)h[i] * h[i];
        a += fabs(h[i]);
        lo = h[i] < lo ? h[i] : lo;
        hi = h[i] > hi ? h[i] : hi;
      }
      allSum += s;
      allAbs += a;
      if ((!closeEnough(gS[b], (double)s, (double)a + 1.0) ||
           !closeEnough(gQ[b], (double)q, (double)q + 1.0) || gLo[b] != lo ||
           gHi[b] != hi) &&
          ++errors <= 5)
        printf("block size %d: block %d sum %.17g (expected %.17g) sumsq "
               "%.17g (expected %.17g) min %.17g (expected %.17g) max %.17g "
               "(expected %.17g)\n",
               bs, b, gS[b], (double)s, gQ[b], (double)q, gLo[b], lo, gHi[b],
               hi);
    }
    if (!(fabs(total - (double)allSum) <= 1e-11 * (double)allAbs) &&
        ++errors <= 5)
      printf("block size %d: total %.17g, expected %.17g\n", bs, total,
             (double)allSum);
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dS));
  CUDA_CHECK(cudaFree(dQ));
  CUDA_CHECK(cudaFree(dLo));
  CUDA_CHECK(cudaFree(dHi));
  CUDA_CHECK(cudaFree(dR));
  free(h);
  free(gS);
  free(gQ);
  free(gLo);
  free(gHi);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

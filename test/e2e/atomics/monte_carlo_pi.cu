// Monte-Carlo estimate of pi: every thread runs its own hand-written LCG
// stream, tests points in integer arithmetic (so the hit test is exact),
// and adds its hits to a global counter with a 64-bit atomicAdd. The count
// must equal the host's exactly and the estimate must be near pi.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O3 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O3 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

struct Lcg {
  unsigned long long state;
  __host__ __device__ explicit Lcg(unsigned long long seed)
      : state(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  __host__ __device__ unsigned next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(state >> 33); // 31 random bits
  }
};

__host__ __device__ unsigned countHits(unsigned long long seed, int samples) {
  Lcg rng(seed);
  unsigned hits = 0;
  const unsigned long long r = 1ull << 31;
  for (int s = 0; s < samples; ++s) {
    unsigned long long x = rng.next(), y = rng.next();
    if (x * x + y * y < r * r)
      ++hits;
  }
  return hits;
}

__global__ void monteCarlo(unsigned long long *total, int threads,
                           int samplesPerThread) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads)
    return;
  unsigned hits = countHits(1000003ull * t + 17, samplesPerThread);
  atomicAdd(total, (unsigned long long)hits);
}

int main() {
  const int threads = 10000, samplesPerThread = 100;
  unsigned long long *dtotal;
  CUDA_CHECK(cudaMalloc(&dtotal, sizeof(unsigned long long)));
  CUDA_CHECK(cudaMemset(dtotal, 0, sizeof(unsigned long long)));
  monteCarlo<<<(threads + 127) / 128, 128>>>(dtotal, threads, samplesPerThread);
  CUDA_CHECK(cudaGetLastError());
  unsigned long long total = 0;
  CUDA_CHECK(cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost));

  unsigned long long expected = 0;
  for (int t = 0; t < threads; ++t)
    expected += countHits(1000003ull * t + 17, samplesPerThread);
  double pi = 4.0 * (double)total / ((double)threads * samplesPerThread);
  if (total != expected || fabs(pi - 3.14159265358979) > 0.01) {
    printf("hits %llu, expected %llu, pi estimate %f\n", total, expected, pi);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(dtotal));
  printf("PASSED\n");
  return 0;
}

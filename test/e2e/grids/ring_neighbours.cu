// Neighbours in a ring of threads, `blockIdx.x * blockDim.x + (threadIdx.x
// + k) % blockDim.x`, with power-of-two block sizes known at compile time
// (respec copies kernels for the block sizes host code launches them with).
// LLVM 22's loop vectorizer loads such indices as one contiguous vector
// and misses the wrap at the end of the block (the last thread read the
// next block's first element); respec keeps these thread loops scalar
// (GuardWrappingIndices.cpp). Reads, writes and a periodic stencil, checked
// against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O3 --coarsen=block=2,thread=2 %s -o %t.c && %t.c | FileCheck %s
// CHECK: ring 256 ok
// CHECK: ring 128 ok
// CHECK: ring 64 ok
// CHECK: ring 16 ok
// CHECK: scatter ok
// CHECK: stencil ok
// CHECK: PASSED

#include <cstdio>

__global__ void ring(const float *in, float *next, float *prev, float *far,
                     float *small) {
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  next[base + t] = in[base + (t + 1) % blockDim.x];
  prev[base + t] = in[base + (t + blockDim.x - 1) % blockDim.x];
  far[base + t] = in[base + (t * 3) % blockDim.x];
  small[base + t] = in[base + (t + 1) % 16];
}

__global__ void scatter(const float *in, float *out) {
  unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  out[base + (t + 5) % blockDim.x] = in[base + t];
}

// One row per block, periodic at the row's ends.
__global__ void stencil(const float *in, float *out) {
  unsigned t = threadIdx.x, row = blockIdx.x * blockDim.x;
  unsigned left = (t + blockDim.x - 1) % blockDim.x;
  unsigned right = (t + 1) % blockDim.x;
  out[row + t] = 0.25f * in[row + left] + 0.5f * in[row + t] +
                 0.25f * in[row + right];
}

static int checkRing(unsigned threads, unsigned blocks) {
  unsigned n = threads * blocks;
  float *in, *next, *prev, *far, *small;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&next, n * sizeof(float));
  cudaMallocManaged(&prev, n * sizeof(float));
  cudaMallocManaged(&far, n * sizeof(float));
  cudaMallocManaged(&small, n * sizeof(float));
  for (unsigned i = 0; i < n; ++i)
    in[i] = float(i);
  ring<<<blocks, threads>>>(in, next, prev, far, small);
  cudaDeviceSynchronize();
  int bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned t = i % threads, base = i - t;
    bad += next[i] != float(base + (t + 1) % threads);
    bad += prev[i] != float(base + (t + threads - 1) % threads);
    bad += far[i] != float(base + (t * 3) % threads);
    bad += small[i] != float(base + (t + 1) % 16);
  }
  printf("ring %u %s\n", threads, bad ? "FAILED" : "ok");
  cudaFree(in);
  cudaFree(next);
  cudaFree(prev);
  cudaFree(far);
  cudaFree(small);
  return bad;
}

int main() {
  int bad = checkRing(256, 4) + checkRing(128, 3) + checkRing(64, 5) +
            checkRing(16, 7);

  const unsigned threads = 256, blocks = 4, n = threads * blocks;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  for (unsigned i = 0; i < n; ++i)
    in[i] = float(i % 97);
  scatter<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned t = i % threads, base = i - t;
    wrong += out[base + (t + 5) % threads] != in[i];
  }
  printf("scatter %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;

  stencil<<<blocks, threads>>>(in, out);
  cudaDeviceSynchronize();
  wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned t = i % threads, row = i - t;
    float expect = 0.25f * in[row + (t + threads - 1) % threads] +
                   0.5f * in[i] + 0.25f * in[row + (t + 1) % threads];
    wrong += out[i] != expect;
  }
  printf("stencil %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}

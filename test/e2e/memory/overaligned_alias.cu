// Storage reached through a type with more alignment than the storage has,
// as CUB's temp storage is (an `__align__(32)` struct aliased onto an array
// of 16-byte words, at byte 16 of the block's shared memory). A GPU checks
// only each access's own width, so this runs there; respec must not let
// the CPU back end trust the larger claim (a copy of a 32-byte struct
// became an aligned 32-byte vector move, which faulted; CUB's block scan
// faulted the same way on merged loads).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: shared PASSED
// CHECK: global PASSED

#include <cstdio>

struct __align__(32) Wide {
  int values[8];
  float scale[8];
};
struct __align__(32) Half {
  int values[8];
};
struct Words {
  int4 header;
  int4 words[8];
};

__device__ __noinline__ int combine(const Wide &wide) {
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += wide.values[i] * (int)wide.scale[i];
  return sum;
}

__global__ void sharedAlias(int *out) {
  __shared__ Words storage;
  Wide &wide = *reinterpret_cast<Wide *>(&storage.words[0]);
  if (threadIdx.x < 8) {
    wide.values[threadIdx.x] = threadIdx.x + blockIdx.x;
    wide.scale[threadIdx.x] = 2.0f;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = combine(wide) + threadIdx.x;
}

// Copies of the over-aligned struct between 16-byte aligned places.
__global__ void globalAlias(const int4 *in, int4 *copy, int *out,
                            int blocks) {
  const Wide &from = *reinterpret_cast<const Wide *>(in + 1 + 4 * blockIdx.x);
  Wide &to = *reinterpret_cast<Wide *>(copy + 1 + 4 * blockIdx.x);
  if (threadIdx.x == 0) {
    to = from;
    // One 32-byte move each, at a 16-byte aligned address.
    reinterpret_cast<Half *>(copy + 1 + 4 * blocks + 2 * blockIdx.x)[0] =
        reinterpret_cast<const Half *>(in + 1 + 4 * blockIdx.x)[0];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = combine(from);
}

int main() {
  const int blocks = 6, threads = 64;
  int *out;
  cudaMallocManaged(&out, blocks * threads * sizeof(int));
  sharedAlias<<<blocks, threads>>>(out);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      ok &= out[b * threads + t] == 2 * (28 + 8 * b) + t;
  printf("shared %s\n", ok ? "PASSED" : "FAILED");

  int4 *in, *copy;
  cudaMallocManaged(&in, (1 + 4 * blocks) * sizeof(int4));
  cudaMallocManaged(&copy, (1 + 6 * blocks) * sizeof(int4));
  for (int b = 0; b < blocks; ++b) {
    Wide &w = *reinterpret_cast<Wide *>(in + 1 + 4 * b);
    for (int i = 0; i < 8; ++i) {
      w.values[i] = i * b;
      w.scale[i] = 3.0f;
    }
  }
  globalAlias<<<blocks, threads>>>(in, copy, out, blocks);
  cudaDeviceSynchronize();
  ok = true;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < threads; ++t)
      ok &= out[b * threads + t] == 3 * 28 * b;
    const Wide &w = *reinterpret_cast<const Wide *>(copy + 1 + 4 * b);
    const Half &h =
        *reinterpret_cast<const Half *>(copy + 1 + 4 * blocks + 2 * b);
    for (int i = 0; i < 8; ++i)
      ok &= w.values[i] == i * b && w.scale[i] == 3.0f && h.values[i] == i * b;
  }
  printf("global %s\n", ok ? "PASSED" : "FAILED");
  return 0;
}

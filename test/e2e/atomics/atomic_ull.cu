// 64-bit atomics on unsigned long long: atomicAdd (with carries across the
// 32-bit halves), atomicMin, atomicMax, atomicAnd, atomicOr, atomicXor,
// atomicExch and atomicCAS, plus a signed long long atomicAdd through the
// unsigned overload, all compared exactly with the host.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O3 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O3 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
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

typedef unsigned long long u64;

enum { ADD, MIN, MAX, AND, OR, XOR, CAS_SUM, SIGNED_ADD, NUM_RESULTS };

__host__ __device__ u64 valueOf(u64 i) {
  u64 x = i * 0x9E3779B97F4A7C15ull;
  return x ^ (x >> 29);
}

__global__ void atomics64(u64 *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  u64 v = valueOf(i);
  atomicAdd(&r[ADD], v);
  atomicMin(&r[MIN], v | 1ull);
  atomicMax(&r[MAX], v >> 1);
  atomicAnd(&r[AND], v | 0xF0F0F0F0F0F0F0F0ull);
  atomicOr(&r[OR], v & 0x00FF00FF00FF00FFull);
  atomicXor(&r[XOR], v);
  // add (v % 1000) with a CAS loop
  u64 old = r[CAS_SUM], assumed;
  do {
    assumed = old;
    old = atomicCAS(&r[CAS_SUM], assumed, assumed + v % 1000);
  } while (old != assumed);
  long long delta = (i & 1) ? -(long long)(v % 100000) : (long long)(v % 77777);
  atomicAdd(&r[SIGNED_ADD], (u64)delta);
}

__global__ void exchange64(u64 *slot, u64 *olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    olds[i] = atomicExch(slot, (u64)(i + 1) << 33);
}

int main() {
  const int n = 200003;
  u64 init[NUM_RESULTS] = {0xFFFFFFFF00000000ull, ~0ull, 0, ~0ull, 0,
                           0x0123456789ABCDEFull, 1ull << 40, 0};
  u64 *dr;
  CUDA_CHECK(cudaMalloc(&dr, sizeof(init)));
  CUDA_CHECK(cudaMemcpy(dr, init, sizeof(init), cudaMemcpyHostToDevice));
  atomics64<<<(n + 255) / 256, 256>>>(dr, n);
  CUDA_CHECK(cudaGetLastError());
  u64 r[NUM_RESULTS];
  CUDA_CHECK(cudaMemcpy(r, dr, sizeof(r), cudaMemcpyDeviceToHost));

  u64 e[NUM_RESULTS];
  for (int k = 0; k < NUM_RESULTS; ++k)
    e[k] = init[k];
  for (int i = 0; i < n; ++i) {
    u64 v = valueOf(i);
    e[ADD] += v;
    e[MIN] = (v | 1ull) < e[MIN] ? (v | 1ull) : e[MIN];
    e[MAX] = (v >> 1) > e[MAX] ? (v >> 1) : e[MAX];
    e[AND] &= v | 0xF0F0F0F0F0F0F0F0ull;
    e[OR] |= v & 0x00FF00FF00FF00FFull;
    e[XOR] ^= v;
    e[CAS_SUM] += v % 1000;
    long long delta = (i & 1) ? -(long long)(v % 100000) : (long long)(v % 77777);
    e[SIGNED_ADD] += (u64)delta;
  }
  const char *names[NUM_RESULTS] = {"atomicAdd", "atomicMin", "atomicMax",
                                    "atomicAnd", "atomicOr",  "atomicXor",
                                    "atomicCAS", "signed atomicAdd"};
  for (int k = 0; k < NUM_RESULTS; ++k)
    if (r[k] != e[k]) {
      printf("%s: got 0x%llx, expected 0x%llx\n", names[k], r[k], e[k]);
      printf("FAILED\n");
      return 1;
    }

  const int m = 50000;
  u64 *dslot, *dolds;
  CUDA_CHECK(cudaMalloc(&dslot, sizeof(u64)));
  CUDA_CHECK(cudaMalloc(&dolds, m * sizeof(u64)));
  CUDA_CHECK(cudaMemset(dslot, 0, sizeof(u64)));
  exchange64<<<(m + 127) / 128, 128>>>(dslot, dolds, m);
  CUDA_CHECK(cudaGetLastError());
  u64 *olds = (u64 *)malloc(m * sizeof(u64));
  u64 last = 0;
  CUDA_CHECK(cudaMemcpy(olds, dolds, m * sizeof(u64), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&last, dslot, sizeof(u64), cudaMemcpyDeviceToHost));
  char *seen = (char *)calloc(m + 1, 1);
  for (int i = 0; i <= m; ++i) {
    u64 v = i < m ? olds[i] : last;
    u64 k = v >> 33;
    if ((v & ((1ull << 33) - 1)) != 0 || k > (u64)m || seen[k]) {
      printf("atomicExch: bad or repeated value 0x%llx\n", v);
      printf("FAILED\n");
      return 1;
    }
    seen[k] = 1;
  }
  CUDA_CHECK(cudaFree(dr));
  CUDA_CHECK(cudaFree(dslot));
  CUDA_CHECK(cudaFree(dolds));
  free(olds);
  free(seen);
  printf("PASSED\n");
  return 0;
}

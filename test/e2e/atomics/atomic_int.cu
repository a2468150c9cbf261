// All integer atomics on int: atomicAdd, atomicSub, atomicMin, atomicMax,
// atomicAnd, atomicOr, atomicXor (order-independent results checked
// exactly), atomicExch (the returned old values plus the final value form a
// permutation), and atomicCAS (exactly one winner per slot).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
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

enum { ADD, SUB, MIN, MAX, AND, OR, XOR, NUM_RESULTS };

__host__ __device__ int valueOf(int i) {
  return (int)(((unsigned)i * 7919u) % 20011u) - 10005;
}

__global__ void reduceAtomics(int *r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = valueOf(i);
  atomicAdd(&r[ADD], v);
  atomicSub(&r[SUB], v);
  atomicMin(&r[MIN], v);
  atomicMax(&r[MAX], v);
  atomicAnd(&r[AND], ~(1 << (i % 31)) | (i & 1));
  atomicOr(&r[OR], 1 << (i % 29) & 0x5555555);
  atomicXor(&r[XOR], v);
}

__global__ void exchange(int *slot, int *olds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    olds[i] = atomicExch(slot, i + 1);
}

// Every thread tries to claim slot i % slots; atomicCAS from -1 succeeds
// for exactly one of them.
__global__ void claim(int *owner, int *wins, int n, int slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int s = i % slots;
  if (atomicCAS(&owner[s], -1, i) == -1)
    atomicAdd(&wins[s], 1);
}

static int failed(const char *what, long long got, long long exp) {
  printf("%s: got %lld, expected %lld\n", what, got, exp);
  printf("FAILED\n");
  return 1;
}

int main() {
  const int n = 300007;
  int init[NUM_RESULTS] = {5, 5, 0x7fffffff, (int)0x80000000, -1, 0, 0};
  int *dr;
  CUDA_CHECK(cudaMalloc(&dr, sizeof(init)));
  CUDA_CHECK(cudaMemcpy(dr, init, sizeof(init), cudaMemcpyHostToDevice));
  reduceAtomics<<<(n + 255) / 256, 256>>>(dr, n);
  CUDA_CHECK(cudaGetLastError());
  int r[NUM_RESULTS];
  CUDA_CHECK(cudaMemcpy(r, dr, sizeof(r), cudaMemcpyDeviceToHost));

  int e[NUM_RESULTS];
  for (int k = 0; k < NUM_RESULTS; ++k)
    e[k] = init[k];
  for (int i = 0; i < n; ++i) {
    int v = valueOf(i);
    e[ADD] = (int)((unsigned)e[ADD] + (unsigned)v);
    e[SUB] = (int)((unsigned)e[SUB] - (unsigned)v);
    e[MIN] = v < e[MIN] ? v : e[MIN];
    e[MAX] = v > e[MAX] ? v : e[MAX];
    e[AND] &= ~(1 << (i % 31)) | (i & 1);
    e[OR] |= 1 << (i % 29) & 0x5555555;
    e[XOR] ^= v;
  }
  const char *names[NUM_RESULTS] = {"atomicAdd", "atomicSub", "atomicMin",
                                    "atomicMax", "atomicAnd", "atomicOr",
                                    "atomicXor"};
  for (int k = 0; k < NUM_RESULTS; ++k)
    if (r[k] != e[k])
      return failed(names[k], r[k], e[k]);

  const int m = 100000;
  int *dslot, *dolds;
  CUDA_CHECK(cudaMalloc(&dslot, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dolds, m * sizeof(int)));
  CUDA_CHECK(cudaMemset(dslot, 0, sizeof(int)));
  exchange<<<(m + 127) / 128, 128>>>(dslot, dolds, m);
  CUDA_CHECK(cudaGetLastError());
  int *olds = (int *)malloc(m * sizeof(int));
  int finalValue = -1;
  CUDA_CHECK(cudaMemcpy(olds, dolds, m * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&finalValue, dslot, sizeof(int), cudaMemcpyDeviceToHost));
  char *seen = (char *)calloc(m + 1, 1);
  for (int i = 0; i <= m; ++i) {
    int v = i < m ? olds[i] : finalValue;
    if (v < 0 || v > m || seen[v])
      return failed("atomicExch value seen twice or out of range", v, i);
    seen[v] = 1;
  }

  const int slots = 1000;
  int *downer, *dwins;
  CUDA_CHECK(cudaMalloc(&downer, slots * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dwins, slots * sizeof(int)));
  CUDA_CHECK(cudaMemset(downer, 0xff, slots * sizeof(int))); // all -1
  CUDA_CHECK(cudaMemset(dwins, 0, slots * sizeof(int)));
  claim<<<(n + 255) / 256, 256>>>(downer, dwins, n, slots);
  CUDA_CHECK(cudaGetLastError());
  int owner[slots], wins[slots];
  CUDA_CHECK(cudaMemcpy(owner, downer, sizeof(owner), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(wins, dwins, sizeof(wins), cudaMemcpyDeviceToHost));
  for (int s = 0; s < slots; ++s) {
    if (wins[s] != 1)
      return failed("atomicCAS winners per slot", wins[s], 1);
    if (owner[s] < 0 || owner[s] >= n || owner[s] % slots != s)
      return failed("atomicCAS owner", owner[s], s);
  }
  CUDA_CHECK(cudaFree(dr));
  CUDA_CHECK(cudaFree(dslot));
  CUDA_CHECK(cudaFree(dolds));
  CUDA_CHECK(cudaFree(downer));
  CUDA_CHECK(cudaFree(dwins));
  free(olds);
  free(seen);
  printf("PASSED\n");
  return 0;
}

// Atomics on unsigned int: atomicInc and atomicDec with their wrap-around
// semantics (results independent of order when every call uses the same
// limit), atomicAdd with unsigned overflow, atomicMin/Max, And/Or/Xor, and
// atomicCAS used for a ticket counter.
// RUN: %respec -O0 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O0 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O0 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
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

enum { INC, DEC, ADD, MIN, MAX, AND, OR, XOR, TICKET, NUM_RESULTS };

__host__ __device__ unsigned valueOf(unsigned i) {
  return i * 2654435761u; // spreads bits over the full 32-bit range
}

__global__ void unsignedAtomics(unsigned *r, unsigned limit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned v = valueOf(i);
  atomicInc(&r[INC], limit);
  atomicDec(&r[DEC], limit);
  atomicAdd(&r[ADD], v);
  atomicMin(&r[MIN], v | 0x100u);
  atomicMax(&r[MAX], v & 0xfffffff0u);
  atomicAnd(&r[AND], v | 0xff00ff00u);
  atomicOr(&r[OR], v & 0x0f0f0f0fu);
  atomicXor(&r[XOR], v);
  // ticket counter through a CAS loop: increments by 3
  unsigned old = r[TICKET], assumed;
  do {
    assumed = old;
    old = atomicCAS(&r[TICKET], assumed, assumed + 3u);
  } while (old != assumed);
}

int main() {
  const int n = 250001;
  const unsigned limit = 999; // atomicInc counts 0..999 then wraps to 0
  unsigned init[NUM_RESULTS] = {0, 0, 0xfffffff0u, 0xffffffffu, 0,
                                0xffffffffu, 0, 0x12345678u, 7};
  unsigned *dr;
  CUDA_CHECK(cudaMalloc(&dr, sizeof(init)));
  CUDA_CHECK(cudaMemcpy(dr, init, sizeof(init), cudaMemcpyHostToDevice));
  unsignedAtomics<<<(n + 511) / 512, 512>>>(dr, limit, n);
  CUDA_CHECK(cudaGetLastError());
  unsigned r[NUM_RESULTS];
  CUDA_CHECK(cudaMemcpy(r, dr, sizeof(r), cudaMemcpyDeviceToHost));

  unsigned e[NUM_RESULTS];
  for (int k = 0; k < NUM_RESULTS; ++k)
    e[k] = init[k];
  for (int i = 0; i < n; ++i) {
    unsigned v = valueOf(i);
    e[INC] = e[INC] >= limit ? 0 : e[INC] + 1;
    e[DEC] = (e[DEC] == 0 || e[DEC] > limit) ? limit : e[DEC] - 1;
    e[ADD] += v;
    e[MIN] = (v | 0x100u) < e[MIN] ? (v | 0x100u) : e[MIN];
    e[MAX] = (v & 0xfffffff0u) > e[MAX] ? (v & 0xfffffff0u) : e[MAX];
    e[AND] &= v | 0xff00ff00u;
    e[OR] |= v & 0x0f0f0f0fu;
    e[XOR] ^= v;
    e[TICKET] += 3u;
  }
  const char *names[NUM_RESULTS] = {"atomicInc", "atomicDec", "atomicAdd",
                                    "atomicMin", "atomicMax", "atomicAnd",
                                    "atomicOr",  "atomicXor", "atomicCAS"};
  for (int k = 0; k < NUM_RESULTS; ++k)
    if (r[k] != e[k]) {
      printf("%s: got %u (0x%x), expected %u (0x%x)\n", names[k], r[k], r[k],
             e[k], e[k]);
      printf("FAILED\n");
      return 1;
    }
  // Cross-check the wrap-around arithmetic itself.
  if (e[INC] != (unsigned)(n % (limit + 1)) ||
      e[DEC] != (unsigned)((limit + 1 - n % (limit + 1)) % (limit + 1))) {
    printf("host reference of atomicInc/atomicDec is inconsistent\n");
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(dr));
  printf("PASSED\n");
  return 0;
}

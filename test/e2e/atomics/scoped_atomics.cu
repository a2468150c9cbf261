// Block- and system-scoped atomics (atomicAdd_block, atomicCAS_system, ...):
// clang emits NVVM intrinsics for them; on the CPU they are the plain atomics
// (a scope is no weaker there). Every operation, on global and shared memory,
// checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define BLOCKS 8
#define THREADS 128

struct Results {
  int addBlock, addSystem, subBlock, maxBlock, minSystem, exchSystem;
  unsigned incBlock, decSystem, andBlock, orSystem, xorBlock;
  float faddBlock;
  double daddSystem;
  unsigned long long ullAddBlock;
  int casCount;
  int sharedSum[BLOCKS];
};

__global__ void scoped(Results *r) {
  __shared__ int blockSum;
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (t == 0)
    blockSum = 0;
  __syncthreads();
  atomicAdd_block(&blockSum, t);
  atomicAdd_block(&r->addBlock, 1);
  atomicAdd_system(&r->addSystem, 2);
  atomicSub_block(&r->subBlock, 1);
  atomicMax_block(&r->maxBlock, i);
  atomicMin_system(&r->minSystem, i - 5);
  atomicExch_system(&r->exchSystem, 7);
  atomicInc_block(&r->incBlock, 9);   // wraps to 0 after 9
  atomicDec_system(&r->decSystem, 9); // wraps to 9 at 0
  atomicAnd_block(&r->andBlock, ~(1u << (i % 32)));
  atomicOr_system(&r->orSystem, 1u << (i % 32));
  atomicXor_block(&r->xorBlock, 1u << (i % 3));
  atomicAdd_block(&r->faddBlock, 0.5f);
  atomicAdd_system(&r->daddSystem, 0.25);
  atomicAdd_block(&r->ullAddBlock, 1ull << 33);
  // Each thread claims one increment of casCount with a CAS loop.
  int old = r->casCount, assumed;
  do {
    assumed = old;
    old = atomicCAS_block(&r->casCount, assumed, assumed + 1);
  } while (old != assumed);
  __syncthreads();
  if (t == 0)
    r->sharedSum[blockIdx.x] = blockSum;
}

int main() {
  Results init = {};
  init.minSystem = 1 << 30;
  init.andBlock = ~0u;
  Results *d;
  cudaMalloc(&d, sizeof(Results));
  cudaMemcpy(d, &init, sizeof(Results), cudaMemcpyHostToDevice);
  scoped<<<BLOCKS, THREADS>>>(d);
  Results r;
  cudaMemcpy(&r, d, sizeof(Results), cudaMemcpyDeviceToHost);
  const int n = BLOCKS * THREADS;
  unsigned xorExpect = 0;
  for (int i = 0; i < n; ++i)
    xorExpect ^= 1u << (i % 3);
  bool ok = r.addBlock == n && r.addSystem == 2 * n && r.subBlock == -n &&
            r.maxBlock == n - 1 && r.minSystem == -5 && r.exchSystem == 7 &&
            r.incBlock == unsigned(n % 10) &&
            r.decSystem == unsigned((10 - n % 10) % 10) && r.andBlock == 0 &&
            r.orSystem == ~0u && r.xorBlock == xorExpect &&
            r.faddBlock == 0.5f * n && r.daddSystem == 0.25 * n &&
            r.ullAddBlock == (unsigned long long)n << 33 && r.casCount == n;
  for (int b = 0; b < BLOCKS; ++b)
    ok &= r.sharedSum[b] == THREADS * (THREADS - 1) / 2;
  if (!ok)
    printf("add %d %d sub %d max %d min %d exch %d inc %u dec %u and %x or %x "
           "xor %x fadd %f dadd %f ull %llu cas %d\n",
           r.addBlock, r.addSystem, r.subBlock, r.maxBlock, r.minSystem,
           r.exchSystem, r.incBlock, r.decSystem, r.andBlock, r.orSystem,
           r.xorBlock, r.faddBlock, r.daddSystem, r.ullAddBlock, r.casCount);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  cudaFree(d);
  return ok ? 0 : 1;
}

// __activemask where warps run as interleaved lanes: all lanes of a full
// warp, the existing lanes of a partial last warp (a block of 80 threads),
// and the lanes taking a branch that differs between lanes. Without the
// interleaving (--disable-opt=warp-interleave) it is a clear error.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: not %respec -O2 --disable-opt=warp-interleave -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ERR
// CHECK: top level: ok
// CHECK: branch: ok
// CHECK: PASSED
// ERR: error: kernel 'masks(unsigned int*, unsigned int*)' uses a warp-level primitive (__activemask)

#include <cstdio>
#include <cuda_runtime.h>

__global__ void masks(unsigned *all, unsigned *branch) {
  unsigned t = threadIdx.x, lane = t % 32;
  all[t] = __activemask();
  unsigned m = 0;
  if (lane % 3 == 0) {
    m = __activemask();
    // The lanes of the branch can vote among themselves with that mask.
    m ^= __ballot_sync(m, lane < 16) << 1 ^ __ballot_sync(m, lane < 16) << 1;
  }
  branch[t] = m;
}

int main() {
  const unsigned n = 80;
  unsigned *all, *branch;
  cudaMallocManaged(&all, n * sizeof(unsigned));
  cudaMallocManaged(&branch, n * sizeof(unsigned));
  masks<<<1, n>>>(all, branch);
  cudaDeviceSynchronize();
  int bad = 0;
  for (unsigned t = 0; t < n; ++t) {
    unsigned warpLanes = t < 64 ? 32 : n - 64;
    unsigned existing = warpLanes == 32 ? 0xffffffffu : (1u << warpLanes) - 1;
    unsigned taking = 0;
    for (unsigned l = 0; l < 32; l += 3)
      taking |= 1u << l;
    taking &= existing;
    if (all[t] != existing && bad++ < 5)
      printf("thread %u: __activemask() = %#x, expected %#x\n", t, all[t],
             existing);
    unsigned want = (t % 32) % 3 == 0 ? taking : 0;
    if (branch[t] != want && bad++ < 5)
      printf("thread %u: in the branch %#x, expected %#x\n", t, branch[t],
             want);
  }
  printf("top level: %s\n", bad ? "FAILED" : "ok");
  printf("branch: %s\n", bad ? "FAILED" : "ok");
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}

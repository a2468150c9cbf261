// __match_all_sync: the mask of participating lanes and true when every
// lane holds the same value, else 0 and false. Block of 80 threads: a warp
// that agrees, a warp that does not, and a partial last warp of 16 lanes
// that agrees among its existing lanes.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x, pred = 0;
  unsigned m = __match_all_sync(0xffffffff, in[t], &pred);
  out[t * 2] = m; out[t * 2 + 1] = pred;
}
int main() {
  int h[80], o[160], *d, *dout; int errors = 0;
  for (int i = 0; i < 80; ++i) h[i] = i < 32 ? 7 : (i < 64 ? i % 2 : 5);
  cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 80>>>(d, dout); cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 80; ++t) { unsigned wantM = t < 32 ? 0xffffffffu : (t < 64 ? 0u : 0xffffu); int wantP = wantM != 0;
    if ((unsigned)o[t*2] != wantM || o[t*2+1] != wantP) { if (++errors < 5) printf("t%d %x %d\n", t, o[t*2], o[t*2+1]); } }
  printf(errors ? "FAILED\n" : "PASSED\n"); return errors != 0;
}

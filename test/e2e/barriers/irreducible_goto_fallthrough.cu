// Control flow around barriers that is hard to structure: a loop entered
// in its middle through `goto` (an irreducible graph, for both entries),
// and a switch on blockIdx whose cases hold barriers and fall through.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
// Irreducible control flow around a barrier: the loop has two entries.
__global__ void irreducible(int *out, int start) {
  __shared__ int s[64];
  int t = threadIdx.x, v = t, rounds = 0;
  if (start & 1) goto second;
first:
  s[t] = v;
  __syncthreads();
  v = s[(t + 1) % 64] + 1;
  __syncthreads();
second:
  ++rounds;
  v += rounds;
  if (rounds < 4) goto first;
  out[blockIdx.x * 64 + t] = v;
}
// switch with fallthrough and barriers in cases (uniform on blockIdx)
__global__ void fall(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x, v = t;
  switch (blockIdx.x) {
  case 0: s[t] = v; __syncthreads(); v = s[63 - t]; __syncthreads(); [[fallthrough]];
  case 1: v *= 3; s[t] = v; __syncthreads(); v = s[(t + 2) % 64]; __syncthreads(); break;
  default: v = -v;
  }
  out[blockIdx.x * 64 + t] = v;
}
int main() {
  int *d, h[3 * 64]; cudaMalloc(&d, sizeof h); int errors = 0;
  for (int start = 0; start < 2; ++start) {
    irreducible<<<1, 64>>>(d, start); cudaMemcpy(h, d, 64 * 4, cudaMemcpyDeviceToHost);
    int v[64], s[64]; for (int t = 0; t < 64; ++t) v[t] = t; int rounds = 0; bool skip = start & 1;
    while (true) { if (!skip) { for (int t = 0; t < 64; ++t) s[t] = v[t]; for (int t = 0; t < 64; ++t) v[t] = s[(t + 1) % 64] + 1; } skip = false; ++rounds; for (int t = 0; t < 64; ++t) v[t] += rounds; if (rounds >= 4) break; }
    for (int t = 0; t < 64; ++t) if (h[t] != v[t] && ++errors < 5) printf("irr start %d t %d: %d != %d\n", start, t, h[t], v[t]);
  }
  fall<<<3, 64>>>(d); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 3; ++b) for (int t = 0; t < 64; ++t) {
    int want;
    if (b == 2) want = -t; else { int v[64]; for (int u = 0; u < 64; ++u) v[u] = b == 0 ? 63 - u : u; for (int u = 0; u < 64; ++u) v[u] *= 3; want = v[(t + 2) % 64]; }
    if (h[b * 64 + t] != want && ++errors < 5) printf("fall b%d t%d: %d != %d\n", b, t, h[b*64+t], want);
  }
  printf(errors ? "FAILED\n" : "PASSED\n"); return errors != 0;
}

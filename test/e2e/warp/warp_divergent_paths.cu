// Warps of one block taking different paths, each warp converged: a
// branch on the warp index whose sides run different primitives
// (shuffle / ballot / reduction / none), loops whose trip count depends on
// the warp (different warps run a primitive a different number of times),
// a loop whose exit is a vote of the warp, whole warps returning before
// the others shuffle, and a __syncthreads between such regions (in the
// code of the warps still running, every warp of the block reaching it).
// Blocks of 160 threads (5 warps), 3 blocks.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 3
#define THREADS 160
#define N (BLOCKS * THREADS)
#define NR 6
#define SENT 0x5eed

__global__ void paths(const int *in, int *out) {
  __shared__ int s[THREADS];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  int v = in[gid];
  int *r = out + gid * NR;

  // Warp-uniform branch, different primitives per warp.
  int a;
  switch (warp % 4) {
  case 0: a = __shfl_xor_sync(FULL, v, 1); break;
  case 1: a = (int)__ballot_sync(FULL, v % 2); break;
  case 2: a = __reduce_max_sync(FULL, v); break;
  default: a = v + 1; break;
  }
  r[0] = a;

  // Warp w runs w + 1 butterfly steps.
  int x = v;
  for (int i = 0; i <= warp; ++i)
    x += __shfl_xor_sync(FULL, x, 1 << i);
  r[1] = x;

  // Iterate until every lane of the warp exceeds a warp-dependent limit.
  int y = v, rounds = 0;
  while (__any_sync(FULL, y < 500 + 300 * warp)) {
    y += __shfl_down_sync(FULL, y, 1) + 1;
    ++rounds;
  }
  r[2] = y;
  r[3] = rounds;

  // A barrier all warps reach, then an exchange across warps.
  s[threadIdx.x] = x;
  __syncthreads();
  r[4] = s[(threadIdx.x + 32) % THREADS];

  // Warps 1 and 3 leave; the others still shuffle.
  if (warp == 1 || warp == 3)
    return;
  r[5] = __shfl_sync(FULL, v * 3, (lane + warp) % 32);
}

int main() {
  static int h[N], out[N * NR];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101;
  for (int i = 0; i < N * NR; ++i)
    out[i] = SENT;
  int *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dOut, out, sizeof out, cudaMemcpyHostToDevice);
  paths<<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  int errors = 0;
  static int xs[N];
  // The butterfly results, needed across warps.
  for (int base = 0; base < N; base += 32) {
    int warp = base % THREADS / 32, cur[32], nx[32];
    for (int l = 0; l < 32; ++l)
      cur[l] = h[base + l];
    for (int i = 0; i <= warp; ++i) {
      for (int l = 0; l < 32; ++l)
        nx[l] = cur[l] + cur[l ^ (1 << i)];
      for (int l = 0; l < 32; ++l)
        cur[l] = nx[l];
    }
    for (int l = 0; l < 32; ++l)
      xs[base + l] = cur[l];
  }
  for (int base = 0; base < N; base += 32) {
    int warp = base % THREADS / 32;
    const int *v = h + base;
    unsigned bal = 0;
    int mx = v[0];
    for (int l = 0; l < 32; ++l) {
      bal |= (unsigned)(v[l] % 2) << l;
      mx = v[l] > mx ? v[l] : mx;
    }
    int y[32], nx[32], rounds = 0;
    for (int l = 0; l < 32; ++l)
      y[l] = v[l];
    for (;;) {
      bool any = false;
      for (int l = 0; l < 32; ++l)
        any |= y[l] < 500 + 300 * warp;
      if (!any)
        break;
      for (int l = 0; l < 32; ++l)
        nx[l] = y[l] + (l < 31 ? y[l + 1] : y[l]) + 1;
      for (int l = 0; l < 32; ++l)
        y[l] = nx[l];
      ++rounds;
    }
    for (int l = 0; l < 32; ++l) {
      int gid = base + l, t = gid % THREADS, blockBase = gid - t;
      int a[4] = {v[l ^ 1], (int)bal, mx, v[l] + 1};
      int want[NR] = {a[warp % 4], xs[gid], y[l], rounds,
                      xs[blockBase + (t + 32) % THREADS],
                      warp == 1 || warp == 3 ? SENT : v[(l + warp) % 32] * 3};
      for (int k = 0; k < NR; ++k)
        if (out[gid * NR + k] != want[k] && ++errors <= 12)
          printf("case %d thread %d: got %d, expected %d\n", k, gid,
                 out[gid * NR + k], want[k]);
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

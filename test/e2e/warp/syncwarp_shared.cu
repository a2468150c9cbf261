// __syncwarp ordering exchanges through shared memory inside a warp (no
// __syncthreads): write, __syncwarp(), read a neighbour, __syncwarp(),
// overwrite; a Hillis-Steele inclusive scan; a rotation repeated in a loop;
// the two halves of each warp exchanging among themselves in the two sides
// of a branch with __syncwarp(0x0000ffff) / __syncwarp(0xffff0000); and an
// odd-even transposition sort of each group of 8 lanes synchronized with
// __syncwarp(mask of the group). 2 blocks of 128 threads (4 warps each).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define NR 6
#define BLOCKS 2
#define THREADS 128
#define N (BLOCKS * THREADS)

__global__ void exchange(const int *in, int *out) {
  __shared__ int s[THREADS];
  __shared__ int s2[THREADS];
  int t = threadIdx.x, gid = blockIdx.x * blockDim.x + t;
  int lane = t % 32, base = t - lane;
  int v = in[gid];
  int *r = out + gid * NR;

  // Neighbour exchange, then a second round through the same memory.
  s[t] = v;
  __syncwarp();
  int a = s[base + (lane + 1) % 32];
  __syncwarp();
  s[t] = a * 2 + lane;
  __syncwarp();
  r[0] = s[base + (lane ^ 5)];
  __syncwarp();

  // Inclusive scan of the warp.
  s[t] = v;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    int x = lane >= d ? s[t - d] : 0;
    __syncwarp();
    s[t] += x;
    __syncwarp();
  }
  r[1] = s[t];
  __syncwarp();

  // Rotate the warp's values by one lane, 7 times.
  s[t] = v;
  __syncwarp();
  for (int k = 0; k < 7; ++k) {
    int x = s[base + (lane + 1) % 32];
    __syncwarp();
    s[t] = x;
    __syncwarp();
  }
  r[2] = s[t];

  // The halves of the warp, each on its own.
  if (lane < 16) {
    s2[t] = v * 3;
    __syncwarp(0x0000ffffu);
    r[3] = s2[base + 15 - lane];
  } else {
    s2[t] = v + 1000;
    __syncwarp(0xffff0000u);
    r[3] = s2[base + 16 + (lane - 16 + 3) % 16];
  }
  __syncwarp();

  // Odd-even transposition sort of each group of 8 lanes.
  unsigned group = 0xffu << (lane & ~7);
  int g = lane % 8;
  s[t] = v;
  __syncwarp(group);
  for (int phase = 0; phase < 8; ++phase) {
    int partner = (g % 2 == phase % 2) ? g + 1 : g - 1;
    int mine = s[t], keep = mine;
    if (partner >= 0 && partner < 8) {
      int other = s[t - g + partner];
      keep = partner > g ? (mine < other ? mine : other)
                         : (mine > other ? mine : other);
    }
    __syncwarp(group);
    s[t] = keep;
    __syncwarp(group);
  }
  r[4] = s[t];

  // warp-synchronous broadcast of lane 0's value.
  __syncwarp();
  if (lane == 0)
    s2[base] = v * 7;
  __syncwarp();
  r[5] = s2[base];
}

int main() {
  static int h[N], out[N * NR];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 7919 + 17) % 1009 - 500;
  int *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  exchange<<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    const int *v = h + base;
    int want[NR];
    int p = lane ^ 5;
    want[0] = v[(p + 1) % 32] * 2 + p;
    int sum = 0;
    for (int l = 0; l <= lane; ++l)
      sum += v[l];
    want[1] = sum;
    want[2] = v[(lane + 7) % 32];
    want[3] = lane < 16 ? v[15 - lane] * 3 : v[16 + (lane - 16 + 3) % 16] + 1000;
    int sorted[8], g0 = lane & ~7;
    for (int k = 0; k < 8; ++k)
      sorted[k] = v[g0 + k];
    for (int i = 1; i < 8; ++i)
      for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; --j) {
        int x = sorted[j];
        sorted[j] = sorted[j - 1];
        sorted[j - 1] = x;
      }
    want[4] = sorted[lane % 8];
    want[5] = v[0] * 7;
    for (int k = 0; k < NR; ++k)
      if (out[gid * NR + k] != want[k] && ++errors <= 12)
        printf("case %d thread %d: got %d, expected %d\n", k, gid,
               out[gid * NR + k], want[k]);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

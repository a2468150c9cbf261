// Shuffles in loops and divergent code: the __shfl_down_sync tree
// reduction (every lane's result, not just lane 0's), an xor butterfly,
// a segmented inclusive scan with __shfl_up_sync (segment heads from a
// ballot), loops with a lane-dependent trip count whose mask names the
// lanes still looping (computed arithmetically, or by a ballot each
// iteration), data-dependent branches whose sides shuffle among their own
// lanes, a shuffle in a device function called from a branch, a loop with a
// run-time trip count and nested loops, and a loop left by break when an
// __all_sync vote says so. 2 blocks of 96 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define NR 10
#define SENT 0x5eed
#define BLOCKS 2
#define THREADS 96
#define N (BLOCKS * THREADS)

__device__ int rotateWithin(unsigned mask, int x, int lane) {
  // The next lane of the mask above `lane`, cyclically.
  unsigned above = mask & ~((2u << lane) - 1);
  int src = above ? __ffs(above) - 1 : __ffs(mask) - 1;
  return __shfl_sync(mask, x, src);
}

__global__ void loops(const int *in, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[gid];
  int *r = out + gid * NR;

  int s = v;
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(FULL, s, o);
  r[0] = s;

  int x = v;
  for (int o = 1; o < 32; o *= 2)
    x += __shfl_xor_sync(FULL, x, o);
  r[1] = x;

  // Segmented scan: lane 0 and lanes whose value is divisible by 5 start
  // a segment.
  unsigned heads = __ballot_sync(FULL, lane == 0 || v % 5 == 0);
  int start = 31 - __clz(heads & (lane == 31 ? FULL : (2u << lane) - 1));
  int sc = v;
  for (int d = 1; d < 32; d *= 2) {
    int y = __shfl_up_sync(FULL, sc, d);
    if (lane - d >= start)
      sc += y;
  }
  r[2] = sc;

  // Lane l loops l % 7 + 1 times; iteration i's mask names the lanes with
  // more than i iterations, and each reads the next such lane.
  int trips = lane % 7 + 1, acc = 0, carried = v;
  for (int i = 0; i < trips; ++i) {
    unsigned mask = 0;
    for (int l = 0; l < 32; ++l)
      if (l % 7 + 1 > i)
        mask |= 1u << l;
    carried = rotateWithin(mask, carried, lane);
    acc += carried;
  }
  r[3] = acc;

  // Data-dependent trip count; the mask is a ballot of the lanes that go
  // on, each iteration adding the value of the lowest such lane.
  int t2 = v % 6, sum2 = 0, i2 = 0;
  unsigned active = __ballot_sync(FULL, i2 < t2);
  while (i2 < t2) {
    sum2 += __shfl_sync(active, v + i2, __ffs(active) - 1);
    ++i2;
    active = __ballot_sync(active, i2 < t2);
  }
  r[4] = sum2;
}

// Two kernels: compile time grows faster than linearly with the number of
// warp primitives in one kernel.
__global__ void branches(const int *in, int *out, int rounds) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[gid];
  int *r = out + gid * NR;

  // The two sides of a data-dependent branch shuffle among themselves.
  unsigned odd = __ballot_sync(FULL, v & 1);
  if (v & 1) {
    r[5] = rotateWithin(odd, v, lane);
  } else {
    unsigned even = ~odd;
    r[5] = -__shfl_sync(even, v, 31 - __clz(even));
  }

  // A uniform run-time trip count, and nested loops.
  int y = v;
  for (int k = 0; k < rounds; ++k)
    y = __shfl_sync(FULL, y, (lane + 3) % 32) + 1;
  r[6] = y;
  int z = v;
  for (int a = 0; a < 3; ++a)
    for (int o = 1; o <= 4; o *= 2)
      z = z * 2 + __shfl_xor_sync(FULL, z, o, 8) % 1000;
  r[7] = z;

  // Leave the loop when every lane's value exceeds 300.
  int w = v, iters = 0;
  for (;;) {
    w = __shfl_xor_sync(FULL, w, 1) + lane + 1;
    ++iters;
    if (__all_sync(FULL, w > 300))
      break;
  }
  r[8] = w;
  r[9] = iters;
}

int main() {
  static int h[N], out[N * NR];
  const int rounds = 5;
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  loops<<<BLOCKS, THREADS>>>(dIn, dOut);
  branches<<<BLOCKS, THREADS>>>(dIn, dOut, rounds);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  int errors = 0;
  for (int base = 0; base < N; base += 32) {
    const int *v = h + base;
    int want[32][NR], cur[32], nx[32];
    // 0: tree reduction, all lanes.
    for (int l = 0; l < 32; ++l)
      cur[l] = v[l];
    for (int o = 16; o > 0; o /= 2) {
      for (int l = 0; l < 32; ++l)
        nx[l] = cur[l] + (l + o < 32 ? cur[l + o] : cur[l]);
      for (int l = 0; l < 32; ++l)
        cur[l] = nx[l];
    }
    for (int l = 0; l < 32; ++l)
      want[l][0] = cur[l];
    // 1: butterfly.
    int total = 0;
    for (int l = 0; l < 32; ++l)
      total += v[l];
    for (int l = 0; l < 32; ++l)
      want[l][1] = total;
    // 2: segmented scan.
    int run = 0;
    for (int l = 0; l < 32; ++l) {
      if (l == 0 || v[l] % 5 == 0)
        run = 0;
      run += v[l];
      want[l][2] = run;
    }
    // 3: shrinking masks.
    int carried[32], acc[32] = {};
    for (int l = 0; l < 32; ++l)
      carried[l] = v[l];
    for (int i = 0; i < 7; ++i) {
      int next[32];
      for (int l = 0; l < 32; ++l) {
        if (l % 7 + 1 <= i)
          continue;
        int src = -1;
        for (int k = 1; k <= 32 && src < 0; ++k)
          if ((l + k) % 32 % 7 + 1 > i)
            src = (l + k) % 32;
        next[l] = carried[src];
      }
      for (int l = 0; l < 32; ++l)
        if (l % 7 + 1 > i) {
          carried[l] = next[l];
          acc[l] += carried[l];
        }
    }
    for (int l = 0; l < 32; ++l)
      want[l][3] = acc[l];
    // 4: ballot-driven loop.
    for (int l = 0; l < 32; ++l) {
      int sum = 0;
      for (int i = 0; i < v[l] % 6; ++i) {
        int low = 0;
        while (v[low] % 6 <= i)
          ++low;
        sum += v[low] + i;
      }
      want[l][4] = sum;
    }
    // 5: branch sides.
    int highestEven = -1;
    for (int l = 0; l < 32; ++l)
      if (!(v[l] & 1))
        highestEven = l;
    for (int l = 0; l < 32; ++l) {
      if (v[l] & 1) {
        int src = l;
        for (int k = 1; k <= 32; ++k)
          if (v[(l + k) % 32] & 1) {
            src = (l + k) % 32;
            break;
          }
        want[l][5] = v[src];
      } else {
        want[l][5] = -v[highestEven];
      }
    }
    // 6: run-time trip count.
    for (int l = 0; l < 32; ++l)
      cur[l] = v[l];
    for (int k = 0; k < rounds; ++k) {
      for (int l = 0; l < 32; ++l)
        nx[l] = cur[(l + 3) % 32] + 1;
      for (int l = 0; l < 32; ++l)
        cur[l] = nx[l];
    }
    for (int l = 0; l < 32; ++l)
      want[l][6] = cur[l];
    // 7: nested loops.
    for (int l = 0; l < 32; ++l)
      cur[l] = v[l];
    for (int a = 0; a < 3; ++a)
      for (int o = 1; o <= 4; o *= 2) {
        for (int l = 0; l < 32; ++l)
          nx[l] = cur[l] * 2 + cur[l ^ o] % 1000;
        for (int l = 0; l < 32; ++l)
          cur[l] = nx[l];
      }
    for (int l = 0; l < 32; ++l)
      want[l][7] = cur[l];
    // 8, 9: loop left by a vote.
    for (int l = 0; l < 32; ++l)
      cur[l] = v[l];
    int iters = 0;
    for (;;) {
      for (int l = 0; l < 32; ++l)
        nx[l] = cur[l ^ 1] + l + 1;
      for (int l = 0; l < 32; ++l)
        cur[l] = nx[l];
      ++iters;
      bool all = true;
      for (int l = 0; l < 32; ++l)
        all &= cur[l] > 300;
      if (all)
        break;
    }
    for (int l = 0; l < 32; ++l) {
      want[l][8] = cur[l];
      want[l][9] = iters;
    }
    for (int l = 0; l < 32; ++l)
      for (int k = 0; k < NR; ++k)
        if (out[(base + l) * NR + k] != want[l][k] && ++errors <= 12)
          printf("case %d thread %d: got %d, expected %d\n", k, base + l,
                 out[(base + l) * NR + k], want[l][k]);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

// Warp reductions (sm_80): __reduce_add_sync (int and unsigned, wrapping on
// overflow), __reduce_min_sync and __reduce_max_sync (int: signed order,
// unsigned: unsigned order, so values with the high bit set tell them
// apart), __reduce_and/or/xor_sync (unsigned). 12 masks (full, single
// lanes, halves, alternate lanes, irregular ones, and per-lane masks
// naming the lane's own group of 8) times 4 data sets; only the lanes of
// the mask execute, the others keep their old value. 2 blocks of 64
// threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <climits>
#include <cstdio>
#include <cuda_runtime.h>

#define NMASK 12
#define NDATA 4
#define NOP 9
#define PER (NMASK * NDATA * NOP)
#define SENT 0x5eed
#define BLOCKS 2
#define THREADS 64
#define N (BLOCKS * THREADS)

__host__ __device__ unsigned maskOf(int m, int lane) {
  switch (m) {
  case 0: return 0xffffffffu;
  case 1: return 0x00000001u;
  case 2: return 0x80000000u;
  case 3: return 0x0000ffffu;
  case 4: return 0xffff0000u;
  case 5: return 0x55555555u;
  case 6: return 0xaaaaaaaau;
  case 7: return 0x12345678u;
  case 8: return 0x80000001u;
  case 9: return 0xf0f0f0f0u;
  case 10: return 0x7fffffffu;
  default: return 0xffu << (lane & ~7);
  }
}

__host__ __device__ unsigned dataOf(int d, int gid) {
  unsigned x = (unsigned)gid * 2654435761u + 977u;
  x ^= x >> 13;
  switch (d) {
  case 0: return (unsigned)((int)(x % 2001) - 1000);  // small, both signs
  case 1: return x % 3 == 0 ? 0x7fffff00u + x % 200    // near INT_MAX
                            : 0x80000000u + x % 500; // near INT_MIN
  case 2: return x;                                     // anything
  default: return 0xc0ffee11u;                          // all equal
  }
}

__global__ void reduce(int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int *o = out + gid * PER;
  for (int md = 0; md < NMASK * NDATA; ++md) {
    int m = md / NDATA, d = md % NDATA;
    unsigned mask = maskOf(m, lane);
    unsigned u = dataOf(d, gid);
    int i = (int)u;
    int r[NOP];
    for (int k = 0; k < NOP; ++k)
      r[k] = SENT;
    if (mask >> lane & 1) {
      r[0] = (int)__reduce_add_sync(mask, u);
      r[1] = __reduce_add_sync(mask, i);
      r[2] = __reduce_min_sync(mask, i);
      r[3] = __reduce_max_sync(mask, i);
      r[4] = (int)__reduce_min_sync(mask, u);
      r[5] = (int)__reduce_max_sync(mask, u);
      r[6] = (int)__reduce_and_sync(mask, u);
      r[7] = (int)__reduce_or_sync(mask, u);
      r[8] = (int)__reduce_xor_sync(mask, u);
    }
    for (int k = 0; k < NOP; ++k)
      o[md * NOP + k] = r[k];
  }
}

int main() {
  static int out[N * PER];
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  cudaMemset(dOut, 0, sizeof out);
  reduce<<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  static const char *names[NOP] = {"add(unsigned)", "add(int)", "min(int)",
                                   "max(int)", "min(unsigned)", "max(unsigned)",
                                   "and", "or", "xor"};
  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    for (int md = 0; md < NMASK * NDATA; ++md) {
      int m = md / NDATA, d = md % NDATA;
      unsigned mask = maskOf(m, lane);
      int want[NOP];
      for (int k = 0; k < NOP; ++k)
        want[k] = SENT;
      if (mask >> lane & 1) {
        unsigned sum = 0, umin = UINT_MAX, umax = 0, band = ~0u, bor = 0, bxor = 0;
        int imin = INT_MAX, imax = INT_MIN;
        for (int l = 0; l < 32; ++l) {
          if (!(mask >> l & 1))
            continue;
          unsigned u = dataOf(d, base + l);
          int i = (int)u;
          sum += u;
          umin = u < umin ? u : umin;
          umax = u > umax ? u : umax;
          imin = i < imin ? i : imin;
          imax = i > imax ? i : imax;
          band &= u;
          bor |= u;
          bxor ^= u;
        }
        int w[NOP] = {(int)sum, (int)sum, imin, imax, (int)umin, (int)umax,
                      (int)band, (int)bor, (int)bxor};
        for (int k = 0; k < NOP; ++k)
          want[k] = w[k];
      }
      for (int k = 0; k < NOP; ++k) {
        int got = out[gid * PER + md * NOP + k];
        if (got != want[k] && ++errors <= 12)
          printf("%s mask %08x data %d thread %d: got %#x, expected %#x\n",
                 names[k], mask, d, gid, got, want[k]);
      }
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

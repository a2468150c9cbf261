// Shuffles and votes that only a subset of each warp executes, with the
// mask naming exactly that subset: even lanes, one half of the warp (the
// other half running a different shuffle in the else branch), groups of
// four lanes, lanes 8..23, every third lane, nested branches, 64-bit values,
// and masks that differ from lane to lane (each lane names its own group of
// 8, as cooperative groups' tiles do). Only results CUDA defines are
// checked: a lane whose source lane is not in the mask gets an undefined
// value (case 6 runs such a shuffle and checks nothing); a source lane
// outside the segment gives the caller's own value. Lanes that do not
// execute a primitive must keep their old value. 2 blocks of 64 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define NC 18
#define SENT (-12345)
#define BLOCKS 2
#define THREADS 64
#define N (BLOCKS * THREADS)

// Two kernels, cases 0..10 and 11..17 (compile time grows faster than
// linearly with the number of warp primitives in a kernel).
__global__ void partial(const int *in, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[gid];
  int r[NC];
  for (int c = 0; c <= 10; ++c)
    r[c] = SENT;

  if (lane % 2 == 0) {
    r[0] = __shfl_sync(0x55555555, v, lane + 2);
    r[1] = __shfl_sync(0x55555555, v, lane + 2, 8);
    r[2] = __ballot_sync(0x55555555, v % 3 == 0);
    r[3] = __any_sync(0x55555555, v % 7 == 0);
    r[4] = __all_sync(0x55555555, v % 2 == 0);
  }
  if (lane < 16) {
    r[5] = __shfl_down_sync(0x0000ffff, v, 3, 16);
  } else {
    r[5] = __shfl_up_sync(0xffff0000, v, 3); // lanes 16..18: undefined
  }
  if ((lane & 4) == 0) {
    r[6] = __shfl_xor_sync(0x0f0f0f0f, v, 3);
    r[7] = __shfl_xor_sync(0x0f0f0f0f, v, 8);
  }
  if (lane & 1) {
    // Reads an even lane, which is not in the mask: undefined, not checked.
    r[8] = __shfl_sync(0xaaaaaaaa, v, lane - 1);
  }
  if (lane >= 8 && lane < 24)
    r[9] = __shfl_down_sync(0x00ffff00, v, 4, 8);
  if (lane % 3 == 0)
    r[10] = __shfl_sync(0x49249249, v, (lane + 3) % 33);
  for (int c = 0; c <= 10; ++c)
    out[gid * NC + c] = r[c];
}

__global__ void partial2(const int *in, int *out, double *dout) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[gid];
  int r[NC];
  for (int c = 11; c < NC; ++c)
    r[c] = SENT;
  double d = v * 0.5 + 0.25, dr = -1.0;
  // Every lane runs this call, each naming its own group of 8 lanes.
  r[11] = __shfl_down_sync(0xffu << (lane & ~7), v, 1, 8);
  if ((lane / 8) % 2 == 0)
    r[12] = __shfl_xor_sync(0xffu << (lane & ~7), v, 5, 8);
  else
    r[12] = __shfl_up_sync(0xffu << (lane & ~7), v, 2, 8);
  if (lane < 16) {
    if (lane % 2 == 0)
      r[13] = __shfl_sync(0x00005555, v, 14);
    r[14] = __ballot_sync(0x0000ffff, 1);
  }
  if (lane >= 28)
    r[15] = __shfl_down_sync(0xf0000000, v, 2);
  if (lane < 24)
    dr = __shfl_xor_sync(0x00ffffff, d, 4);
  // Per-lane group masks for the votes as well.
  r[16] = __ballot_sync(0xffu << (lane & ~7), v % 3 == 0);
  r[17] = __all_sync(0xffu << (lane & ~7), v > 10);
  for (int c = 11; c < NC; ++c)
    out[gid * NC + c] = r[c];
  dout[gid] = dr;
}

int main() {
  static int h[N], out[N * NC];
  static double dout[N];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101;
  for (int l = 0; l < 32; l += 2) // warp 0: all even lanes hold even values
    h[l] = 2 * l + 4;
  for (int l = 40; l < 48; ++l) // a group of 8 with all values > 10
    h[l] = 50 + l;
  int *dIn, *dOut;
  double *dD;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dD, sizeof dout);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  partial<<<BLOCKS, THREADS>>>(dIn, dOut);
  partial2<<<BLOCKS, THREADS>>>(dIn, dOut, dD);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout, dD, sizeof dout, cudaMemcpyDeviceToHost);

  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane, g8 = lane & ~7;
    const int *v = h + base;
    int want[NC];
    bool check[NC];
    for (int c = 0; c < NC; ++c) {
      want[c] = SENT;
      check[c] = true;
    }
    if (lane % 2 == 0) {
      want[0] = v[(lane + 2) % 32];
      want[1] = v[(lane & ~7) + (lane + 2) % 8];
      unsigned b = 0;
      int any = 0, all = 1;
      for (int l = 0; l < 32; l += 2) {
        b |= (unsigned)(v[l] % 3 == 0) << l;
        any |= v[l] % 7 == 0;
        all &= v[l] % 2 == 0;
      }
      want[2] = (int)b;
      want[3] = any;
      want[4] = all;
    }
    if (lane < 16)
      want[5] = lane + 3 < 16 ? v[lane + 3] : v[lane];
    else if (lane >= 19)
      want[5] = v[lane - 3];
    else
      check[5] = false;
    if ((lane & 4) == 0) {
      want[6] = v[lane ^ 3];
      want[7] = v[lane ^ 8];
    }
    check[8] = (lane & 1) == 0; // odd lanes: undefined
    if (lane >= 8 && lane < 24)
      want[9] = (lane % 8) + 4 < 8 ? v[lane + 4] : v[lane];
    if (lane % 3 == 0)
      want[10] = v[(lane + 3) % 33];
    want[11] = lane % 8 < 7 ? v[lane + 1] : v[lane];
    if ((lane / 8) % 2 == 0)
      want[12] = v[lane ^ 5];
    else
      want[12] = lane % 8 >= 2 ? v[lane - 2] : v[lane];
    if (lane < 16) {
      if (lane % 2 == 0)
        want[13] = v[14];
      want[14] = 0xffff;
    }
    if (lane >= 28)
      want[15] = lane + 2 < 32 ? v[lane + 2] : v[lane];
    unsigned b = 0;
    int all = 1;
    for (int l = g8; l < g8 + 8; ++l) {
      b |= (unsigned)(v[l] % 3 == 0) << l;
      all &= v[l] > 10;
    }
    want[16] = (int)b;
    want[17] = all;
    for (int c = 0; c < NC; ++c)
      if (check[c] && out[gid * NC + c] != want[c] && ++errors <= 12)
        printf("case %d thread %d (lane %d): got %d, expected %d\n", c, gid,
               lane, out[gid * NC + c], want[c]);
    double wd = lane < 24 ? v[lane ^ 4] * 0.5 + 0.25 : -1.0;
    if (dout[gid] != wd && ++errors <= 12)
      printf("double xor thread %d: got %f, expected %f\n", gid, dout[gid], wd);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

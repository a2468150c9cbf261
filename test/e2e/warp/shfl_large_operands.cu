// Shuffle deltas, xor masks and lanes outside 0-31: PTX uses only the low
// five bits of the lane operand (shfl.sync's b[4:0]) in every mode.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 2
#define THREADS 64
#define N (BLOCKS * THREADS)
#define NOPS 6
static const unsigned hOps[NOPS] = {32, 33, 40, 63, 0xffffffffu, 0x80000005u};
#define PER (NOPS * 4)

__global__ void shuffles(const int *in, const unsigned *ops, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  for (int j = 0; j < NOPS; ++j) {
    unsigned b = ops[j];
    int *r = out + gid * PER + j * 4;
    r[0] = __shfl_up_sync(FULL, v, b);
    r[1] = __shfl_down_sync(FULL, v, b);
    r[2] = __shfl_xor_sync(FULL, v, (int)b);
    r[3] = __shfl_xor_sync(FULL, v, (int)b, 16);
  }
}

int main() {
  static int h[N], out[N * PER];
  for (int i = 0; i < N; ++i)
    h[i] = 1000 + i;
  int *dIn, *dOut;
  unsigned *dOps;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dOps, sizeof hOps);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dOps, hOps, sizeof hOps, cudaMemcpyHostToDevice);
  shuffles<<<BLOCKS, THREADS>>>(dIn, dOps, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  static const char *names[4] = {"shfl_up", "shfl_down", "shfl_xor",
                                 "shfl_xor width 16"};
  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    for (int j = 0; j < NOPS; ++j) {
      int b = (int)(hOps[j] & 31); // PTX: bval[4:0] = b[4:0]
      int seg16 = lane & ~15;
      int src[4] = {lane - b >= 0 ? lane - b : lane,
                    lane + b < 32 ? lane + b : lane,
                    lane ^ b,
                    (lane ^ b) < seg16 + 16 ? lane ^ b : lane};
      for (int k = 0; k < 4; ++k) {
        int got = out[gid * PER + j * 4 + k], want = h[base + src[k]];
        if (got != want && ++errors <= 10)
          printf("%s(%#x) thread %d: got %d, expected %d\n", names[k], hOps[j],
                 gid, got, want);
      }
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

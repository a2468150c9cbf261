// Cooperative groups on the CPU: this_thread_block() with thread_rank(),
// size() and sync(); tiled_partition<32> and <8> with shfl_down, shfl_xor,
// any, all, ballot; and cg::reduce over a tile. Block of 96 threads.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define T 96

__global__ void groups(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[T];
  int t = block.thread_rank();
  s[t] = in[t];
  block.sync();
  int v = s[(t + 1) % block.size()];
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int sum = v;
  for (int d = 16; d > 0; d /= 2)
    sum += warp.shfl_down(sum, d);
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  int x = eight.shfl_xor(v, 3);
  out[t * 6 + 0] = warp.thread_rank() == 0 ? sum : -1;
  out[t * 6 + 1] = x;
  out[t * 6 + 2] = warp.any(v > 90);
  out[t * 6 + 3] = warp.all(v >= 0);
  out[t * 6 + 4] = (int)warp.ballot(v % 2 == 0);
  out[t * 6 + 5] = cg::reduce(eight, v, cg::plus<int>());
}

int main() {
  int h[T], o[T * 6], *d, *dOut;
  for (int i = 0; i < T; ++i)
    h[i] = (i * 53 + 7) % 97;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dOut, sizeof o);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  groups<<<1, T>>>(d, dOut);
  cudaMemcpy(o, dOut, sizeof o, cudaMemcpyDeviceToHost);
  int v[T], errors = 0;
  for (int t = 0; t < T; ++t)
    v[t] = h[(t + 1) % T];
  for (int t = 0; t < T; ++t) {
    int w = t / 32 * 32, e = t / 8 * 8, want[6];
    int sum = 0, any = 0, all = 1, ballot = 0, esum = 0;
    for (int l = 0; l < 32; ++l) {
      sum += v[w + l];
      any |= v[w + l] > 90;
      all &= v[w + l] >= 0;
      ballot |= (v[w + l] % 2 == 0) << l;
    }
    for (int l = 0; l < 8; ++l)
      esum += v[e + l];
    want[0] = t % 32 == 0 ? sum : -1;
    want[1] = v[e + ((t - e) ^ 3)];
    want[2] = any;
    want[3] = all;
    want[4] = ballot;
    want[5] = esum;
    for (int i = 0; i < 6; ++i)
      if (o[t * 6 + i] != want[i] && ++errors <= 5)
        printf("thread %d item %d: %d, expected %d\n", t, i, o[t * 6 + i],
               want[i]);
  }
  printf(errors ? "FAILED\n" : "PASSED\n");
  return errors != 0;
}

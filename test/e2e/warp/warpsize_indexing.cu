// warpSize in index arithmetic: lane = threadIdx.x % warpSize, warp =
// threadIdx.x / warpSize, the number of warps of the block, a warp-strided
// loop (i = lane; i < n; i += warpSize) over each warp's slice of an array,
// shuffle offsets and widths computed from warpSize (warpSize - 1 - lane,
// warpSize / 2, warpSize / 4), a tree reduction starting at warpSize / 2,
// and a block reduction through dynamic shared memory with one slot per
// warp. 3 blocks of 160 threads (5 warps).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define NR 8
#define BLOCKS 3
#define THREADS 160
#define N (BLOCKS * THREADS)
#define SLICE 100 // array elements per warp

__global__ void indexing(const int *in, const int *arr, int *out) {
  extern __shared__ int perWarp[];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int warps = (blockDim.x + warpSize - 1) / warpSize;
  int v = in[gid];
  int *r = out + gid * NR;
  r[0] = warpSize;
  r[1] = warps * 1000 + warp * 100 + lane;
  r[2] = __shfl_sync(0xffffffffu, v, warpSize - 1 - lane);
  r[3] = __shfl_xor_sync(0xffffffffu, v, warpSize / 2);
  r[4] = __shfl_down_sync(0xffffffffu, v, 1, warpSize / 4);

  // Each warp sums its slice of arr, warp-strided.
  const int *slice = arr + (blockIdx.x * warps + warp) * SLICE;
  int acc = 0;
  for (int i = lane; i < SLICE; i += warpSize)
    acc += slice[i];
  for (int o = warpSize / 2; o > 0; o /= 2)
    acc += __shfl_xor_sync(0xffffffffu, acc, o);
  r[5] = acc;

  // Block sum: one shared slot per warp.
  int s = v;
  for (int o = warpSize / 2; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0)
    perWarp[warp] = s;
  __syncthreads();
  int total = 0;
  if (warp == 0) {
    int x = lane < warps ? perWarp[lane] : 0;
    for (int o = warpSize / 2; o > 0; o /= 2)
      x += __shfl_down_sync(0xffffffffu, x, o);
    if (lane == 0)
      perWarp[warps] = x;
  }
  __syncthreads();
  total = perWarp[warps];
  r[6] = total;
  r[7] = perWarp[(warp + 1) % warps];
}

int main() {
  const int warps = (THREADS + 31) / 32;
  static int h[N], arr[BLOCKS * warps * SLICE], out[N * NR];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101 - 20;
  for (int i = 0; i < BLOCKS * warps * SLICE; ++i)
    arr[i] = (i * 13 + 5) % 29 - 7;
  int *dIn, *dArr, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dArr, sizeof arr);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dArr, arr, sizeof arr, cudaMemcpyHostToDevice);
  indexing<<<BLOCKS, THREADS, (warps + 1) * sizeof(int)>>>(dIn, dArr, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  int errors = 0;
  for (int gid = 0; gid < N; ++gid) {
    int b = gid / THREADS, t = gid % THREADS, lane = t % 32, warp = t / 32;
    const int *v = h + gid - lane;
    int want[NR];
    want[0] = 32;
    want[1] = warps * 1000 + warp * 100 + lane;
    want[2] = v[31 - lane];
    want[3] = v[lane ^ 16];
    want[4] = lane % 8 < 7 ? v[lane + 1] : v[lane];
    int acc = 0;
    for (int i = 0; i < SLICE; ++i)
      acc += arr[(b * warps + warp) * SLICE + i];
    want[5] = acc;
    int total = 0, sums[warps] = {};
    for (int i = 0; i < THREADS; ++i) {
      total += h[b * THREADS + i];
      sums[i / 32] += h[b * THREADS + i];
    }
    want[6] = total;
    want[7] = sums[(warp + 1) % warps];
    for (int k = 0; k < NR; ++k)
      if (out[gid * NR + k] != want[k] && ++errors <= 12)
        printf("case %d thread %d: got %d, expected %d\n", k, gid,
               out[gid * NR + k], want[k]);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

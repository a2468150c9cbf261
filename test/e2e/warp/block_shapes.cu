// Warp primitives in blocks of several shapes: 96, 128, 256 and 1024
// threads; a single thread; partial last warps (40, 100 and 33 threads:
// lanes past the end of the block do not exist, so every mask names
// existing lanes only); 2-D and 3-D blocks ((16,8), (8,5), (4,4,4),
// (7,3,2)) where the lane is the linear thread id modulo 32; 1-D and 2-D
// grids of several blocks. Shuffles whose source lane does not exist are
// left unchecked. A ballot per warp goes through shared memory to another
// warp of the block.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define NR 11
#define SENT 0x5eed

__global__ void shapes(const int *in, int *out) {
  __shared__ unsigned ballots[32];
  int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int threads = blockDim.x * blockDim.y * blockDim.z;
  int block = blockIdx.x + gridDim.x * blockIdx.y;
  int gid = block * threads + tid;
  int lane = tid % 32, warp = tid / 32, warps = (threads + 31) / 32;
  int n = threads - warp * 32 < 32 ? threads - warp * 32 : 32;
  unsigned mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
  int v = in[gid];
  int *r = out + gid * NR;
  r[0] = __shfl_sync(mask, v, (lane + 5) % n);
  r[1] = __shfl_down_sync(mask, v, 1);
  r[2] = __shfl_up_sync(mask, v, 2);
  r[3] = __shfl_xor_sync(mask, v, 1);
  unsigned b = __ballot_sync(mask, v % 3 == 0);
  r[4] = (int)b;
  r[5] = __any_sync(mask, v > 90);
  r[6] = __all_sync(mask, v >= 0);
  r[7] = (int)__reduce_add_sync(mask, (unsigned)v);
  r[8] = __reduce_max_sync(mask, v);
  int s = v;
  for (int o = 16; o > 0; o /= 2) {
    int y = __shfl_down_sync(mask, s, o);
    if (lane + o < n)
      s += y;
  }
  r[9] = lane == 0 ? s : SENT;
  if (lane == 0)
    ballots[warp] = b;
  __syncthreads();
  r[10] = (int)ballots[(warp + 1) % warps];
}

static int errors = 0;

static void run(dim3 grid, dim3 block) {
  int threads = block.x * block.y * block.z;
  int blocks = grid.x * grid.y * grid.z;
  int total = threads * blocks;
  int *h = new int[total], *out = new int[total * NR];
  for (int i = 0; i < total; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *dIn, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dOut, total * NR * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  shapes<<<grid, block>>>(dIn, dOut);
  cudaMemcpy(out, dOut, total * NR * sizeof(int), cudaMemcpyDeviceToHost);
  for (int gid = 0; gid < total; ++gid) {
    int tid = gid % threads, lane = tid % 32, warp = tid / 32;
    int warps = (threads + 31) / 32;
    int n = threads - warp * 32 < 32 ? threads - warp * 32 : 32;
    const int *v = h + gid - lane;
    int want[NR];
    bool check[NR];
    for (int k = 0; k < NR; ++k)
      check[k] = true;
    want[0] = v[(lane + 5) % n];
    // A source lane past the end of the block is not in the mask: undefined.
    want[1] = lane == 31 ? v[lane] : v[lane + 1];
    check[1] = lane == 31 || lane + 1 < n;
    want[2] = lane >= 2 ? v[lane - 2] : v[lane];
    want[3] = v[lane ^ 1];
    check[3] = (lane ^ 1) < n;
    unsigned b = 0;
    int any = 0, all = 1, max = -1, sum = 0;
    for (int l = 0; l < n; ++l) {
      b |= (unsigned)(v[l] % 3 == 0) << l;
      any |= v[l] > 90;
      all &= v[l] >= 0;
      max = v[l] > max ? v[l] : max;
      sum += v[l];
    }
    want[4] = (int)b;
    want[5] = any;
    want[6] = all;
    want[7] = sum;
    want[8] = max;
    want[9] = lane == 0 ? sum : SENT;
    int other = (warp + 1) % warps, on = threads - other * 32 < 32 ? threads - other * 32 : 32;
    unsigned ob = 0;
    const int *ov = h + gid - tid + other * 32;
    for (int l = 0; l < on; ++l)
      ob |= (unsigned)(ov[l] % 3 == 0) << l;
    want[10] = (int)ob;
    for (int k = 0; k < NR; ++k)
      if (check[k] && out[gid * NR + k] != want[k] && ++errors <= 12)
        printf("block (%d,%d,%d) case %d thread %d (lane %d): got %d, "
               "expected %d\n",
               block.x, block.y, block.z, k, gid, lane, out[gid * NR + k],
               want[k]);
  }
  cudaFree(dIn);
  cudaFree(dOut);
  delete[] h;
  delete[] out;
}

int main() {
  run(dim3(3), dim3(96));
  run(dim3(2), dim3(128));
  run(dim3(2), dim3(256));
  run(dim3(3), dim3(40));
  run(dim3(2), dim3(100));
  run(dim3(2), dim3(33));
  run(dim3(2, 2), dim3(16, 8));
  run(dim3(3), dim3(8, 5));
  run(dim3(2), dim3(4, 4, 4));
  run(dim3(2, 3), dim3(7, 3, 2));
  run(dim3(2), dim3(1024));
  run(dim3(3), dim3(1));
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

// Cooperative groups: cg::this_thread_block() in 1-D, 2-D and 3-D blocks
// and 2-D grids: thread_rank (the linear thread index), size/num_threads,
// group_index, thread_index, dim_threads, and block.sync() ordering an
// exchange through shared memory between warps; tiled_partition<32> and
// <16> of such blocks (ranks follow the linear index, so one warp spans
// two rows of a (16, 8) block), and a tile of a tile
// (tiled_partition<4>(tiled_partition<32>(block))) with its
// meta_group_rank relative to the parent tile.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define NR 16
#define MAXT 256

__global__ void blockApi(const int *in, int *out) {
  __shared__ int s[MAXT];
  cg::thread_block block = cg::this_thread_block();
  int rank = block.thread_rank();
  int blockId = blockIdx.x + gridDim.x * blockIdx.y;
  int gid = blockId * block.size() + rank;
  int v = in[gid];
  int *r = out + gid * NR;
  r[0] = rank;
  r[1] = block.size();
  r[2] = block.num_threads();
  dim3 gi = block.group_index(), ti = block.thread_index(), dt = block.dim_threads();
  r[3] = gi.x + 100 * gi.y + 10000 * gi.z;
  r[4] = ti.x + 100 * ti.y + 10000 * ti.z;
  r[5] = dt.x + 100 * dt.y + 10000 * dt.z;
  // block.sync(): read a thread of another warp.
  s[rank] = v;
  block.sync();
  r[6] = s[(rank + 37) % block.size()];
  block.sync();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
  r[7] = warp.thread_rank() + 100 * warp.meta_group_rank();
  r[8] = warp.shfl(v, 31);
  r[9] = half.thread_rank() + 100 * half.meta_group_rank();
  r[10] = half.shfl_down(v, 3);
  r[11] = (int)warp.ballot(v % 2 == 0);
  // A tile of the warp tile.
  cg::thread_block_tile<4, cg::thread_block_tile<32>> quad =
      cg::tiled_partition<4>(warp);
  r[12] = quad.thread_rank() + 100 * quad.meta_group_rank();
  r[13] = quad.meta_group_size();
  r[14] = quad.shfl_xor(v, 2);
  r[15] = (int)quad.ballot(v % 3 == 0);
}

static int errors = 0;

static void run(dim3 grid, dim3 blockDim) {
  int threads = blockDim.x * blockDim.y * blockDim.z;
  int blocks = grid.x * grid.y;
  int total = threads * blocks;
  int *h = new int[total], *out = new int[total * NR];
  for (int i = 0; i < total; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *dIn, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dOut, total * NR * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  blockApi<<<grid, blockDim>>>(dIn, dOut);
  cudaMemcpy(out, dOut, total * NR * sizeof(int), cudaMemcpyDeviceToHost);
  for (int gid = 0; gid < total; ++gid) {
    int b = gid / threads, t = gid % threads;
    int bx = b % grid.x, by = b / grid.x;
    int tx = t % blockDim.x, ty = t / blockDim.x % blockDim.y,
        tz = t / (blockDim.x * blockDim.y);
    const int *v = h + b * threads;
    int lane = t % 32, w0 = t - lane, q0 = t - t % 4;
    int want[NR];
    want[0] = t;
    want[1] = threads;
    want[2] = threads;
    want[3] = bx + 100 * by;
    want[4] = tx + 100 * ty + 10000 * tz;
    want[5] = blockDim.x + 100 * blockDim.y + 10000 * blockDim.z;
    want[6] = v[(t + 37) % threads];
    want[7] = lane + 100 * (t / 32);
    want[8] = v[w0 + 31];
    want[9] = t % 16 + 100 * (t / 16);
    want[10] = t % 16 + 3 < 16 ? v[t + 3] : v[t];
    unsigned bal = 0, qb = 0;
    for (int l = 0; l < 32; ++l)
      bal |= (unsigned)(v[w0 + l] % 2 == 0) << l;
    for (int l = 0; l < 4; ++l)
      qb |= (unsigned)(v[q0 + l] % 3 == 0) << l;
    want[11] = (int)bal;
    want[12] = t % 4 + 100 * (lane / 4);
    want[13] = 8;
    want[14] = v[q0 + ((t % 4) ^ 2)];
    want[15] = (int)qb;
    for (int k = 0; k < NR; ++k)
      if (out[gid * NR + k] != want[k] && ++errors <= 12)
        printf("block (%d,%d,%d) item %d thread %d: got %d, expected %d\n",
               blockDim.x, blockDim.y, blockDim.z, k, gid, out[gid * NR + k],
               want[k]);
  }
  cudaFree(dIn);
  cudaFree(dOut);
  delete[] h;
  delete[] out;
}

int main() {
  run(dim3(2), dim3(96));
  run(dim3(2, 3), dim3(16, 8));
  run(dim3(3, 1), dim3(8, 4, 2));
  run(dim3(1, 2), dim3(32, 8));
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

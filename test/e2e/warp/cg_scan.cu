// Cooperative groups scans (<cooperative_groups/scan.h>) over
// thread_block_tile<N> for N in {2, 4, 8, 16, 32}: cg::inclusive_scan and
// cg::exclusive_scan with the default cg::plus and with cg::greater<int>
// (a running maximum). The exclusive scan's result for rank 0 is not
// checked. Blocks of 64 threads, 2 blocks.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCKS 2
#define THREADS 64
#define N (BLOCKS * THREADS)

// One kernel per tile size: compile time grows faster than linearly with
// the number of warp primitives in a kernel.
template <unsigned Size> __global__ void scans(const int *in, int *out) {
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(cg::this_thread_block());
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  out[gid * 4 + 0] = cg::inclusive_scan(t, v);
  out[gid * 4 + 1] = cg::exclusive_scan(t, v);
  out[gid * 4 + 2] = cg::inclusive_scan(t, v, cg::greater<int>());
  out[gid * 4 + 3] = cg::exclusive_scan(t, v, cg::greater<int>());
}

static int h[N];
static int errors = 0;

template <unsigned Size> static void run(const int *dIn, int *dOut) {
  static int out[N * 4];
  cudaMemset(dOut, 0, sizeof out);
  scans<Size><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  const int size = Size;
  static const char *names[4] = {"inclusive plus", "exclusive plus",
                                 "inclusive greater", "exclusive greater"};
  for (int gid = 0; gid < N; ++gid) {
    int rank = gid % THREADS % size, first = gid - rank;
    int sum = 0, mx = h[first];
    for (int q = first; q < gid; ++q) {
      sum += h[q];
      mx = h[q] > mx ? h[q] : mx;
    }
    int want[4] = {sum + h[gid], sum, mx > h[gid] ? mx : h[gid], mx};
    for (int k = 0; k < 4; ++k) {
      if (rank == 0 && (k == 1 || k == 3))
        continue;
      if (out[gid * 4 + k] != want[k] && ++errors <= 12)
        printf("tile %d thread %d %s: got %d, expected %d\n", size, gid,
               names[k], out[gid * 4 + k], want[k]);
    }
  }
}

int main() {
  for (int i = 0; i < N; ++i)
    h[i] = (i * 7919 + 13) % 201 - 100;
  int *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, N * 4 * sizeof(int));
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  run<2>(dIn, dOut);
  run<4>(dIn, dOut);
  run<8>(dIn, dOut);
  run<16>(dIn, dOut);
  run<32>(dIn, dOut);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

// Cooperative groups: the votes and matches of thread_block_tile<N> for N in
// {2, 4, 8, 16, 32}: any, all, ballot (bit r for the thread of rank r in the
// tile), match_any (the ranks holding the same value) and match_all (all
// ranks and true if the tile agrees, else 0 and false), for 6 predicates
// and 5 ways to assign values, in 2-D blocks of (16, 8) threads, where a
// thread's rank is its linear index in the block. 2 blocks.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCKS 2
#define THREADS 128
#define N (BLOCKS * THREADS)
#define NPRED 6
#define NKEY 5
#define PER (NPRED * 3 + NKEY * 3)

__host__ __device__ int predicate(int p, int rank, int v) {
  switch (p) {
  case 0: return 1;
  case 1: return 0;
  case 2: return rank == 1;
  case 3: return v % 3 == 0;
  case 4: return v & 0x20; // 0 or 32
  default: return v >= 0;  // true in some tiles only
  }
}

__host__ __device__ int keyOf(int k, int rank, int v) {
  switch (k) {
  case 0: return 42;
  case 1: return rank % 2;
  case 2: return v % 3;
  case 3: return rank;
  default: return rank == 0 ? 1 : 0;
  }
}

// One kernel per tile size: compile time grows faster than linearly with
// the number of warp primitives in a kernel.
template <unsigned Size> __global__ void votes(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(block);
  int gid = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int v = in[gid];
  int *r = out + gid * PER;
  int rank = t.thread_rank();
#pragma unroll 1
  for (int p = 0; p < NPRED; ++p) {
    int pred = predicate(p, rank, v);
    r[p * 3 + 0] = t.any(pred);
    r[p * 3 + 1] = t.all(pred);
    r[p * 3 + 2] = (int)t.ballot(pred);
  }
#pragma unroll 1
  for (int k = 0; k < NKEY; ++k) {
    int key = keyOf(k, rank, v), agree = -1;
    int *q = r + NPRED * 3 + k * 3;
    q[0] = (int)t.match_any(key);
    q[1] = (int)t.match_all(key, agree);
    q[2] = agree;
  }
}

static int h[N];
static int errors = 0;

template <unsigned Size> static void run(int *dIn, int *dOut) {
  static int out[N * PER];
  cudaMemset(dOut, 0, sizeof out);
  votes<Size><<<BLOCKS, dim3(16, 8)>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  const int size = Size;
  const unsigned all = size == 32 ? 0xffffffffu : (1u << size) - 1;
  for (int gid = 0; gid < N; ++gid) {
    int rank = gid % THREADS % size, first = gid - rank;
    const int *r = out + gid * PER;
    for (int p = 0; p < NPRED; ++p) {
      unsigned b = 0;
      for (int q = 0; q < size; ++q)
        if (predicate(p, q, h[first + q]))
          b |= 1u << q;
      int want[3] = {b != 0, b == all, (int)b};
      for (int c = 0; c < 3; ++c) {
        int got = r[p * 3 + c];
        if (c < 2)
          got = got != 0;
        if (got != want[c] && ++errors <= 12)
          printf("tile %d thread %d %s predicate %d: got %#x, expected %#x\n",
                 size, gid, c == 0 ? "any" : c == 1 ? "all" : "ballot", p, got,
                 want[c]);
      }
    }
    for (int k = 0; k < NKEY; ++k) {
      unsigned same = 0;
      for (int q = 0; q < size; ++q)
        if (keyOf(k, q, h[first + q]) == keyOf(k, rank, h[gid]))
          same |= 1u << q;
      int want[3] = {(int)same, same == all ? (int)all : 0, same == all};
      for (int c = 0; c < 3; ++c) {
        int got = r[NPRED * 3 + k * 3 + c];
        if (c == 2)
          got = got != 0;
        if (got != want[c] && ++errors <= 12)
          printf("tile %d thread %d %s values %d: got %#x, expected %#x\n",
                 size, gid,
                 c == 0 ? "match_any" : c == 1 ? "match_all" : "match_all pred",
                 k, got, want[c]);
      }
    }
  }
}

int main() {
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101 - (i % 64 < 16 ? 0 : 30);
  int *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, N * PER * sizeof(int));
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  run<2>(dIn, dOut);
  run<4>(dIn, dOut);
  run<8>(dIn, dOut);
  run<16>(dIn, dOut);
  run<32>(dIn, dOut);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

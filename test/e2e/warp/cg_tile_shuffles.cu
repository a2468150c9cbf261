// Cooperative groups: thread_block_tile<N> from cg::tiled_partition<N> for
// N in {2, 4, 8, 16, 32}: thread_rank, num_threads/size, meta_group_rank,
// meta_group_size; shfl (every source rank), shfl_down and shfl_up (every
// delta below N: past the tile's ends a thread keeps its own value) and
// shfl_xor (every mask below N) of int values for every N, of doubles for
// N = 4 and 32, of a small struct for N = 8 and 16; and tile.sync()
// ordering an exchange through shared memory within the tile.
// Blocks of 128 threads, 2 blocks.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCKS 2
#define THREADS 128
#define N (BLOCKS * THREADS)
// Per thread: 6 ranks and sizes, the four shuffles for every operand
// k < Size, and the shared-memory exchange.
#define PER (6 + 32 * 4 + 1)

struct Pair {
  int a;
  float b;
  bool operator!=(const Pair &o) const { return a != o.a || b != o.b; }
};

__host__ __device__ int asInt(int v) { return v; }
__host__ __device__ double asDouble(int v) { return v * 0.5 + 1.0 / 1024; }
__host__ __device__ Pair asPair(int v) { return Pair{v * 3, v * 0.25f}; }
template <typename T> __host__ __device__ T make(int v);
template <> __host__ __device__ int make<int>(int v) { return asInt(v); }
template <> __host__ __device__ double make<double>(int v) { return asDouble(v); }
template <> __host__ __device__ Pair make<Pair>(int v) { return asPair(v); }

// One kernel per tile size and type: compile time grows faster than
// linearly with the number of warp primitives in a kernel.
template <unsigned Size, typename T>
__global__ void tile(const int *in, T *out, int *ranks) {
  __shared__ T s[THREADS];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T v = make<T>(in[gid]);
  T *r = out + gid * PER;
  int *rk = ranks + gid * 6;
  rk[0] = t.thread_rank();
  rk[1] = t.num_threads();
  rk[2] = t.size();
  rk[3] = t.meta_group_rank();
  rk[4] = t.meta_group_size();
  rk[5] = block.thread_rank();
  // Not unrolled: compile time grows with the number of primitives.
#pragma unroll 1
  for (unsigned k = 0; k < Size; ++k) {
    r[6 + k * 4 + 0] = t.shfl(v, k);
    r[6 + k * 4 + 1] = t.shfl_down(v, k);
    r[6 + k * 4 + 2] = t.shfl_up(v, k);
    r[6 + k * 4 + 3] = t.shfl_xor(v, k);
  }
  // Write, tile.sync(), read the next thread of the tile.
  int i = block.thread_rank();
  s[i] = v;
  t.sync();
  r[6 + 32 * 4] = s[i - t.thread_rank() + (t.thread_rank() + 1) % Size];
}

static int h[N];
static int errors = 0;

template <unsigned Size, typename T> static void run(const char *type, int *dIn) {
  static T out[N * PER];
  static int ranks[N * 6];
  T *dOut;
  int *dRanks;
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dRanks, sizeof ranks);
  tile<Size, T><<<BLOCKS, THREADS>>>(dIn, dOut, dRanks);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(ranks, dRanks, sizeof ranks, cudaMemcpyDeviceToHost);
  cudaFree(dOut);
  cudaFree(dRanks);
  static const char *names[4] = {"shfl", "shfl_down", "shfl_up", "shfl_xor"};
  const int size = Size;
  for (int gid = 0; gid < N; ++gid) {
    int t = gid % THREADS, rank = t % size, first = gid - rank;
    const int *rk = ranks + gid * 6;
    int want[6] = {rank, size, size, t / size, (THREADS + size - 1) / size, t};
    for (int k = 0; k < 6; ++k)
      if (rk[k] != want[k] && ++errors <= 12)
        printf("tile %d thread %d rank item %d: got %d, expected %d\n", size,
               gid, k, rk[k], want[k]);
    const T *r = out + gid * PER;
    for (int k = 0; k < size; ++k) {
      int src[4] = {k, rank + k < size ? rank + k : rank,
                    rank - k >= 0 ? rank - k : rank, rank ^ k};
      for (int j = 0; j < 4; ++j)
        if (r[6 + k * 4 + j] != make<T>(h[first + src[j]]) && ++errors <= 12)
          printf("tile %d thread %d %s %s(%d): wrong value (source rank %d)\n",
                 size, gid, type, names[j], k, src[j]);
    }
    if (r[6 + 32 * 4] != make<T>(h[first + (rank + 1) % size]) && ++errors <= 12)
      printf("tile %d thread %d %s sync exchange: wrong value\n", size, gid,
             type);
  }
}

int main() {
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 1001 - 500;
  int *dIn;
  cudaMalloc(&dIn, sizeof h);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  run<2, int>("int", dIn);
  run<4, int>("int", dIn);
  run<8, int>("int", dIn);
  run<16, int>("int", dIn);
  run<32, int>("int", dIn);
  run<4, double>("double", dIn);
  run<32, double>("double", dIn);
  run<8, Pair>("struct", dIn);
  run<16, Pair>("struct", dIn);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

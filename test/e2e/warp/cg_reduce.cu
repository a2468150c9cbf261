// Cooperative groups reductions (<cooperative_groups/reduce.h>) over
// thread_block_tile<N> for N in {2, 4, 8, 16, 32}: cg::reduce with
// cg::plus<int>, cg::less<int> (minimum), cg::greater<int> (maximum),
// cg::plus<unsigned> (wrapping), cg::less/greater<unsigned> (unsigned
// order) and cg::bit_and/bit_or/bit_xor<unsigned> for N = 4 and 32, and
// cg::plus<double> on values whose sums are exact for N = 8 and 32. Every
// thread of the tile gets the result.
// Blocks of 96 threads, 2 blocks.
// CUDA 13's cooperative_groups.h needs the CCCL include directory.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <climits>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define BLOCKS 2
#define THREADS 96
#define N (BLOCKS * THREADS)

// A few kernels per tile size: compile time grows faster than linearly
// with the number of warp primitives in a kernel.
template <unsigned Size> __global__ void reduceInt(const int *in, int *out) {
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(cg::this_thread_block());
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gid];
  out[gid * 3 + 0] = cg::reduce(t, v, cg::plus<int>());
  out[gid * 3 + 1] = cg::reduce(t, v, cg::less<int>());
  out[gid * 3 + 2] = cg::reduce(t, v, cg::greater<int>());
}

template <unsigned Size>
__global__ void reduceUnsigned(const unsigned *in, unsigned *out) {
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(cg::this_thread_block());
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned u = in[gid];
  out[gid * 6 + 0] = cg::reduce(t, u, cg::plus<unsigned>());
  out[gid * 6 + 1] = cg::reduce(t, u, cg::less<unsigned>());
  out[gid * 6 + 2] = cg::reduce(t, u, cg::greater<unsigned>());
  out[gid * 6 + 3] = cg::reduce(t, u, cg::bit_and<unsigned>());
  out[gid * 6 + 4] = cg::reduce(t, u, cg::bit_or<unsigned>());
  out[gid * 6 + 5] = cg::reduce(t, u, cg::bit_xor<unsigned>());
}

template <unsigned Size>
__global__ void reduceDouble(const double *in, double *out) {
  cg::thread_block_tile<Size> t = cg::tiled_partition<Size>(cg::this_thread_block());
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = cg::reduce(t, in[gid], cg::plus<double>());
}

static int h[N];
static unsigned uh[N];
static double dh[N];
static int errors = 0;

template <typename T> static T add(T a, T b) { return a + b; }
template <typename T> static T mn(T a, T b) { return a < b ? a : b; }
template <typename T> static T mx(T a, T b) { return a > b ? a : b; }
static unsigned band(unsigned a, unsigned b) { return a & b; }
static unsigned bor(unsigned a, unsigned b) { return a | b; }
static unsigned bxor(unsigned a, unsigned b) { return a ^ b; }

// Checks result k of `per` per thread against the host's reduction.
template <typename T>
static void check(int size, const char *name, const T *in, const T *out,
                  int per, int k, T (*combine)(T, T)) {
  for (int gid = 0; gid < N; ++gid) {
    int first = gid - gid % THREADS % size;
    T want = in[first];
    for (int q = first + 1; q < first + size; ++q)
      want = combine(want, in[q]);
    T got = out[gid * per + k];
    if (got != want && ++errors <= 12)
      printf("tile %d thread %d reduce %s: got %.17g, expected %.17g\n", size,
             gid, name, (double)got, (double)want);
  }
}

template <typename T> static T *toDevice(const T *h) {
  T *d;
  cudaMalloc(&d, N * sizeof(T));
  cudaMemcpy(d, h, N * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <unsigned Size> static void runInt(const int *dIn) {
  static int out[N * 3];
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  reduceInt<Size><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(dOut);
  check<int>(Size, "plus<int>", h, out, 3, 0, add<int>);
  check<int>(Size, "less<int>", h, out, 3, 1, mn<int>);
  check<int>(Size, "greater<int>", h, out, 3, 2, mx<int>);
}

template <unsigned Size> static void runUnsigned(const unsigned *dIn) {
  static unsigned out[N * 6];
  unsigned *dOut;
  cudaMalloc(&dOut, sizeof out);
  reduceUnsigned<Size><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(dOut);
  check<unsigned>(Size, "plus<unsigned>", uh, out, 6, 0, add<unsigned>);
  check<unsigned>(Size, "less<unsigned>", uh, out, 6, 1, mn<unsigned>);
  check<unsigned>(Size, "greater<unsigned>", uh, out, 6, 2, mx<unsigned>);
  check<unsigned>(Size, "bit_and", uh, out, 6, 3, band);
  check<unsigned>(Size, "bit_or", uh, out, 6, 4, bor);
  check<unsigned>(Size, "bit_xor", uh, out, 6, 5, bxor);
}

template <unsigned Size> static void runDouble(const double *dIn) {
  static double out[N];
  double *dOut;
  cudaMalloc(&dOut, sizeof out);
  reduceDouble<Size><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(dOut);
  check<double>(Size, "plus<double>", dh, out, 1, 0, add<double>);
}

int main() {
  for (int i = 0; i < N; ++i) {
    h[i] = (i * 7919 + 13) % 2001 - 1000;
    unsigned z = (unsigned)i * 2654435761u + 99u;
    uh[i] = (z ^ (z >> 11)) | (i % 5 == 0 ? 0x80000000u : 0u);
    dh[i] = h[i] * 0.25; // exact sums in any order
  }
  int *dIn = toDevice(h);
  unsigned *dU = toDevice(uh);
  double *dD = toDevice(dh);
  runInt<2>(dIn);
  runInt<4>(dIn);
  runInt<8>(dIn);
  runInt<16>(dIn);
  runInt<32>(dIn);
  // Tiles below 16 reduce with shuffles, 16 and 32 with redux.sync.
  runUnsigned<4>(dU);
  runUnsigned<32>(dU);
  runDouble<8>(dD);
  runDouble<32>(dD);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

// Bounds checks inside loops each thread runs, which respec tests once per
// block where they hold for all threads and iterations
// (respec-version-bounds-checks): a per-block histogram over rounds of
// 256 pixels with a `size_t` guard (lengths that end inside a block, at a
// block's end, and shorter than one block), the same with a 32-bit index
// whose arithmetic wraps around for some threads (the guard then fails for
// elements past 2^32 and the loop as written must run), a guard with `<=`
// and a signed index that starts negative, and a guard on a `for` loop
// counter read after the loop. The host checks every element.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=bounds-checks %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O1 --coarsen=block=2,thread=2 %s -o %t.c && %t.c | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

static int failures = 0;

static void expectEqual(const char *what, long long got, long long want,
                        int index) {
  if (got != want && failures++ < 10)
    fprintf(stderr, "%s[%d]: got %lld, want %lld\n", what, index, got, want);
}

#define BLOCK 256
#define ROUNDS 8
#define BINS 64

__global__ void histogram(const unsigned char *pixels, size_t n,
                          unsigned *partial) {
  __shared__ unsigned bins[BINS];
  if (threadIdx.x < BINS)
    bins[threadIdx.x] = 0;
  __syncthreads();
  size_t base = (size_t)blockIdx.x * BLOCK * ROUNDS;
  for (int r = 0; r < ROUNDS; ++r) {
    size_t i = base + (size_t)r * BLOCK + threadIdx.x;
    if (i < n)
      atomicAdd(&bins[pixels[i] % BINS], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS)
    partial[blockIdx.x * BINS + threadIdx.x] = bins[threadIdx.x];
}

static void checkHistogram(size_t n) {
  std::vector<unsigned char> pixels(n);
  for (size_t i = 0; i < n; ++i)
    pixels[i] = (unsigned char)(i * 2654435761u >> 13);
  int blocks = (int)((n + BLOCK * ROUNDS - 1) / (BLOCK * ROUNDS));
  if (blocks == 0)
    blocks = 1;
  std::vector<unsigned> partial(blocks * BINS, 12345);
  unsigned char *dPixels;
  unsigned *dPartial;
  CUDA_CHECK(cudaMalloc(&dPixels, n ? n : 1));
  CUDA_CHECK(cudaMalloc(&dPartial, partial.size() * sizeof(unsigned)));
  CUDA_CHECK(cudaMemcpy(dPixels, pixels.data(), n, cudaMemcpyHostToDevice));
  histogram<<<blocks, BLOCK>>>(dPixels, n, dPartial);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(partial.data(), dPartial,
                        partial.size() * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  std::vector<unsigned> want(blocks * BINS, 0);
  for (size_t i = 0; i < n; ++i)
    want[(i / (BLOCK * ROUNDS)) * BINS + pixels[i] % BINS]++;
  for (int k = 0; k < blocks * BINS; ++k)
    expectEqual("histogram", partial[k], want[k], k);
  CUDA_CHECK(cudaFree(dPixels));
  CUDA_CHECK(cudaFree(dPartial));
}

// A 32-bit unsigned index that wraps past 2^32 for the blocks near the end
// of the index space: the wrapped indices are small and pass the guard.
__global__ void wrapping(unsigned *out, unsigned offset, unsigned n) {
  for (int r = 0; r < ROUNDS; ++r) {
    unsigned i = offset + blockIdx.x * (BLOCK * ROUNDS) + r * BLOCK +
                 threadIdx.x;
    if (i < n)
      atomicAdd(&out[i], 1u + blockIdx.x);
  }
}

static void checkWrapping(unsigned offset, unsigned n, int blocks) {
  std::vector<unsigned> out(n, 0), want(n, 0);
  unsigned *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(dOut, 0, n * sizeof(unsigned)));
  wrapping<<<blocks, BLOCK>>>(dOut, offset, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int r = 0; r < ROUNDS; ++r)
      for (int t = 0; t < BLOCK; ++t) {
        unsigned i = offset + (unsigned)b * (BLOCK * ROUNDS) + r * BLOCK + t;
        if (i < n)
          want[i] += 1u + b;
      }
  for (unsigned k = 0; k < n; ++k)
    expectEqual("wrapping", out[k], want[k], (int)k);
  CUDA_CHECK(cudaFree(dOut));
}

// Signed indices from a negative start, an inclusive bound, and the
// counter of a `for` loop read after it.
__global__ void window(const int *in, int *out, int start, int last) {
  int t = threadIdx.x;
  int sum = 0, r = 0;
  for (r = 0; r < ROUNDS; ++r) {
    int i = start + (int)blockIdx.x * BLOCK * ROUNDS + r * BLOCK + t;
    if (i >= 0 && i <= last)
      sum += in[i];
  }
  out[blockIdx.x * BLOCK + t] = sum * 16 + r;
}

static void checkWindow(int start, int last, int blocks) {
  std::vector<int> in(last + 1), out(blocks * BLOCK, -1);
  for (int i = 0; i <= last; ++i)
    in[i] = i % 13 - 6;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  window<<<blocks, BLOCK>>>(dIn, dOut, start, last);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < BLOCK; ++t) {
      int sum = 0;
      for (int r = 0; r < ROUNDS; ++r) {
        int i = start + b * BLOCK * ROUNDS + r * BLOCK + t;
        if (i >= 0 && i <= last)
          sum += in[i];
      }
      expectEqual("window", out[b * BLOCK + t], sum * 16 + ROUNDS,
                  b * BLOCK + t);
    }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

int main() {
  checkHistogram(1);
  checkHistogram(BLOCK * ROUNDS);
  checkHistogram(BLOCK * ROUNDS * 5);
  checkHistogram(BLOCK * ROUNDS * 7 + 1000);
  checkHistogram(100003);
  checkWrapping(0xFFFFFFFFu - 3 * BLOCK * ROUNDS + 100, 5000, 6);
  checkWrapping(0, 5000, 3);
  checkWindow(-3000, 20000, 12);
  checkWindow(0, 2 * BLOCK * ROUNDS - 1, 2);
  checkWindow(-1, 500, 4);
  if (failures) {
    printf("FAILED (%d)\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Thread-strided loops, which respec runs around a counter all threads
// share (respec-uniformize-strided-loops) and then, where all threads run
// the same rounds, interchanges with the thread loop: a block-strided dot
// product per block with a tree reduction (lengths below, at and above the
// block size, not multiples of it, and zero), the counter's final value
// used after the loop, a start offset, an inclusive bound, a do-while loop
// whose first iteration runs even past the bound, 64-bit and 32-bit
// grid-stride loops launched with few blocks, a 32-bit counter near
// INT_MAX (respec's run-time test sends it to the loop as written), and an
// unsigned 32-bit counter. Block sizes are constants at the launch site or only known at
// run time. The host checks every element.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=strided-loops %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O2 --disable-opt=loop-interchange %s -o %t.nox && %t.nox | FileCheck %s
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

// One dot product of rows a[row] and b[row] per block; each thread's final
// counter goes to last[row * blockDim.x + t].
__global__ void rowDots(const int *a, const int *b, int n, long long *dots,
                        int *last) {
  extern __shared__ long long part[];
  int t = threadIdx.x, row = blockIdx.x;
  const int *ar = a + (size_t)row * n, *br = b + (size_t)row * n;
  long long acc = 0;
  int i;
  for (i = t; i < n; i += blockDim.x)
    acc += (long long)ar[i] * br[i];
  last[row * blockDim.x + t] = i;
  part[t] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      part[t] += part[t + stride];
    __syncthreads();
  }
  if (t == 0)
    dots[row] = part[0];
}

// The same with a constant stride, a start offset of 3 and `<=`.
__global__ void offsetInclusive(const int *a, int last, int *sums) {
  int t = threadIdx.x;
  int acc = 0;
  for (int i = t + 3; i <= last; i += 128)
    acc = acc * 3 + a[i];
  sums[blockIdx.x * 128 + t] = acc;
}

// A do-while loop: the first iteration runs for every thread.
__global__ void doWhile(int *marks, int n) {
  int t = threadIdx.x;
  int i = t;
  do {
    marks[i] += i + 1;
    i += 64;
  } while (i < n);
}

// A 64-bit grid-stride loop.
__global__ void gridStride(size_t n, int a, const int *x, int *y) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// A 32-bit grid-stride loop (the step in unsigned arithmetic).
__global__ void gridStride32(int n, int a, const int *x, int *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// A 32-bit counter near INT_MAX: respec's run-time test fails (the largest
// start plus a step would not fit) and the loop runs as written; the
// program's own arithmetic does not overflow.
__global__ void nearIntMax(int base, int n, int *out) {
  for (int i = base + (int)threadIdx.x; i < n; i += blockDim.x)
    out[i - base] += 1 + (i & 7);
}

// An unsigned 32-bit counter.
__global__ void unsignedStride(unsigned n, int *y) {
  for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
    y[i] += 2 * i;
}

static void checkRowDots(int n, int block, bool constantBlock) {
  const int rows = 5;
  std::vector<int> a((size_t)rows * n + 1), b((size_t)rows * n + 1);
  for (size_t k = 0; k < a.size(); ++k) {
    a[k] = (int)(k * 7 % 23) - 11;
    b[k] = (int)(k * 13 % 17) - 8;
  }
  int *dA, *dB, *dLast;
  long long *dDots;
  CUDA_CHECK(cudaMalloc(&dA, a.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dB, b.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dDots, rows * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&dLast, rows * block * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dA, a.data(), a.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, b.data(), b.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  size_t shared = block * sizeof(long long);
  if (constantBlock)
    rowDots<<<rows, 256, 256 * sizeof(long long)>>>(dA, dB, n, dDots, dLast);
  else
    rowDots<<<rows, block, shared>>>(dA, dB, n, dDots, dLast);
  CUDA_CHECK(cudaGetLastError());
  std::vector<long long> dots(rows);
  std::vector<int> last(rows * block);
  CUDA_CHECK(cudaMemcpy(dots.data(), dDots, rows * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(last.data(), dLast, rows * block * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int row = 0; row < rows; ++row) {
    long long want = 0;
    for (int i = 0; i < n; ++i)
      want += (long long)a[(size_t)row * n + i] * b[(size_t)row * n + i];
    expectEqual("rowDots", dots[row], want, row * 100000 + n);
    for (int t = 0; t < block; ++t) {
      int i = t;
      while (i < n)
        i += block;
      expectEqual("last", last[row * block + t], i, t);
    }
  }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  CUDA_CHECK(cudaFree(dDots));
  CUDA_CHECK(cudaFree(dLast));
}

static void checkOffsetInclusive(int last) {
  const int blocks = 2, size = 1200;
  std::vector<int> a(size);
  for (int k = 0; k < size; ++k)
    a[k] = k % 11 - 5;
  int *dA, *dSums;
  CUDA_CHECK(cudaMalloc(&dA, size * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dSums, blocks * 128 * sizeof(int)));
  CUDA_CHECK(
      cudaMemcpy(dA, a.data(), size * sizeof(int), cudaMemcpyHostToDevice));
  offsetInclusive<<<blocks, 128>>>(dA, last, dSums);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> sums(blocks * 128);
  CUDA_CHECK(cudaMemcpy(sums.data(), dSums, sums.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int blk = 0; blk < blocks; ++blk)
    for (int t = 0; t < 128; ++t) {
      int acc = 0;
      for (int i = t + 3; i <= last; i += 128)
        acc = acc * 3 + a[i];
      expectEqual("offsetInclusive", sums[blk * 128 + t], acc, t);
    }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dSums));
}

static void checkDoWhile(int n) {
  const int size = 64 + 1000;
  int *dMarks;
  CUDA_CHECK(cudaMalloc(&dMarks, size * sizeof(int)));
  CUDA_CHECK(cudaMemset(dMarks, 0, size * sizeof(int)));
  doWhile<<<1, 64>>>(dMarks, n);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> marks(size);
  CUDA_CHECK(cudaMemcpy(marks.data(), dMarks, size * sizeof(int),
                        cudaMemcpyDeviceToHost));
  std::vector<int> want(size, 0);
  for (int t = 0; t < 64; ++t) {
    int i = t;
    do {
      want[i] += i + 1;
      i += 64;
    } while (i < n);
  }
  for (int k = 0; k < size; ++k)
    expectEqual("doWhile", marks[k], want[k], k);
  CUDA_CHECK(cudaFree(dMarks));
}

static void checkGridStride(size_t n, int blocks, int block) {
  std::vector<int> x(n), y(n);
  for (size_t k = 0; k < n; ++k) {
    x[k] = (int)(k % 9);
    y[k] = (int)(k % 5);
  }
  int *dX, *dY;
  CUDA_CHECK(cudaMalloc(&dX, n * sizeof(int) + 4));
  CUDA_CHECK(cudaMalloc(&dY, n * sizeof(int) + 4));
  CUDA_CHECK(
      cudaMemcpy(dX, x.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(
      cudaMemcpy(dY, y.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  if (block == 256)
    gridStride<<<blocks, 256>>>(n, 3, dX, dY);
  else
    gridStride<<<blocks, block>>>(n, 3, dX, dY);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CUDA_CHECK(
      cudaMemcpy(out.data(), dY, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (size_t k = 0; k < n; ++k)
    expectEqual("gridStride", out[k], 3 * x[k] + y[k], (int)k);
  CUDA_CHECK(cudaFree(dX));
  CUDA_CHECK(cudaFree(dY));
}

static void checkGridStride32(int n, int blocks) {
  std::vector<int> x(n + 1), y(n + 1);
  for (int k = 0; k <= n; ++k) {
    x[k] = k % 13;
    y[k] = k % 3;
  }
  int *dX, *dY;
  CUDA_CHECK(cudaMalloc(&dX, (n + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dY, (n + 1) * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dX, x.data(), (n + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dY, y.data(), (n + 1) * sizeof(int),
                        cudaMemcpyHostToDevice));
  gridStride32<<<blocks, 256>>>(n, 5, dX, dY);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> out(n + 1);
  CUDA_CHECK(cudaMemcpy(out.data(), dY, (n + 1) * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int k = 0; k <= n; ++k)
    expectEqual("gridStride32", out[k], k < n ? 5 * x[k] + y[k] : y[k], k);
  CUDA_CHECK(cudaFree(dX));
  CUDA_CHECK(cudaFree(dY));
}

static void checkNearIntMax() {
  const int base = 2147483647 - 300, n = 2147483647 - 100, size = 256;
  int *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, size * sizeof(int)));
  CUDA_CHECK(cudaMemset(dOut, 0, size * sizeof(int)));
  nearIntMax<<<1, 64>>>(base, n, dOut);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> out(size);
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, size * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int k = 0; k < size; ++k) {
    int i = base + k;
    expectEqual("nearIntMax", out[k], k < n - base ? 1 + (i & 7) : 0, k);
  }
  CUDA_CHECK(cudaFree(dOut));
}

static void checkUnsigned(unsigned n) {
  int *dY;
  CUDA_CHECK(cudaMalloc(&dY, (n + 1) * sizeof(int)));
  CUDA_CHECK(cudaMemset(dY, 0, (n + 1) * sizeof(int)));
  unsignedStride<<<1, 96>>>(n, dY);
  CUDA_CHECK(cudaGetLastError());
  std::vector<int> y(n + 1);
  CUDA_CHECK(cudaMemcpy(y.data(), dY, (n + 1) * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (unsigned k = 0; k <= n; ++k)
    expectEqual("unsignedStride", y[k], k < n ? 2 * (int)k : 0, (int)k);
  CUDA_CHECK(cudaFree(dY));
}

int main() {
  int lengths[] = {0, 1, 100, 255, 256, 257, 2048, 3001};
  for (int n : lengths) {
    checkRowDots(n, 256, /*constantBlock=*/true);
    checkRowDots(n, 128, /*constantBlock=*/false);
  }
  for (int last : {0, 2, 3, 130, 131, 1000, 1199})
    checkOffsetInclusive(last);
  for (int n : {0, 1, 63, 64, 65, 1000})
    checkDoWhile(n);
  checkGridStride(100003, 3, 256);
  checkGridStride(5000, 2, 100);
  checkGridStride(10, 4, 256);
  for (unsigned n : {0u, 95u, 96u, 97u, 1000u})
    checkUnsigned(n);
  checkGridStride32(100003, 3);
  checkGridStride32(700, 8);
  checkGridStride32(0, 2);
  checkNearIntMax();
  CUDA_CHECK(cudaDeviceSynchronize());
  if (failures) {
    printf("FAILED (%d)\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Grid-stride loops with grids much smaller than the data (including a
// single block of a single thread), in 1-D and in 2-D (rows strided by
// gridDim.y * blockDim.y).
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O3 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O3 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

__global__ void polyEval(const int *x, int *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int v = x[i];
    y[i] = ((3 * v - 7) * v + 11) * v - 2;
  }
}

__global__ void addRows(int *m, int rows, int cols) {
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows;
       r += blockDim.y * gridDim.y)
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols;
         c += blockDim.x * gridDim.x)
      m[r * cols + c] += r - c;
}

int main() {
  const int n = 500001;
  int *hx = (int *)malloc(n * sizeof(int));
  int *hy = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    hx[i] = i % 1291 - 600;
  int *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dx, hx, n * sizeof(int), cudaMemcpyHostToDevice));

  const int configs[][2] = {{1, 1}, {3, 100}, {64, 256}, {7, 1000}};
  for (const auto &cfg : configs) {
    CUDA_CHECK(cudaMemset(dy, 0, n * sizeof(int)));
    polyEval<<<cfg[0], cfg[1]>>>(dx, dy, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hy, dy, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int v = hx[i];
      int e = ((3 * v - 7) * v + 11) * v - 2;
      if (hy[i] != e) {
        printf("<<<%d,%d>>> mismatch at %d: got %d, expected %d\n", cfg[0],
               cfg[1], i, hy[i], e);
        printf("FAILED\n");
        return 1;
      }
    }
  }

  const int rows = 301, cols = 799;
  int *dm;
  int *hm = (int *)malloc(rows * cols * sizeof(int));
  CUDA_CHECK(cudaMalloc(&dm, rows * cols * sizeof(int)));
  CUDA_CHECK(cudaMemset(dm, 0, rows * cols * sizeof(int)));
  addRows<<<dim3(5, 3), dim3(32, 4)>>>(dm, rows, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hm, dm, rows * cols * sizeof(int), cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (hm[r * cols + c] != r - c) {
        printf("2-D stride mismatch at (%d,%d): got %d, expected %d\n", r, c,
               hm[r * cols + c], r - c);
        printf("FAILED\n");
        return 1;
      }
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaFree(dm));
  free(hx);
  free(hy);
  free(hm);
  printf("PASSED\n");
  return 0;
}

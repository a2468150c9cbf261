// The same kernels launched with block sizes that are constants at the
// launch site (specialized copies), with a size only known at run time (the
// generic body), with more constant sizes than get copies, and through
// cudaLaunchKernel, and with a size chosen between a constant and a value
// read at run time (`argc > 2 ? atoi(argv[2]) : 128`: the constant gets a
// copy, other values run the generic body). Each kernel uses blockDim in its index arithmetic and in
// a shared-memory tile with barriers, so a copy that kept the wrong size
// would write the wrong elements. The host checks every element.
// RUN: %respec -O2 -v %s -o %t 2> %t.log && %t | FileCheck %s
// RUN: %respec --disable-opt=loop-interchange -O2 -v %s -o %t.noxchg 2> %t.noxchg.log && %t.noxchg | FileCheck %s
// RUN: FileCheck %s --check-prefix=SIZES < %t.log
// RUN: %t x 50 | FileCheck %s
// RUN: %respec -O0 %s -o %t.o0 && %t.o0 | FileCheck %s
// RUN: %respec --disable-opt=block-size-spec -v %s -o %t.off 2> %t.off.log && %t.off | FileCheck %s
// RUN: FileCheck %s --check-prefix=OFF < %t.off.log
// RUN: %respec --coarsen=block=2,thread=2 -O1 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// CHECK: PASSED
// SIZES-DAG: respec: launch block size _Z7reversePKiPii=64x1x1
// SIZES-DAG: respec: launch block size _Z7reversePKiPii=96x1x1
// SIZES-DAG: respec: launch block size _Z7reversePKiPii=7x1x1
// SIZES-DAG: respec: launch block size _Z7double_Pii=128x1x1
// SIZES-DAG: respec: launch block size _Z9transposePKiPiii=16x8x1
// SIZES-DAG: respec: launch block size _Z9transposePKiPiii=32x4x1
// OFF-NOT: launch block size

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
  }                                                                           \
  while (0)

// Each block reverses its chunk of blockDim.x elements through shared memory
// (a partial last chunk reverses its valid part).
__global__ void reverse(const int *in, int *out, int n) {
  extern __shared__ int chunk[];
  int base = blockIdx.x * blockDim.x;
  int valid = min((int)blockDim.x, n - base);
  if (threadIdx.x < valid)
    chunk[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < valid)
    out[base + threadIdx.x] = chunk[valid - 1 - threadIdx.x];
}

// Transposes a rows x cols matrix with a blockDim.x x blockDim.x tile that
// blockDim.y threads per column fill in blockDim.x / blockDim.y passes.
__global__ void transpose(const int *in, int *out, int rows, int cols) {
  __shared__ int tile[32][33];
  int t = blockDim.x;
  int x = blockIdx.x * t + threadIdx.x;
  for (int j = threadIdx.y; j < t; j += blockDim.y) {
    int y = blockIdx.y * t + j;
    if (x < cols && y < rows)
      tile[j][threadIdx.x] = in[y * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * t + threadIdx.x;
  for (int j = threadIdx.y; j < t; j += blockDim.y) {
    int y = blockIdx.x * t + j;
    if (x < rows && y < cols)
      out[y * rows + x] = tile[threadIdx.x][j];
  }
}

static int failures = 0;

static void checkReverse(const char *what, int n, int block) {
  std::vector<int> host(n), result(n, -1);
  for (int i = 0; i < n; ++i)
    host[i] = i * 7 + 3;
  int *in, *out;
  CUDA_CHECK(cudaMalloc(&in, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  int blocks = (n + block - 1) / block;
  size_t shared = block * sizeof(int);
  switch (block) {
  case 64:
    reverse<<<blocks, 64, shared>>>(in, out, n);
    break;
  case 96:
    reverse<<<blocks, 96, shared>>>(in, out, n);
    break;
  case 7:
    reverse<<<blocks, 7, shared>>>(in, out, n);
    break;
  default:
    reverse<<<blocks, block, shared>>>(in, out, n);
    break;
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(result.data(), out, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int base = i / block * block;
    int valid = n - base < block ? n - base : block;
    int expected = host[base + valid - 1 - (i - base)];
    if (result[i] != expected) {
      if (++failures < 10)
        printf("%s (block %d): out[%d] = %d, expected %d\n", what, block, i,
               result[i], expected);
    }
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

static void checkTranspose(const char *what, dim3 block, bool viaAPI) {
  const int rows = 45, cols = 77;
  std::vector<int> host(rows * cols), result(rows * cols, -1);
  for (int i = 0; i < rows * cols; ++i)
    host[i] = i * 3 + 1;
  int *in, *out;
  CUDA_CHECK(cudaMalloc(&in, host.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, host.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(in, host.data(), host.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  int t = block.x;
  dim3 grid((cols + t - 1) / t, (rows + t - 1) / t);
  if (viaAPI) {
    int r = rows, c = cols;
    void *args[] = {&in, &out, &r, &c};
    CUDA_CHECK(cudaLaunchKernel((const void *)transpose, grid, dim3(32, 4),
                                args, 0, 0));
  } else if (block.x == 16 && block.y == 8) {
    transpose<<<grid, dim3(16, 8)>>>(in, out, rows, cols);
  } else {
    transpose<<<grid, block>>>(in, out, rows, cols);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(result.data(), out, host.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int y = 0; y < cols; ++y)
    for (int x = 0; x < rows; ++x)
      if (result[y * rows + x] != host[x * cols + y]) {
        if (++failures < 10)
          printf("%s: out[%d][%d] = %d, expected %d\n", what, y, x,
                 result[y * rows + x], host[x * cols + y]);
      }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

// A grid-stride loop.
__global__ void double_(int *values, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    values[i] *= 2;
}

int main(int argc, char **argv) {
  // A block size the compiler cannot see: the generic launch body.
  int runtimeBlock = 40 + argc;   // 41
  int runtimeTile = 8 * argc;     // 8
  checkReverse("constant 64", 1000, 64);
  checkReverse("constant 96", 1000, 96);
  checkReverse("constant 7 (beyond the copies)", 100, 7);
  checkReverse("run-time size", 1000, runtimeBlock);
  int chosenBlock = argc > 2 ? atoi(argv[2]) : 128;
  {
    const int n = 5000;
    int *values;
    CUDA_CHECK(cudaMallocManaged(&values, n * sizeof(int)));
    for (int i = 0; i < n; ++i)
      values[i] = i;
    double_<<<3, chosenBlock>>>(values, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i)
      if (values[i] != 2 * i && failures++ < 10)
        printf("chosen size: element %d is %d\n", i, values[i]);
    CUDA_CHECK(cudaFree(values));
  }
  checkTranspose("constant 16x8", dim3(16, 8), false);
  checkTranspose("cudaLaunchKernel 32x4", dim3(32, 4), true);
  checkTranspose("run-time size", dim3(runtimeTile, 2), false);
  if (failures) {
    printf("FAILED: %d wrong elements\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

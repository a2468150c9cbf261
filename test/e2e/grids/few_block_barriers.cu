// Grids of fewer blocks than cores whose kernels synchronize with
// __syncthreads(): each block runs as slices of its threads on several
// cores, which share the block's shared memory and meet where the kernel's
// barriers are (respec-parallelize-few-block-grids), when the threads have
// work between barriers (here a loop of `reps` steps, `mix`). Covered: a
// one-block
// reduction with a block-stride loop (also with fewer elements than
// threads, where the vector loops of index-set splits start between slice
// bounds), a scan with a barrier in a loop, a tiled matrix-vector product
// of two blocks (a loop over tiles with two barriers each), dynamic shared
// memory with a block that is not a multiple of 64 threads, a branch on a
// kernel argument around barriers, a 2-D block, and a value that the
// block's last thread publishes to all. Each runs with 1, 2, 3 and 8
// OpenMP threads (8: two blocks of four slices), with 4 asked for but 2
// given (KMP_DEVICE_THREAD_LIMIT: each block then runs whole), with the
// optimization off, and coarsened. The host checks every element exactly.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -O2 --keep %s -o %t.dir/prog
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.dir/few_block_barriers.cpu.mlir
// RUN: env OMP_NUM_THREADS=1 %t.dir/prog | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t.dir/prog | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t.dir/prog | FileCheck %s
// RUN: env OMP_NUM_THREADS=8 %t.dir/prog | FileCheck %s
// RUN: env OMP_NUM_THREADS=4 KMP_DEVICE_THREAD_LIMIT=2 %t.dir/prog | FileCheck %s
// RUN: %respec -O2 --disable-opt=few-block-barriers %s -o %t.off
// RUN: env OMP_NUM_THREADS=8 %t.off | FileCheck %s
// RUN: %respec -O1 --coarsen=block=2,thread=2 %s -o %t.c
// RUN: env OMP_NUM_THREADS=8 %t.c | FileCheck %s
// IR: llvm.call @__respec_slice_groups_begin
// IR: llvm.call @__respec_slice_barrier
// IR-NOT: __respec_barrier_point
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(err_),     \
                  __LINE__);                                                  \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

static int failures = 0;

// Work between barriers: a loop whose trip count the compiler cannot see.
__host__ __device__ int mix(int v, int reps) {
  for (int r = 0; r < reps; ++r)
    v = (v * 5 + r) % 10007;
  return v;
}

static const int kReps = 20;

static void expectEqual(const char *what, long long got, long long want,
                        int index) {
  if (got != want && ++failures <= 10)
    std::printf("%s[%d]: got %lld, want %lld\n", what, index, got, want);
}

// Sum of squares: a block-stride loop, then a tree in shared memory.
__global__ void sumSquares(const int *in, long long *out, int n) {
  __shared__ long long partial[1024];
  long long acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    acc += (long long)in[i] * in[i];
  partial[threadIdx.x] = acc;
  __syncthreads();
  for (int width = blockDim.x / 2; width > 0; width /= 2) {
    if (threadIdx.x < width)
      partial[threadIdx.x] += partial[threadIdx.x + width];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = partial[0];
}

// Inclusive Hillis-Steele scan, double-buffered.
__global__ void scan(const int *in, int *out, int reps) {
  __shared__ int buffers[2][512];
  int t = threadIdx.x;
  int current = 0;
  buffers[0][t] = mix(in[t], reps);
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset *= 2) {
    int value = buffers[current][t];
    if (t >= offset)
      value += buffers[current][t - offset];
    buffers[1 - current][t] = value;
    current = 1 - current;
    __syncthreads();
  }
  out[t] = buffers[current][t];
}

// y = A x, x staged through shared memory a tile at a time.
__global__ void matVec(const int *a, const int *x, int *y, int columns) {
  __shared__ int tile[256];
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int sum = 0;
  for (int start = 0; start < columns; start += blockDim.x) {
    tile[threadIdx.x] = x[start + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < blockDim.x; ++k)
      sum += a[row * columns + start + k] * tile[k];
    __syncthreads();
  }
  y[row] = sum;
}

// Reverses the block's elements through dynamic shared memory.
__global__ void reverse(const int *in, int *out, int reps) {
  extern __shared__ int staged[];
  int t = threadIdx.x;
  staged[t] = mix(in[t], reps);
  __syncthreads();
  out[t] = staged[blockDim.x - 1 - t] * 3 + t;
}

// A branch on a kernel argument around barriers (the same for all threads).
__global__ void rotate(const int *in, int *out, int direction, int reps) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = mix(in[t], reps);
  __syncthreads();
  if (direction > 0) {
    int v = s[(t + 1) % blockDim.x];
    __syncthreads();
    s[t] = v * 2;
  } else {
    int v = s[(t + blockDim.x - 1) % blockDim.x];
    __syncthreads();
    s[t] = v - 1;
  }
  __syncthreads();
  out[t] = s[(t + 7) % blockDim.x];
}

// A 2-D block: rows summed across the block's y extent.
__global__ void columnSums(const int *in, int *out, int reps) {
  __shared__ int s[4][128];
  int x = threadIdx.x, y = threadIdx.y;
  s[y][x] = mix(in[y * blockDim.x + x], reps) * (y + 1);
  __syncthreads();
  if (y == 0)
    out[x] = s[0][x] + s[1][x] + s[2][x] + s[3][(x + 5) % blockDim.x];
}

// The block's last thread publishes a value all threads use.
__global__ void publish(const int *in, int *out, int reps) {
  __shared__ int total;
  int t = threadIdx.x;
  if (t == blockDim.x - 1)
    total = mix(in[t], reps) * 1000;
  __syncthreads();
  out[t] = in[t] + total;
}

template <typename T> static T *toDevice(const std::vector<T> &host) {
  T *device;
  CUDA_CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T),
                        cudaMemcpyHostToDevice));
  return device;
}

template <typename T> static std::vector<T> toHost(const T *device, size_t n) {
  std::vector<T> host(n);
  CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T),
                        cudaMemcpyDeviceToHost));
  return host;
}

static std::vector<int> pattern(size_t n, int seed) {
  std::vector<int> values(n);
  for (size_t i = 0; i < n; ++i)
    values[i] = int((i * 37 + seed * 11) % 101) - 50;
  return values;
}

static void checkSumSquares(int n) {
  std::vector<int> in = pattern(n, n);
  int *dIn = toDevice(in);
  long long *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, sizeof(long long)));
  sumSquares<<<1, 1024>>>(dIn, dOut, n);
  CUDA_CHECK(cudaGetLastError());
  long long want = 0;
  for (int v : in)
    want += (long long)v * v;
  expectEqual("sumSquares", toHost(dOut, 1)[0], want, n);
  cudaFree(dIn);
  cudaFree(dOut);
}

static void checkScan() {
  std::vector<int> in = pattern(512, 3);
  int *dIn = toDevice(in), *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, 512 * sizeof(int)));
  scan<<<1, 512>>>(dIn, dOut, kReps);
  std::vector<int> out = toHost(dOut, 512);
  int running = 0;
  for (int i = 0; i < 512; ++i) {
    running += mix(in[i], kReps);
    expectEqual("scan", out[i], running, i);
  }
  cudaFree(dIn);
  cudaFree(dOut);
}

static void checkMatVec() {
  const int rows = 512, columns = 768;
  std::vector<int> a = pattern(size_t(rows) * columns, 5);
  std::vector<int> x = pattern(columns, 9);
  int *dA = toDevice(a), *dX = toDevice(x), *dY;
  CUDA_CHECK(cudaMalloc(&dY, rows * sizeof(int)));
  matVec<<<rows / 256, 256>>>(dA, dX, dY, columns);
  std::vector<int> y = toHost(dY, rows);
  for (int r = 0; r < rows; ++r) {
    int want = 0;
    for (int c = 0; c < columns; ++c)
      want += a[size_t(r) * columns + c] * x[c];
    expectEqual("matVec", y[r], want, r);
  }
  cudaFree(dA);
  cudaFree(dX);
  cudaFree(dY);
}

static void checkReverse() {
  const int n = 384;
  std::vector<int> in = pattern(n, 4);
  int *dIn = toDevice(in), *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  reverse<<<1, n, n * sizeof(int)>>>(dIn, dOut, kReps);
  std::vector<int> out = toHost(dOut, n);
  for (int t = 0; t < n; ++t)
    expectEqual("reverse", out[t], mix(in[n - 1 - t], kReps) * 3 + t, t);
  cudaFree(dIn);
  cudaFree(dOut);
}

static void checkRotate(int direction) {
  const int n = 256;
  std::vector<int> in = pattern(n, 6);
  int *dIn = toDevice(in), *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  rotate<<<1, n>>>(dIn, dOut, direction, kReps);
  std::vector<int> out = toHost(dOut, n);
  std::vector<int> mixed(n), s(n);
  for (int t = 0; t < n; ++t)
    mixed[t] = mix(in[t], kReps);
  for (int t = 0; t < n; ++t)
    s[t] = direction > 0 ? mixed[(t + 1) % n] * 2 : mixed[(t + n - 1) % n] - 1;
  for (int t = 0; t < n; ++t)
    expectEqual("rotate", out[t], s[(t + 7) % n], t);
  cudaFree(dIn);
  cudaFree(dOut);
}

static void checkColumnSums() {
  std::vector<int> in = pattern(4 * 128, 8);
  int *dIn = toDevice(in), *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, 128 * sizeof(int)));
  columnSums<<<1, dim3(128, 4)>>>(dIn, dOut, kReps);
  std::vector<int> out = toHost(dOut, 128);
  for (int x = 0; x < 128; ++x) {
    int want = mix(in[x], kReps) + mix(in[128 + x], kReps) * 2 +
               mix(in[256 + x], kReps) * 3 +
               mix(in[384 + (x + 5) % 128], kReps) * 4;
    expectEqual("columnSums", out[x], want, x);
  }
  cudaFree(dIn);
  cudaFree(dOut);
}

static void checkPublish() {
  const int n = 640;
  std::vector<int> in = pattern(n, 2);
  int *dIn = toDevice(in), *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  publish<<<1, n>>>(dIn, dOut, kReps);
  std::vector<int> out = toHost(dOut, n);
  for (int t = 0; t < n; ++t)
    expectEqual("publish", out[t], in[t] + mix(in[n - 1], kReps) * 1000, t);
  cudaFree(dIn);
  cudaFree(dOut);
}

int main() {
  for (int n : {100000, 1024, 700, 37})
    checkSumSquares(n);
  checkScan();
  checkMatVec();
  checkReverse();
  checkRotate(1);
  checkRotate(-1);
  checkColumnSums();
  checkPublish();
  CUDA_CHECK(cudaDeviceSynchronize());
  if (failures) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

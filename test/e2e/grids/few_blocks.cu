// Grids of fewer blocks than cores. Kernels whose threads never
// synchronize and use no shared memory run each block as slices of threads
// on several cores (respec-find-independent-threads,
// respec-parallelize-few-block-grids): a recurrence per thread (whose
// serial loop respec interchanges with the thread loop), the same with a
// trip count from a kernel argument (read from one thread's copy), a
// thread-private array, a block-stride loop, a branch on thread 0, a
// bounds check, a 2-D block and a block size that is not a multiple of 64.
// Kernels with barriers and only a few operations per thread between them
// (an array reversed through shared memory, a tile transposed in dynamic
// shared memory, a barrier in a loop) keep one core per block
// (few_block_barriers.cu covers those that get slices). Each runs with 1, 2 and 8 OpenMP threads (8 slices grids of
// up to 4 blocks), with the optimization off, and coarsened. The host
// checks every element.
// RUN: %respec -O2 %s -o %t
// RUN: env OMP_NUM_THREADS=1 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=8 %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=few-block-grids %s -o %t.off && env OMP_NUM_THREADS=8 %t.off | FileCheck %s
// RUN: %respec -O1 --coarsen=block=2,thread=2 %s -o %t.c && env OMP_NUM_THREADS=8 %t.c | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

static void expectEqual(const char *what, int index, float got, float want) {
  if (got != want && failures++ < 10)
    std::printf("%s[%d]: got %g, want %g\n", what, index, got, want);
}

// Barrier-free: each thread iterates a recurrence of its own.
__global__ void iterate(float *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = static_cast<float>(i % 97);
  for (int k = 0; k < steps; ++k)
    x = x * 0.5f + static_cast<float>(k % 7);
  out[i] = x;
}

static float iterateHost(int i, int steps) {
  float x = static_cast<float>(i % 97);
  for (int k = 0; k < steps; ++k)
    x = x * 0.5f + static_cast<float>(k % 7);
  return x;
}

// One barrier: every thread reads another thread's element.
__global__ void reverse(const float *in, float *out) {
  __shared__ float tile[1024];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  tile[t] = in[base + t] * 2.0f;
  __syncthreads();
  out[base + t] = tile[blockDim.x - 1 - t] + static_cast<float>(blockIdx.x);
}

// Two-dimensional block, dynamic shared memory, a per-block value computed
// before the barrier and used after it.
__global__ void transposeTile(const float *in, float *out, int width) {
  extern __shared__ float tile[];
  int x = threadIdx.x, y = threadIdx.y;
  float blockScale = static_cast<float>(blockIdx.x + 1);
  tile[y * blockDim.x + x] = in[y * width + blockIdx.x * blockDim.x + x];
  __syncthreads();
  out[blockIdx.x * blockDim.x * blockDim.y + y * blockDim.x + x] =
      tile[x * blockDim.x + y] * blockScale;
}

// A barrier in a loop: a running neighbour average, step by step.
__global__ void smooth(float *data, int steps) {
  __shared__ float s[512];
  int t = threadIdx.x;
  float v = data[t];
  for (int k = 0; k < steps; ++k) {
    s[t] = v;
    __syncthreads();
    v = 0.5f * (s[t] + s[(t + 1) % blockDim.x]);
    __syncthreads();
  }
  data[t] = v;
}

// A thread-private array indexed at run time.
__global__ void privateArray(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int digits[8];
  int v = in[i];
  for (int d = 0; d < 8; ++d) {
    digits[d] = v % 10;
    v /= 10;
  }
  int sum = 0;
  for (int d = 0; d < 8; ++d)
    sum += digits[(d + in[i]) % 8] * (d + 1);
  out[i] = sum;
}

// Every thread runs the same number of steps, a kernel argument: respec
// runs the loop around the thread loop and takes its trip count from one
// thread's copy (in a slice, the slice's first thread's).
__global__ void uniformSteps(const float *start, float *end, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = start[i];
  float r = 0.5f + 0.25f * start[i];
  for (int k = 0; k < steps; ++k)
    x = 0.5f * x + r / (1.0f + x * x);
  end[i] = x;
}

// A block-stride loop: each thread sums every blockDim.x-th element.
__global__ void strideSums(const float *in, float *out, int n) {
  float sum = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    sum += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum + blockIdx.x;
}

// Thread 0 writes the block's header; the other threads their element.
__global__ void header(int *out, int perBlock) {
  int *mine = out + blockIdx.x * (perBlock + 1);
  if (threadIdx.x == 0)
    mine[0] = -static_cast<int>(blockIdx.x) - 1;
  if (threadIdx.x < perBlock)
    mine[threadIdx.x + 1] = threadIdx.x * 3 + blockIdx.x;
}

// A 2-D block of 128 x 4 threads.
__global__ void grid2d(int *out) {
  int x = threadIdx.x, y = threadIdx.y;
  int width = blockDim.x * gridDim.x;
  int col = blockIdx.x * blockDim.x + x;
  out[y * width + col] = y * 1000 + col;
}

static float strideSumHost(const float *in, int n, int t, int threads) {
  float sum = 0.0f;
  for (int i = t; i < n; i += threads)
    sum += in[i];
  return sum;
}

int main() {
  // One block of 1024 threads, and grids of 2, 3 and 4 blocks.
  const int steps = 300;
  for (int blocks = 1; blocks <= 4; ++blocks) {
    int n = blocks * 1024 - 5;
    float *out;
    CUDA_CHECK(cudaMallocManaged(&out, blocks * 1024 * sizeof(float)));
    iterate<<<blocks, 1024>>>(out, n, steps);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i)
      expectEqual("iterate", i, out[i], iterateHost(i, steps));
    CUDA_CHECK(cudaFree(out));
  }

  for (int blocks = 1; blocks <= 3; ++blocks) {
    int n = blocks * 1024;
    float *in, *out;
    CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&out, n * sizeof(float)));
    for (int i = 0; i < n; ++i)
      in[i] = static_cast<float>((i * 37) % 1000);
    reverse<<<blocks, 1024>>>(in, out);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < 1024; ++t)
        expectEqual("reverse", b * 1024 + t, out[b * 1024 + t],
                    in[b * 1024 + 1023 - t] * 2.0f + static_cast<float>(b));
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
  }

  {
    const int side = 32, blocks = 2, width = side * blocks;
    float *in, *out;
    CUDA_CHECK(cudaMallocManaged(&in, side * width * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&out, side * width * sizeof(float)));
    for (int i = 0; i < side * width; ++i)
      in[i] = static_cast<float>(i % 251);
    transposeTile<<<blocks, dim3(side, side), side * side * sizeof(float)>>>(
        in, out, width);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int b = 0; b < blocks; ++b)
      for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x)
          expectEqual("transposeTile", b * side * side + y * side + x,
                      out[b * side * side + y * side + x],
                      in[x * width + b * side + y] * static_cast<float>(b + 1));
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
  }

  {
    const int n = 512, smoothSteps = 20;
    float *data;
    CUDA_CHECK(cudaMallocManaged(&data, n * sizeof(float)));
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i)
      data[i] = want[i] = static_cast<float>(i % 13);
    smooth<<<1, n>>>(data, smoothSteps);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int k = 0; k < smoothSteps; ++k) {
      std::vector<float> next(n);
      for (int i = 0; i < n; ++i)
        next[i] = 0.5f * (want[i] + want[(i + 1) % n]);
      want = next;
    }
    for (int i = 0; i < n; ++i)
      expectEqual("smooth", i, data[i], want[i]);
    CUDA_CHECK(cudaFree(data));
  }

  {
    const int n = 1000;
    int *in, *out;
    CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(int)));
    CUDA_CHECK(cudaMallocManaged(&out, 1024 * sizeof(int)));
    for (int i = 0; i < n; ++i)
      in[i] = i * 7919 + 12345;
    privateArray<<<1, 1024>>>(in, out, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      int digits[8], v = in[i], sum = 0;
      for (int d = 0; d < 8; ++d) {
        digits[d] = v % 10;
        v /= 10;
      }
      for (int d = 0; d < 8; ++d)
        sum += digits[(d + in[i]) % 8] * (d + 1);
      expectEqual("privateArray", i, static_cast<float>(out[i]),
                  static_cast<float>(sum));
    }
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
  }

  for (int blocks = 1; blocks <= 3; ++blocks) {
    const int n = blocks * 768, steps = 200;
    float *start, *end;
    CUDA_CHECK(cudaMallocManaged(&start, n * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&end, n * sizeof(float)));
    for (int i = 0; i < n; ++i)
      start[i] = static_cast<float>(i % 10) * 0.1f;
    uniformSteps<<<blocks, 768>>>(start, end, steps);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      float x = start[i], r = 0.5f + 0.25f * start[i];
      for (int k = 0; k < steps; ++k)
        x = 0.5f * x + r / (1.0f + x * x);
      if (std::fabs(end[i] - x) > 1e-5f * std::fabs(x) + 1e-6f &&
          failures++ < 10)
        std::printf("uniformSteps[%d]: got %g, want %g\n", i, end[i], x);
    }
    CUDA_CHECK(cudaFree(start));
    CUDA_CHECK(cudaFree(end));
  }

  // Block sizes that are not multiples of 64, and 1 to 3 blocks.
  for (int blocks = 1; blocks <= 3; ++blocks) {
    const int threads = 1000, n = 5003;
    float *in, *out;
    CUDA_CHECK(cudaMallocManaged(&in, n * sizeof(float)));
    CUDA_CHECK(cudaMallocManaged(&out, blocks * threads * sizeof(float)));
    for (int i = 0; i < n; ++i)
      in[i] = static_cast<float>(i % 17);
    strideSums<<<blocks, threads>>>(in, out, n);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t)
        expectEqual("strideSums", b * threads + t, out[b * threads + t],
                    strideSumHost(in, n, t, threads) + static_cast<float>(b));
    CUDA_CHECK(cudaFree(in));
    CUDA_CHECK(cudaFree(out));
  }

  for (int blocks = 1; blocks <= 2; ++blocks) {
    const int threads = 704, perBlock = 650;
    int *out;
    int total = blocks * (perBlock + 1);
    CUDA_CHECK(cudaMallocManaged(&out, total * sizeof(int)));
    for (int i = 0; i < total; ++i)
      out[i] = 12345;
    header<<<blocks, threads>>>(out, perBlock);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int b = 0; b < blocks; ++b) {
      expectEqual("header", b * (perBlock + 1),
                  static_cast<float>(out[b * (perBlock + 1)]),
                  static_cast<float>(-b - 1));
      for (int t = 0; t < perBlock; ++t)
        expectEqual("header", b * (perBlock + 1) + t + 1,
                    static_cast<float>(out[b * (perBlock + 1) + t + 1]),
                    static_cast<float>(t * 3 + b));
    }
    CUDA_CHECK(cudaFree(out));
  }

  {
    const int blocks = 2, width = 128 * blocks;
    int *out;
    CUDA_CHECK(cudaMallocManaged(&out, 4 * width * sizeof(int)));
    grid2d<<<blocks, dim3(128, 4)>>>(out);
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int y = 0; y < 4; ++y)
      for (int col = 0; col < width; ++col)
        expectEqual("grid2d", y * width + col,
                    static_cast<float>(out[y * width + col]),
                    static_cast<float>(y * 1000 + col));
    CUDA_CHECK(cudaFree(out));
  }

  if (failures != 0) {
    std::printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

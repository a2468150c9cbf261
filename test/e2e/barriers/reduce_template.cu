// Block reductions templated on the block size: __shared__ arrays sized by
// the template parameter, an unrolled halving loop (#pragma unroll), the
// CUDA-samples "if (BLOCK >= 512) { ... } __syncthreads();" cascade carried
// down to one element with a barrier after every step (no warp-synchronous
// tail), and a guarded loop for non-power-of-two BLOCK (96, 192, 320).
// Instantiated for int sums and float maxima; the host checks every block.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
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

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}

template <typename T> struct Sum {
  __host__ __device__ static T identity() { return T(0); }
  __host__ __device__ static T apply(T a, T b) { return a + b; }
};
struct MaxF {
  __host__ __device__ static float identity() { return -3.0e38f; }
  __host__ __device__ static float apply(float a, float b) {
    return a > b ? a : b;
  }
};

__host__ __device__ constexpr unsigned nextPow2(unsigned x) {
  return x <= 1 ? 1 : 2 * nextPow2((x + 1) / 2);
}

// Each block folds 2 * BLOCK elements: two per thread, then a tree.
template <unsigned BLOCK, typename T, typename Op>
__global__ void reduceLoop(const T *in, int n, T *out) {
  __shared__ T s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (2 * BLOCK) + tid;
  T v = Op::identity();
  if (i < (unsigned)n)
    v = in[i];
  if (i + BLOCK < (unsigned)n)
    v = Op::apply(v, in[i + BLOCK]);
  s[tid] = v;
  __syncthreads();
#pragma unroll
  for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] = Op::apply(s[tid], s[tid + stride]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

template <unsigned BLOCK, typename T, typename Op>
__global__ void reduceCascade(const T *in, int n, T *out) {
  __shared__ T s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = i < (unsigned)n ? in[i] : Op::identity();
  __syncthreads();
  if (BLOCK >= 1024) {
    if (tid < 512) s[tid] = Op::apply(s[tid], s[tid + 512]);
    __syncthreads();
  }
  if (BLOCK >= 512) {
    if (tid < 256) s[tid] = Op::apply(s[tid], s[tid + 256]);
    __syncthreads();
  }
  if (BLOCK >= 256) {
    if (tid < 128) s[tid] = Op::apply(s[tid], s[tid + 128]);
    __syncthreads();
  }
  if (BLOCK >= 128) {
    if (tid < 64) s[tid] = Op::apply(s[tid], s[tid + 64]);
    __syncthreads();
  }
  if (BLOCK >= 64) {
    if (tid < 32) s[tid] = Op::apply(s[tid], s[tid + 32]);
    __syncthreads();
  }
  if (BLOCK >= 32) {
    if (tid < 16) s[tid] = Op::apply(s[tid], s[tid + 16]);
    __syncthreads();
  }
  if (tid < 8) s[tid] = Op::apply(s[tid], s[tid + 8]);
  __syncthreads();
  if (tid < 4) s[tid] = Op::apply(s[tid], s[tid + 4]);
  __syncthreads();
  if (tid < 2) s[tid] = Op::apply(s[tid], s[tid + 2]);
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = Op::apply(s[0], s[1]);
}

template <unsigned BLOCK, typename T, typename Op>
__global__ void reduceGuarded(const T *in, int n, T *out) {
  __shared__ T s[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * BLOCK + tid;
  s[tid] = i < (unsigned)n ? in[i] : Op::identity();
  __syncthreads();
  for (unsigned stride = nextPow2(BLOCK) / 2; stride > 0; stride >>= 1) {
    if (tid < stride && tid + stride < BLOCK)
      s[tid] = Op::apply(s[tid], s[tid + stride]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

static int errors = 0;

template <typename T, typename Op>
static void checkBlocks(const char *what, const T *h, int n, int perBlock,
                        const T *dOut) {
  int grid = (n + perBlock - 1) / perBlock;
  T *got = (T *)malloc(grid * sizeof(T));
  CUDA_CHECK(cudaMemcpy(got, dOut, grid * sizeof(T), cudaMemcpyDeviceToHost));
  for (int b = 0; b < grid; ++b) {
    T want = Op::identity();
    for (int i = b * perBlock; i < n && i < (b + 1) * perBlock; ++i)
      want = Op::apply(want, h[i]);
    if (!(got[b] == want) && ++errors <= 5)
      printf("%s: block %d got %g expected %g\n", what, b, (double)got[b],
             (double)want);
  }
  free(got);
}

template <unsigned BLOCK>
static void runPow2(const int *hi, const int *di, const float *hf,
                    const float *df, int n, int *dOi, float *dOf) {
  reduceLoop<BLOCK, int, Sum<int>><<<(n + 2 * BLOCK - 1) / (2 * BLOCK), BLOCK>>>(di, n, dOi);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<int, Sum<int>>("reduceLoop<int>", hi, n, 2 * BLOCK, dOi);
  reduceLoop<BLOCK, float, MaxF><<<(n + 2 * BLOCK - 1) / (2 * BLOCK), BLOCK>>>(df, n, dOf);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<float, MaxF>("reduceLoop<max>", hf, n, 2 * BLOCK, dOf);
  reduceCascade<BLOCK, int, Sum<int>><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(di, n, dOi);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<int, Sum<int>>("reduceCascade<int>", hi, n, BLOCK, dOi);
  reduceCascade<BLOCK, float, MaxF><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(df, n, dOf);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<float, MaxF>("reduceCascade<max>", hf, n, BLOCK, dOf);
}

template <unsigned BLOCK>
static void runGuarded(const int *hi, const int *di, const float *hf,
                       const float *df, int n, int *dOi, float *dOf) {
  reduceGuarded<BLOCK, int, Sum<int>><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(di, n, dOi);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<int, Sum<int>>("reduceGuarded<int>", hi, n, BLOCK, dOi);
  reduceGuarded<BLOCK, float, MaxF><<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(df, n, dOf);
  CUDA_CHECK(cudaGetLastError());
  checkBlocks<float, MaxF>("reduceGuarded<max>", hf, n, BLOCK, dOf);
}

int main() {
  const int n = 30011;
  int *hi = (int *)malloc(n * sizeof(int));
  float *hf = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    hi[i] = (int)(lcg() % 20001) - 10000;
    hf[i] = (float)((int)(lcg() % 8001) - 4000) * 0.25f;
  }
  int *di, *dOi;
  float *df, *dOf;
  CUDA_CHECK(cudaMalloc(&di, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&df, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dOi, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOf, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(di, hi, n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice));

  runPow2<64>(hi, di, hf, df, n, dOi, dOf);
  runPow2<128>(hi, di, hf, df, n, dOi, dOf);
  runPow2<256>(hi, di, hf, df, n, dOi, dOf);
  runPow2<512>(hi, di, hf, df, n, dOi, dOf);
  runPow2<1024>(hi, di, hf, df, n, dOi, dOf);
  runGuarded<96>(hi, di, hf, df, n, dOi, dOf);
  runGuarded<192>(hi, di, hf, df, n, dOi, dOf);
  runGuarded<320>(hi, di, hf, df, n, dOi, dOf);
  runGuarded<256>(hi, di, hf, df, n, dOi, dOf);

  CUDA_CHECK(cudaFree(di));
  CUDA_CHECK(cudaFree(df));
  CUDA_CHECK(cudaFree(dOi));
  CUDA_CHECK(cudaFree(dOf));
  free(hi);
  free(hf);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

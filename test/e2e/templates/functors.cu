// Function objects passed by value to template kernels: a stateful affine
// functor, a composition of two functors, a predicate-based count with
// atomics, and a binary functor used in a zip-transform.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O1 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O1 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
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

struct Affine {
  int mul, add;
  __host__ __device__ int operator()(int v) const { return v * mul + add; }
};

struct Square {
  __host__ __device__ int operator()(int v) const { return v * v; }
};

template <typename F, typename G> struct Compose {
  F f;
  G g;
  __host__ __device__ int operator()(int v) const { return f(g(v)); }
};

struct IsMultipleOf {
  int k;
  __host__ __device__ bool operator()(int v) const { return v % k == 0; }
};

struct WeightedSum {
  float wa, wb;
  __host__ __device__ float operator()(float a, float b) const {
    return wa * a + wb * b;
  }
};

template <typename Op>
__global__ void transform(const int *in, int *out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}

template <typename Pred>
__global__ void countIf(const int *in, int n, Pred pred, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && pred(in[i]))
    atomicAdd(count, 1);
}

template <typename BinOp>
__global__ void zip(const float *a, const float *b, float *out, int n,
                    BinOp op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(a[i], b[i]);
}

static int fail(const char *what, int i, double got, double exp) {
  printf("%s mismatch at %d: got %g, expected %g\n", what, i, got, exp);
  printf("FAILED\n");
  return 1;
}

int main() {
  const int n = 123457;
  int *h = (int *)malloc(n * sizeof(int));
  int *r = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = i % 2000 - 1000;
  int *din, *dout, *dcount;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dcount, sizeof(int)));
  CUDA_CHECK(cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice));
  int grid = (n + 255) / 256;

  Affine aff{3, -11};
  transform<<<grid, 256>>>(din, dout, n, aff);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (r[i] != aff(h[i]))
      return fail("affine", i, r[i], aff(h[i]));

  Compose<Affine, Square> comp{Affine{-2, 5}, Square{}};
  transform<<<grid, 256>>>(din, dout, n, comp);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(r, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (r[i] != comp(h[i]))
      return fail("compose", i, r[i], comp(h[i]));

  IsMultipleOf pred{7};
  CUDA_CHECK(cudaMemset(dcount, 0, sizeof(int)));
  countIf<<<grid, 256>>>(din, n, pred, dcount);
  CUDA_CHECK(cudaGetLastError());
  int count = 0, expected = 0;
  CUDA_CHECK(cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    expected += pred(h[i]);
  if (count != expected)
    return fail("countIf", 0, count, expected);

  float *fa = (float *)malloc(n * sizeof(float));
  float *fb = (float *)malloc(n * sizeof(float));
  float *fr = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    fa[i] = (float)(i % 64);
    fb[i] = (float)(i % 10) - 5.0f;
  }
  float *da, *db, *dr;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dr, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(da, fa, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, fb, n * sizeof(float), cudaMemcpyHostToDevice));
  WeightedSum ws{0.75f, -1.5f};
  zip<<<grid, 256>>>(da, db, dr, n, ws);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(fr, dr, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (fr[i] != ws(fa[i], fb[i]))
      return fail("zip", i, fr[i], ws(fa[i], fb[i]));

  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dcount));
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dr));
  free(h);
  free(r);
  free(fa);
  free(fb);
  free(fr);
  printf("PASSED\n");
  return 0;
}

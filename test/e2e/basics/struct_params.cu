// Kernel parameters that are structs passed by value (mixed float, double,
// int, char fields with padding), a nested struct, and a pointer to a struct
// in device memory.
// RUN: %respec -O0 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O0 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O0 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

struct Range {
  int begin;
  int end;
};

struct Params {
  char tag;       // 1 byte, then padding before the double
  double scale;   // 8-byte aligned
  float offset;
  int stride;
  Range range;    // nested struct
  short bias;
  bool negate;
};

struct Stats {
  long long count;
  double weight;
  int flags[4];
};

__global__ void transform(Params p, const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = in[i];
  if (i >= p.range.begin && i < p.range.end && i % p.stride == 0)
    v = v * p.scale + p.offset + p.bias + p.tag;
  out[i] = p.negate ? -v : v;
}

__global__ void applyStats(const Stats *s, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = out[i] * s->weight + (double)s->count + s->flags[i % 4];
}

int main() {
  const int n = 50000;
  double *h = (double *)malloc(n * sizeof(double));
  double *res = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    h[i] = (double)(i % 100) * 0.25;

  Params p;
  p.tag = 3;
  p.scale = 1.5;
  p.offset = 0.5f;
  p.stride = 3;
  p.range.begin = 1000;
  p.range.end = 40000;
  p.bias = -7;
  p.negate = true;

  Stats s;
  s.count = 10000000000LL; // needs 64 bits
  s.weight = 0.5;
  s.flags[0] = 1;
  s.flags[1] = -2;
  s.flags[2] = 3;
  s.flags[3] = -4;

  double *din, *dout;
  Stats *ds;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&ds, sizeof(Stats)));
  CUDA_CHECK(cudaMemcpy(din, h, n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(ds, &s, sizeof(Stats), cudaMemcpyHostToDevice));

  transform<<<(n + 127) / 128, 128>>>(p, din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  applyStats<<<(n + 127) / 128, 128>>>(ds, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dout, n * sizeof(double), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    double v = h[i];
    if (i >= p.range.begin && i < p.range.end && i % p.stride == 0)
      v = v * p.scale + p.offset + p.bias + p.tag;
    v = p.negate ? -v : v;
    v = v * s.weight + (double)s.count + s.flags[i % 4];
    if (res[i] != v) {
      printf("mismatch at %d: got %.17g, expected %.17g\n", i, res[i], v);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(ds));
  free(h);
  free(res);
  printf("PASSED\n");
  return 0;
}

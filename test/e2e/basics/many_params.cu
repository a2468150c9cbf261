// A kernel with 16 parameters of mixed small and large types (char, short,
// bool, unsigned char, int, long long, float, double, pointers), so some
// of them are passed on the stack by any CPU calling convention.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O3 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O3 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
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

__host__ __device__ long long combine(int i, char c, short s, bool b,
                                      unsigned char uc, int k,
                                      long long big, float f, double d,
                                      unsigned u, signed char sc, short s2,
                                      bool b2) {
  long long r = (long long)i * c + s;
  if (b)
    r += uc;
  r = r * k + big;
  r += (long long)(f * 4.0f) + (long long)(d * 8.0);
  r ^= (long long)u;
  r -= sc;
  r += b2 ? s2 : -s2;
  return r;
}

__global__ void manyParams(long long *out, const int *in, int n, char c,
                           short s, bool b, unsigned char uc, int k,
                           long long big, float f, double d, unsigned u,
                           signed char sc, short s2, bool b2, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = combine(in[i], c, s, b, uc, k, big, f, d, u, sc, s2, b2) + last;
}

int main() {
  const int n = 100000;
  int *hin = (int *)malloc(n * sizeof(int));
  long long *hout = (long long *)malloc(n * sizeof(long long));
  for (int i = 0; i < n; ++i)
    hin[i] = i * 3 - 5000;

  int *din;
  long long *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));

  char c = -7;
  short s = 12345;
  bool b = true;
  unsigned char uc = 250;
  int k = -3;
  long long big = 1LL << 40;
  float f = 2.75f;
  double d = -1.625;
  unsigned u = 0xdeadbeefu;
  signed char sc = -100;
  short s2 = -32000;
  bool b2 = false;
  int last = 424242;
  manyParams<<<(n + 255) / 256, 256>>>(dout, din, n, c, s, b, uc, k, big, f,
                                       d, u, sc, s2, b2, last);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hout, dout, n * sizeof(long long),
                        cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    long long e =
        combine(hin[i], c, s, b, uc, k, big, f, d, u, sc, s2, b2) + last;
    if (hout[i] != e) {
      printf("mismatch at %d: got %lld, expected %lld\n", i, hout[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  free(hin);
  free(hout);
  printf("PASSED\n");
  return 0;
}

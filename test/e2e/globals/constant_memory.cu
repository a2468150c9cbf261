// __constant__ memory: a polynomial coefficient table and an array of
// structs (filter taps with mixed field types) uploaded with
// cudaMemcpyToSymbol (whole and with an offset), read back with
// cudaMemcpyFromSymbol, plus a __constant__ with a static initializer.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
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

struct Tap {
  int offset;
  float weight;
  double bias;
};

#define NUM_TAPS 5
#define NUM_COEFFS 8

__constant__ Tap taps[NUM_TAPS];
__constant__ int coeffs[NUM_COEFFS];
__constant__ int modulus = 1000003; // static initializer, never copied

__global__ void filter(const float *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double acc = 0.0;
  for (int t = 0; t < NUM_TAPS; ++t) {
    int j = i + taps[t].offset;
    j = j < 0 ? 0 : (j >= n ? n - 1 : j);
    acc += (double)(in[j] * taps[t].weight) + taps[t].bias;
  }
  out[i] = acc;
}

__global__ void polyMod(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  long long acc = 0;
  for (int k = NUM_COEFFS - 1; k >= 0; --k)
    acc = (acc * i + coeffs[k]) % modulus;
  out[i] = (int)acc;
}

int main() {
  Tap htaps[NUM_TAPS] = {{-2, 0.125f, 0.5},
                         {-1, 0.25f, -0.25},
                         {0, 0.5f, 1.0},
                         {1, 0.25f, 0.0},
                         {2, 0.125f, -1.5}};
  CUDA_CHECK(cudaMemcpyToSymbol(taps, htaps, sizeof(htaps)));
  Tap check[NUM_TAPS];
  CUDA_CHECK(cudaMemcpyFromSymbol(check, taps, sizeof(check)));
  for (int t = 0; t < NUM_TAPS; ++t)
    if (check[t].offset != htaps[t].offset || check[t].weight != htaps[t].weight ||
        check[t].bias != htaps[t].bias) {
      printf("constant round trip failed at tap %d\n", t);
      printf("FAILED\n");
      return 1;
    }

  const int n = 300000;
  float *hin = (float *)malloc(n * sizeof(float));
  double *hout = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    hin[i] = (float)(i % 256);
  float *din;
  double *dout;
  CUDA_CHECK(cudaMalloc(&din, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(din, hin, n * sizeof(float), cudaMemcpyHostToDevice));
  filter<<<(n + 255) / 256, 256>>>(din, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hout, dout, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double e = 0.0;
    for (int t = 0; t < NUM_TAPS; ++t) {
      int j = i + htaps[t].offset;
      j = j < 0 ? 0 : (j >= n ? n - 1 : j);
      e += (double)(hin[j] * htaps[t].weight) + htaps[t].bias;
    }
    if (hout[i] != e) {
      printf("filter mismatch at %d: got %f, expected %f\n", i, hout[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  // Upload the coefficients in two pieces, the second one at an offset.
  int hcoeffs[NUM_COEFFS] = {7, -3, 11, 0, 5, -13, 2, 1};
  CUDA_CHECK(cudaMemcpyToSymbol(coeffs, hcoeffs, 3 * sizeof(int)));
  CUDA_CHECK(cudaMemcpyToSymbol(coeffs, hcoeffs + 3,
                                (NUM_COEFFS - 3) * sizeof(int),
                                3 * sizeof(int), cudaMemcpyHostToDevice));
  int *dpoly;
  int *hpoly = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMalloc(&dpoly, n * sizeof(int)));
  polyMod<<<(n + 127) / 128, 128>>>(dpoly, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(hpoly, dpoly, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    long long acc = 0;
    for (int k = NUM_COEFFS - 1; k >= 0; --k)
      acc = (acc * i + hcoeffs[k]) % 1000003;
    if (hpoly[i] != (int)acc) {
      printf("polynomial mismatch at %d: got %d, expected %lld\n", i, hpoly[i],
             acc);
      printf("FAILED\n");
      return 1;
    }
  }
  int hmod = 0;
  CUDA_CHECK(cudaMemcpyFromSymbol(&hmod, modulus, sizeof(int)));
  if (hmod != 1000003) {
    printf("static initializer of __constant__ lost: %d\n", hmod);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dpoly));
  free(hin);
  free(hout);
  free(hpoly);
  printf("PASSED\n");
  return 0;
}

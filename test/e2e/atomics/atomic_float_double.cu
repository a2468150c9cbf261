// Floating-point atomics: atomicAdd on float and double with values whose
// sums are exact in any order (small multiples of a power of two), a custom
// atomicMax/atomicMin on float and an atomic multiply on double, both built
// from atomicCAS loops on the bit patterns.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O2 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
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

__device__ float atomicMaxFloat(float *addr, float value) {
  int *iaddr = (int *)addr;
  int old = *iaddr, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value)
      break;
    old = atomicCAS(iaddr, assumed, __float_as_int(value));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ float atomicMinFloat(float *addr, float value) {
  int *iaddr = (int *)addr;
  int old = *iaddr, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) <= value)
      break;
    old = atomicCAS(iaddr, assumed, __float_as_int(value));
  } while (old != assumed);
  return __int_as_float(old);
}

__device__ double atomicMulDouble(double *addr, double factor) {
  unsigned long long *uaddr = (unsigned long long *)addr;
  unsigned long long old = *uaddr, assumed;
  do {
    assumed = old;
    old = atomicCAS(uaddr, assumed,
                    __double_as_longlong(__longlong_as_double(assumed) * factor));
  } while (old != assumed);
  return __longlong_as_double(old);
}

__host__ __device__ float sampleOf(int i) {
  // Multiples of 1/8 in [-4, 4): with n = 400000 every partial sum, in any
  // order, stays below 2^21 in magnitude and is therefore exact in float.
  return (float)((i * 37) % 64 - 32) * 0.125f;
}

__global__ void floatAtomics(float *fsum, double *dsum, float *fmax,
                             float *fmin, double *prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = sampleOf(i);
  atomicAdd(fsum, v);
  atomicAdd(dsum, (double)v * 0.5);
  atomicMaxFloat(fmax, v * 1.5f + (float)(i % 3));
  atomicMinFloat(fmin, v * 1.5f - (float)(i % 5));
  if (i < 60) // powers of two keep the product exact in any order
    atomicMulDouble(prod, (i % 3 == 0) ? 2.0 : ((i % 3 == 1) ? 0.5 : -1.0));
}

int main() {
  const int n = 400000;
  float hfsum = 0.0f, hfmax = -1e30f, hfmin = 1e30f;
  double hdsum = 0.25, hprod = 3.0;
  float *dfsum, *dfmax, *dfmin;
  double *ddsum, *dprod;
  CUDA_CHECK(cudaMalloc(&dfsum, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dfmax, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dfmin, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&ddsum, sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dprod, sizeof(double)));
  CUDA_CHECK(cudaMemcpy(dfsum, &hfsum, sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dfmax, &hfmax, sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dfmin, &hfmin, sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(ddsum, &hdsum, sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dprod, &hprod, sizeof(double), cudaMemcpyHostToDevice));
  floatAtomics<<<(n + 255) / 256, 256>>>(dfsum, ddsum, dfmax, dfmin, dprod, n);
  CUDA_CHECK(cudaGetLastError());

  float rfsum, rfmax, rfmin;
  double rdsum, rprod;
  CUDA_CHECK(cudaMemcpy(&rfsum, dfsum, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rfmax, dfmax, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rfmin, dfmin, sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rdsum, ddsum, sizeof(double), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&rprod, dprod, sizeof(double), cudaMemcpyDeviceToHost));

  double efsum = 0.0;
  for (int i = 0; i < n; ++i) {
    float v = sampleOf(i);
    efsum += v;
    hdsum += (double)v * 0.5;
    float mx = v * 1.5f + (float)(i % 3), mn = v * 1.5f - (float)(i % 5);
    hfmax = mx > hfmax ? mx : hfmax;
    hfmin = mn < hfmin ? mn : hfmin;
    if (i < 60)
      hprod *= (i % 3 == 0) ? 2.0 : ((i % 3 == 1) ? 0.5 : -1.0);
  }
  hfsum = (float)efsum;
  if (rfsum != hfsum || rdsum != hdsum || rfmax != hfmax || rfmin != hfmin ||
      rprod != hprod) {
    printf("float sum %f (exp %f), double sum %f (exp %f), max %f (exp %f), "
           "min %f (exp %f), product %f (exp %f)\n",
           rfsum, hfsum, rdsum, hdsum, rfmax, hfmax, rfmin, hfmin, rprod,
           hprod);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(dfsum));
  CUDA_CHECK(cudaFree(dfmax));
  CUDA_CHECK(cudaFree(dfmin));
  CUDA_CHECK(cudaFree(ddsum));
  CUDA_CHECK(cudaFree(dprod));
  printf("PASSED\n");
  return 0;
}

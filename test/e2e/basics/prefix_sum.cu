// Inclusive prefix sum by repeated kernel launches (Hillis-Steele): each
// launch adds the element `offset` positions back, ping-ponging between two
// buffers; launches on the default stream are ordered, so no barrier is
// needed inside a kernel.
// RUN: %respec -x cu -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -x cu -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -x cu -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
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

__global__ void scanStep(const long long *in, long long *out, int n,
                         int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = i >= offset ? in[i] + in[i - offset] : in[i];
}

int main() {
  const int n = 200003;
  long long *h = (long long *)malloc(n * sizeof(long long));
  long long *res = (long long *)malloc(n * sizeof(long long));
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37) % 101 - 50;

  long long *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(long long)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(a, h, n * sizeof(long long), cudaMemcpyHostToDevice));
  int launches = 0;
  for (int offset = 1; offset < n; offset *= 2) {
    scanStep<<<(n + 255) / 256, 256>>>(a, b, n, offset);
    CUDA_CHECK(cudaGetLastError());
    long long *t = a;
    a = b;
    b = t;
    ++launches;
  }
  CUDA_CHECK(cudaMemcpy(res, a, n * sizeof(long long), cudaMemcpyDeviceToHost));
  if (launches != 18) {
    printf("unexpected number of launches %d\n", launches);
    printf("FAILED\n");
    return 1;
  }
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += h[i];
    if (res[i] != sum) {
      printf("mismatch at %d: got %lld, expected %lld\n", i, res[i], sum);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  free(h);
  free(res);
  printf("PASSED\n");
  return 0;
}

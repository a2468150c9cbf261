// Linear memory API: cudaMemset with byte patterns (whole buffers and
// sub-ranges at odd offsets), cudaMemcpy HostToDevice, DeviceToDevice
// (including overlapping-free sub-range copies), DeviceToHost, and
// cudaMemcpyDefault in every direction, with a kernel in between.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O1 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O1 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void addIndex(unsigned char *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = (unsigned char)(p[i] + i);
}

static int check(const char *what, const unsigned char *got,
                 const unsigned char *exp, int n) {
  for (int i = 0; i < n; ++i)
    if (got[i] != exp[i]) {
      printf("%s: byte %d is 0x%02x, expected 0x%02x\n", what, i, got[i],
             exp[i]);
      printf("FAILED\n");
      return 1;
    }
  return 0;
}

int main() {
  const int n = 1 << 20;
  unsigned char *ref = (unsigned char *)malloc(n);
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned char *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n));
  CUDA_CHECK(cudaMalloc(&b, n));

  // memset whole buffer, then a sub-range at an odd offset and length
  CUDA_CHECK(cudaMemset(a, 0x5A, n));
  CUDA_CHECK(cudaMemset(a + 1001, 0xC3, 77777));
  CUDA_CHECK(cudaMemset(a + 500000, 0, 3));
  memset(ref, 0x5A, n);
  memset(ref + 1001, 0xC3, 77777);
  memset(ref + 500000, 0, 3);
  CUDA_CHECK(cudaMemcpy(h, a, n, cudaMemcpyDeviceToHost));
  if (check("cudaMemset", h, ref, n))
    return 1;

  // kernel, then device-to-device copies: whole and sub-range
  addIndex<<<(n + 255) / 256, 256>>>(a, n);
  CUDA_CHECK(cudaGetLastError());
  for (int i = 0; i < n; ++i)
    ref[i] = (unsigned char)(ref[i] + i);
  CUDA_CHECK(cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpy(b + 3, a + 200003, 65537, cudaMemcpyDeviceToDevice));
  unsigned char *refB = (unsigned char *)malloc(n);
  memcpy(refB, ref, n);
  memcpy(refB + 3, ref + 200003, 65537);
  CUDA_CHECK(cudaMemcpy(h, b, n, cudaMemcpyDeviceToHost));
  if (check("cudaMemcpyDeviceToDevice", h, refB, n))
    return 1;

  // cudaMemcpyDefault infers the direction from the pointers (unified
  // addressing): host->device, device->device, device->host.
  for (int i = 0; i < n; ++i)
    h[i] = (unsigned char)(i * 13 + 7);
  CUDA_CHECK(cudaMemcpy(a, h, n, cudaMemcpyDefault));
  CUDA_CHECK(cudaMemcpy(b, a, n / 2, cudaMemcpyDefault));
  unsigned char *back = (unsigned char *)malloc(n);
  memset(back, 0, n);
  CUDA_CHECK(cudaMemcpy(back, b, n / 2, cudaMemcpyDefault));
  if (check("cudaMemcpyDefault", back, h, n / 2))
    return 1;
  // the second half of b still holds the old device-to-device contents
  CUDA_CHECK(cudaMemcpy(back, b, n, cudaMemcpyDeviceToHost));
  if (check("cudaMemcpyDefault (untouched half)", back + n / 2, refB + n / 2,
            n / 2))
    return 1;

  // a zero-byte copy and memset are valid no-ops
  CUDA_CHECK(cudaMemcpy(a, h, 0, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(a, 0, 0));

  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  free(ref);
  free(refB);
  free(h);
  free(back);
  printf("PASSED\n");
  return 0;
}

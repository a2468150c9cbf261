// Device printf from a single thread with the common conversions: %d, %i,
// %u, %lld, %llu, %x, %X, %o, %c, %s, %f, %e, %g, field widths and
// precisions (%5.2f, %-6d|, %08x), and a literal %%. Lines are printed in
// order because only one thread prints.
// RUN: %respec -O0 %s -o %t && %t | FileCheck %s
// CHECK: ints: 42 -7 4000000000
// CHECK-NEXT: long: -1234567890123 18446744073709551615
// CHECK-NEXT: hex: ff DEADBEEF 000000ab 17
// CHECK-NEXT: char: [R] string: [respec] padded: [   ok]
// CHECK-NEXT: float: 3.141593 [ 2.50] [-0.12] 1.500000e+03 0.0001
// CHECK-NEXT: double: 2.718281828 width: [42    |] [  -9] 100%
// CHECK-NEXT: value computed on device: 55
// CHECK-NEXT: PASSED

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

__device__ const char *kName = "respec";

__global__ void report(int n, const int *data) {
  if (blockIdx.x != 1 || threadIdx.x != 3)
    return; // exactly one thread prints
  printf("ints: %d %i %u\n", 42, -7, 4000000000u);
  printf("long: %lld %llu\n", -1234567890123LL, 18446744073709551615ull);
  printf("hex: %x %X %08x %o\n", 255, 0xdeadbeefu, 0xab, 15);
  printf("char: [%c] string: [%s] padded: [%5s]\n", 'R', kName, "ok");
  printf("float: %f [%5.2f] [%5.2f] %e %g\n", 3.14159265f, 2.5f, -0.125f,
         1500.0, 0.0001);
  printf("double: %.9f width: [%-6d|] [%4d] 100%%\n", 2.718281828459045, 42,
         -9);
  int sum = 0;
  for (int i = 0; i < n; ++i)
    sum += data[i];
  printf("value computed on device: %d\n", sum);
}

int main() {
  int h[10];
  for (int i = 0; i < 10; ++i)
    h[i] = i + 1;
  int *d;
  CUDA_CHECK(cudaMalloc(&d, sizeof(h)));
  CUDA_CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  report<<<2, 8>>>(10, d);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize()); // device printf output is flushed here
  CUDA_CHECK(cudaFree(d));
  fflush(stdout);
  printf("PASSED\n");
  return 0;
}

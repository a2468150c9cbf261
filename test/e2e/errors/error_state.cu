// The sticky-free error state of the runtime API: cudaGetLastError returns
// and resets the last error, cudaPeekAtLastError returns it without
// resetting, cudaGetErrorString / cudaGetErrorName are non-null for success
// and error codes, and API calls with invalid arguments return errors
// (cudaFree of a pointer that was never allocated, cudaMemcpy with an
// invalid kind, cudaMalloc of an absurd size) without breaking later work.
// RUN: %respec -O0 %s -o %t && %t | FileCheck %s
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

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("%s:%d: expectation failed: %s\n", __FILE__, __LINE__, #cond);   \
      printf("FAILED\n");                                                     \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__global__ void doubleIt(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

int main() {
  // Success state and its strings.
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(cudaGetErrorString(cudaSuccess) != nullptr);
  EXPECT(cudaGetErrorName(cudaSuccess) != nullptr);
  EXPECT(strcmp(cudaGetErrorName(cudaSuccess), "cudaSuccess") == 0);
  const cudaError_t codes[] = {cudaErrorInvalidValue,
                               cudaErrorMemoryAllocation,
                               cudaErrorInvalidConfiguration,
                               cudaErrorInvalidDevicePointer,
                               cudaErrorInvalidMemcpyDirection,
                               cudaErrorNotReady};
  for (cudaError_t c : codes) {
    const char *s = cudaGetErrorString(c);
    EXPECT(s != nullptr && strlen(s) > 0);
    EXPECT(cudaGetErrorName(c) != nullptr);
  }
  EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration),
                "cudaErrorInvalidConfiguration") == 0);

  // A bad launch sets the last error; peek keeps it, get clears it.
  int *d;
  CUDA_CHECK(cudaMalloc(&d, 1000 * sizeof(int)));
  doubleIt<<<1, 4096>>>(d, 1000);
  EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
  EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
  EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
  EXPECT(cudaGetLastError() == cudaSuccess);
  EXPECT(cudaPeekAtLastError() == cudaSuccess);

  // cudaFree of a pointer that did not come from cudaMalloc.
  int stackVar = 0;
  cudaError_t e = cudaFree(&stackVar);
  EXPECT(e != cudaSuccess);
  cudaGetLastError();
  // cudaFree(nullptr) is a valid no-op.
  EXPECT(cudaFree(nullptr) == cudaSuccess);

  // An impossible allocation fails cleanly and leaves the pointer usable.
  void *huge = nullptr;
  e = cudaMalloc(&huge, (size_t)1 << 62);
  EXPECT(e == cudaErrorMemoryAllocation);
  cudaGetLastError();

  // An invalid copy direction.
  int h[1000];
  e = cudaMemcpy(h, d, sizeof(h), (cudaMemcpyKind)42);
  EXPECT(e != cudaSuccess);
  cudaGetLastError();

  // Everything still works afterwards.
  for (int i = 0; i < 1000; ++i)
    h[i] = i - 500;
  CUDA_CHECK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
  doubleIt<<<4, 256>>>(d, 1000);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 1000; ++i)
    EXPECT(h[i] == 2 * (i - 500));
  EXPECT(cudaGetLastError() == cudaSuccess);
  CUDA_CHECK(cudaFree(d));
  printf("PASSED\n");
  return 0;
}

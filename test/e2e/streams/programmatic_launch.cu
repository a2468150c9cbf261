// Programmatic dependent launch: a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization waits in
// cudaGridDependencySynchronize for the kernel before it, which triggers
// cudaTriggerProgrammaticLaunchCompletion part-way. The CPU runs a stream's
// kernels one after the other, so the wait always finds the data. Built
// with the toolkit's headers and with respec's own, and run with
// asynchronous launches.
// NVPTX: requires sm_90 (griddepcontrol)
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

__global__ void producer(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cudaTriggerProgrammaticLaunchCompletion();
  if (i < n)
    a[i] = i * 3;
}

__global__ void consumer(const int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int own = i * 2; // work before the wait, independent of the producer
  cudaGridDependencySynchronize();
  if (i < n)
    b[i] = a[i] + own;
}

int main() {
  const int n = 10000;
  int *a, *b;
  cudaMallocManaged(&a, n * sizeof(int));
  cudaMallocManaged(&b, n * sizeof(int));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int bad = 0;
  for (int round = 0; round < 3; ++round) {
    cudaMemsetAsync(a, 0, n * sizeof(int), stream);
    producer<<<(n + 255) / 256, 256, 0, stream>>>(a, n);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((n + 127) / 128);
    config.blockDim = dim3(128);
    config.stream = stream;
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    if (cudaLaunchKernelEx(&config, consumer, (const int *)a, b, n) !=
        cudaSuccess)
      ++bad;
    cudaStreamSynchronize(stream);
    for (int i = 0; i < n; ++i)
      bad += b[i] != i * 5;
  }
  printf(bad ? "FAILED (%d)\n" : "PASSED\n", bad);
  return bad != 0;
}

// Two .cu files and a .cpp file compiled separately with -c, then linked.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -c %s -o %t.dir/main.o
// RUN: %respec -c %S/Inputs/scale_kernel.cu -o %t.dir/scale_kernel.o
// RUN: %respec -c %S/Inputs/host_check.cpp -o %t.dir/host_check.o
// RUN: %respec %t.dir/main.o %t.dir/scale_kernel.o %t.dir/host_check.o -o %t.dir/app
// RUN: %t.dir/app | FileCheck %s
// And all sources in one command.
// RUN: %respec %s %S/Inputs/scale_kernel.cu %S/Inputs/host_check.cpp -o %t.dir/app2
// RUN: %t.dir/app2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

void launchScale(float *x, float s, int n);
bool checkResult(const float *x, int n);

__global__ void iota(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = i + 1.0f;
}

int main() {
  const int n = 1000;
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess)
    return 1;
  iota<<<(n + 127) / 128, 128>>>(d, n);
  launchScale(d, 3.0f, n);
  static float h[n];
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf(checkResult(h, n) ? "PASSED\n" : "FAILED\n");
  return 0;
}

// cudaLaunchKernelEx (CUDA 12's extensible launch, which Thrust uses):
// scheduling attributes are accepted and ignored, a cooperative launch runs
// (cudaErrorCooperativeLaunchTooLarge where its blocks cannot all run at
// once), clusters of more than one block fail with cudaErrorNotSupported.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: plain: cudaSuccess
// CHECK: priority: cudaSuccess
// CHECK: cooperative: cudaSuccess
// CHECK: cooperative, too large: cudaErrorCooperativeLaunchTooLarge
// CHECK: cluster: cudaErrorNotSupported
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

int main() {
  const int n = 1000;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) {
    hx[i] = i;
    hy[i] = 1;
  }
  float *x, *y;
  cudaMalloc(&x, sizeof hx);
  cudaMalloc(&y, sizeof hy);
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  cudaError_t plain = cudaLaunchKernelEx(&config, axpy, 2.0f, (const float *)x, y, n);
  printf("plain: %s\n", cudaGetErrorName(plain));

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = 0;
  config.attrs = attr;
  config.numAttrs = 1;
  cudaError_t priority = cudaLaunchKernelEx(&config, axpy, 1.0f, (const float *)x, y, n);
  printf("priority: %s\n", cudaGetErrorName(priority));

  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaError_t cooperative = cudaLaunchKernelEx(&config, axpy, 10.0f, (const float *)x, y, n);
  printf("cooperative: %s\n", cudaGetErrorName(cooperative));
  config.gridDim = dim3(1 << 20);
  printf("cooperative, too large: %s\n",
         cudaGetErrorName(cudaLaunchKernelEx(&config, axpy, 100.0f, (const float *)x, y, n)));
  config.gridDim = dim3((n + 127) / 128);
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  printf("cluster: %s\n",
         cudaGetErrorName(cudaLaunchKernelEx(&config, axpy, 100.0f, (const float *)x, y, n)));
  cudaGetLastError();

  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  bool ok = plain == cudaSuccess && priority == cudaSuccess &&
            cooperative == cudaSuccess;
  for (int i = 0; i < n; ++i)
    ok &= hy[i] == 1.0f + 13.0f * i; // the refused launches changed nothing
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// -MD/-MMD write a Make dependency file while compiling, as nvcc and gcc do:
// default name next to the object, -MF, -MT, -MP, and -MMD without system
// headers; a .cpp host source gets one too.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -c -MD %s -I%S/Inputs -o %t.dir/kernel.o
// RUN: FileCheck %s --check-prefix=MD < %t.dir/kernel.d
// MD: kernel.o: \
// MD-NEXT: dependency-file.cu
// MD-DAG: cuda_runtime.h
// MD-DAG: Inputs/dep_header.h
// RUN: %respec -c -MMD -MP -MF %t.dir/custom.d -MT custom-target %s -I%S/Inputs -o %t.dir/k2.o
// RUN: FileCheck %s --check-prefix=MMD < %t.dir/custom.d
// MMD: custom-target: {{.*}}dependency-file.cu
// MMD-NOT: cuda_runtime.h
// MMD: Inputs/dep_header.h
// MMD-NOT: cuda_runtime.h
// MMD: Inputs/dep_header.h:
// RUN: %respec -c -MD %S/Inputs/host_check.cpp -o %t.dir/host.o
// RUN: FileCheck %s --check-prefix=HOST < %t.dir/host.d
// HOST: host.o: \
// HOST-NEXT: host_check.cpp
// And the object still works.
// RUN: %respec %t.dir/kernel.o %t.dir/host.o -o %t.dir/app && %t.dir/app | FileCheck %s --check-prefix=APP
// RUN: not %respec -c -MD -MF %t.dir/x.d %s %S/Inputs/host_check.cpp 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: -MF takes one source file
// APP-NOT: FAILED
// APP: PASSED

#include "dep_header.h"
#include <cstdio>
#include <cuda_runtime.h>

bool checkResult(const float *x, int n);

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = DEP_SCALE * i;
}

int main() {
  const int n = 100;
  float *d, h[n];
  cudaMalloc(&d, n * sizeof(float));
  scale<<<1, 128>>>(d, n);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok &= h[i] == DEP_SCALE * i;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// Calling an extern __device__ function defined in another translation unit
// needs relocatable device code, which respec does not support yet.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

extern __device__ int other(int);

__global__ void useOther(int *x) {
  // CHECK: {{.*}}diag-extern-device.cu:[[@LINE+1]]:{{[0-9]+}}: error: device function 'other(int)' is declared but not defined in this translation unit; respec does not support separate compilation of device code (-rdc) yet
  x[0] = other(x[0]);
}

int main() { return 0; }

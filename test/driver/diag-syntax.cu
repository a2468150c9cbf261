// A C++ error in a .cu file is clang's diagnostic with file and line.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void broken(int *x) {
  // CHECK: {{.*}}diag-syntax.cu:[[@LINE+1]]:20: error: use of undeclared identifier 'undeclared_name'
  x[threadIdx.x] = undeclared_name + 1;
}

int main() { return 0; }

// Second translation unit of same_static_name.cu: a static kernel and a
// static __constant__ with the same names as in the first TU, but different
// behaviour, plus a uniquely named __constant__ table.
#include <cuda_runtime.h>

static __constant__ int table[4] = {100, 200, 300, 400};
__constant__ int tableOfB[3] = {-1, -2, -3};

static __global__ void transform(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = d[i] * 3 + table[i % 4] + tableOfB[i % 3];
}

cudaError_t runTransformB(int *d, int n) {
  transform<<<(n + 127) / 128, 128>>>(d, n);
  return cudaGetLastError();
}

cudaError_t setTableB(const int *values) {
  return cudaMemcpyToSymbol(table, values, 4 * sizeof(int));
}

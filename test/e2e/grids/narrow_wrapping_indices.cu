// Short tables indexed by a thread index that wraps within a few lanes
// (`lut[threadIdx.x & 7]`, `% 8`, `% 16`) in kernels whose block size is a
// run-time value: LLVM 22's loop vectorizer, not knowing the trip count,
// read such a table as 16 consecutive elements (threads 8-15 of every 16
// read past an 8-entry table). respec turns vectorization off for such
// loops (GuardWrappingIndicesPass). Tables in global, __constant__,
// shared, local and by-value parameter memory, a bounds-checked store, a
// wrap of the global index, and masks of 16 and 32 (which LLVM gets
// right); each with several block sizes read from the command line, also
// with every optimization off. The host checks every element.
// RUN: %respec -O2 %s -o %t
// RUN: %t 256 | FileCheck %s
// RUN: %t 100 | FileCheck %s
// RUN: %t 1024 | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.off && %t.off 512 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

__constant__ int constantTable[8];

struct Table8 {
  int values[8];
};

__global__ void globalAnd(const int *table, int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x & 7];
}

__global__ void globalMod(const int *table, int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = table[threadIdx.x % 8];
}

__global__ void guardedMod(const int *table, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[threadIdx.x % 8];
}

__global__ void constantMod(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = constantTable[threadIdx.x % 8];
}

__global__ void parameterMod(Table8 table, int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = table.values[threadIdx.x % 8];
}

__global__ void sharedMod(const int *table, int *out) {
  __shared__ int staged[8];
  if (threadIdx.x < 8)
    staged[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = staged[threadIdx.x % 8];
}

__global__ void localMod(int *out) {
  int local[8] = {1, 12, 23, 34, 45, 56, 67, 78};
  out[blockIdx.x * blockDim.x + threadIdx.x] = local[threadIdx.x % 8];
}

__global__ void globalIndexMod(const int *table, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = table[i % 8];
}

__global__ void wideMasks(const int *table, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = table[threadIdx.x & 15] + 1000 * table[32 + (threadIdx.x & 31)];
}

int main(int argc, char **argv) {
  int block = argc > 1 ? std::atoi(argv[1]) : 256;
  const int blocks = 3;
  int n = blocks * block;
  std::vector<int> table(64);
  for (int i = 0; i < 64; ++i)
    table[i] = i * 11 + 1;
  const int localTable[8] = {1, 12, 23, 34, 45, 56, 67, 78};
  Table8 parameter;
  for (int i = 0; i < 8; ++i)
    parameter.values[i] = table[i];
  cudaMemcpyToSymbol(constantTable, table.data(), 8 * sizeof(int));
  int *dTable, *dOut;
  cudaMalloc(&dTable, 64 * sizeof(int));
  cudaMalloc(&dOut, n * sizeof(int));
  cudaMemcpy(dTable, table.data(), 64 * sizeof(int), cudaMemcpyHostToDevice);

  const char *names[] = {"globalAnd",   "globalMod",      "guardedMod",
                         "constantMod", "parameterMod",   "sharedMod",
                         "localMod",    "globalIndexMod", "wideMasks"};
  std::vector<int> out(n);
  int failures = 0;
  for (int kernel = 0; kernel < 9; ++kernel) {
    cudaMemset(dOut, 0, n * sizeof(int));
    switch (kernel) {
    case 0: globalAnd<<<blocks, block>>>(dTable, dOut); break;
    case 1: globalMod<<<blocks, block>>>(dTable, dOut); break;
    case 2: guardedMod<<<blocks, block>>>(dTable, dOut, n); break;
    case 3: constantMod<<<blocks, block>>>(dOut); break;
    case 4: parameterMod<<<blocks, block>>>(parameter, dOut); break;
    case 5: sharedMod<<<blocks, block>>>(dTable, dOut); break;
    case 6: localMod<<<blocks, block>>>(dOut); break;
    case 7: globalIndexMod<<<blocks, block>>>(dTable, dOut); break;
    case 8: wideMasks<<<blocks, block>>>(dTable, dOut); break;
    }
    cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      int t = i % block;
      int want = kernel == 6   ? localTable[t % 8]
                 : kernel == 7 ? table[i % 8]
                 : kernel == 8 ? table[t & 15] + 1000 * table[32 + (t & 31)]
                               : table[t % 8];
      if (out[i] != want && ++wrong <= 3)
        std::printf("%s: out[%d] = %d, want %d\n", names[kernel], i, out[i],
                    want);
    }
    failures += wrong;
  }
  if (failures) {
    std::printf("FAILED: %d wrong\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

// A `#pragma unroll` that cannot be honoured (a barrier in a loop whose
// trip count is known only at run time) is ignored silently, as nvcc does;
// clang warns "loop not unrolled" at such loops, several of them in CUB's
// radix sort.
// RUN: %respec -c %s -o %t.o 2>&1 | FileCheck %s --allow-empty
// CHECK-NOT: warning

__global__ void smooth(float *data, int passes) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = data[i];
#pragma unroll
  for (int pass = 0; pass < passes; ++pass) {
    __syncthreads();
    float next = tile[(threadIdx.x + 1) % 256];
    __syncthreads();
    tile[threadIdx.x] += next;
  }
  data[i] = tile[threadIdx.x];
}

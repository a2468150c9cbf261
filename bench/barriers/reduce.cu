// Block-wise sum in shared memory (tree reduction, one barrier per level).
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void blockSum(const float *in, float *out) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (int k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  const long n = 1L << 24, blocks = n / BLOCK;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, blocks * sizeof(float));
  for (long i = 0; i < n; ++i)
    in[i] = benchInput(i);
  timeIt("reduce", 10, [&] {
    blockSum<<<blocks, BLOCK>>>(in, out);
    cudaDeviceSynchronize();
  });
  std::printf("checksum=%.3f\n", checksum(out, blocks));
  return 0;
}

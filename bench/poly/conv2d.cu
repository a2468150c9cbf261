// CONV2D: a 3x3 convolution of an n x n image, as PolyBench/GPU's 2DCONV
// writes it: one thread per output pixel, 32x8 blocks, the border left as
// it is.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

__global__ void conv2d(const float *in, float *out, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;
  const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  const float c13 = +0.4f, c23 = +0.7f, c33 = +0.1f;
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
    out[i * n + j] =
        c11 * in[(i - 1) * n + (j - 1)] + c21 * in[(i - 1) * n + j] +
        c31 * in[(i - 1) * n + (j + 1)] + c12 * in[i * n + (j - 1)] +
        c22 * in[i * n + j] + c32 * in[i * n + (j + 1)] +
        c13 * in[(i + 1) * n + (j - 1)] + c23 * in[(i + 1) * n + j] +
        c33 * in[(i + 1) * n + (j + 1)];
}

int main() {
  const int n = SIZE;
  const size_t bytes = (size_t)n * n * sizeof(float);
  std::vector<float> in = makeUniform<float>((size_t)n * n, 401, 1.0);
  std::vector<float> out((size_t)n * n);
  float *dIn, *dOut;
  cudaMalloc(&dIn, bytes);
  cudaMalloc(&dOut, bytes);
  cudaMemcpy(dIn, in.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemset(dOut, 0, bytes);
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (n + 7) / 8);
  timeIt([&] {
    conv2d<<<grid, block>>>(dIn, dOut, n);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(out.data(), dOut, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(out));
  cudaFree(dIn);
  cudaFree(dOut);
  return 0;
}

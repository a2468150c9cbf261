// LU: LU decomposition without pivoting of an n x n matrix (diagonally
// dominant), as PolyBench/GPU writes it: per pivot k, one launch scales
// row k right of the diagonal (a thread per column) and one updates the
// trailing submatrix (a thread per element, 32x8 blocks, `if (i > k &&
// j > k)`). The grids stay the same for every k, so their leading blocks
// run out of work as k grows.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 1024
#endif

__global__ void scaleRow(float *a, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n)
    a[k * n + j] = a[k * n + j] / a[k * n + k];
}

__global__ void updateTrailing(float *a, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > k && j > k && i < n && j < n)
    a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
}

int main() {
  const int n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)n * n, 441, 1.0);
  for (int i = 0; i < n; ++i)
    a[(size_t)i * n + i] += n;
  std::vector<float> lu(a.size());
  float *dA;
  cudaMalloc(&dA, a.size() * sizeof(float));
  timeIt(
      [&] {
        cudaMemcpy(dA, a.data(), a.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
      },
      [&] {
        dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
        for (int k = 0; k < n; ++k) {
          scaleRow<<<(n + 255) / 256, 256>>>(dA, k, n);
          updateTrailing<<<grid, block>>>(dA, k, n);
        }
        cudaDeviceSynchronize();
      });
  cudaMemcpy(lu.data(), dA, lu.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(lu));
  return 0;
}

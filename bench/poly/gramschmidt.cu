// GRAMSCHMIDT: QR decomposition of an m x n matrix by modified Gram-Schmidt,
// as PolyBench/GPU writes it: three launches per column k, the norm of
// column k (one thread walks the column), its normalization (a thread per
// row) and the update of the columns right of k (a thread per column j > k
// walks its column twice). The last kernel's grid is the same for every k,
// so its leading blocks run out of work as k grows.
#include "../sci/common.h"

#include <cmath>

#ifndef SIZE
#define SIZE 512
#endif

__global__ void columnNorm(const float *a, float *r, int k, int m, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    float norm = 0.0f;
    for (int i = 0; i < m; ++i)
      norm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrtf(norm);
  }
}

__global__ void normalize(const float *a, const float *r, float *q, int k,
                          int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__global__ void updateRight(float *a, float *r, const float *q, int k, int m,
                            int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n) {
    float dot = 0.0f;
    for (int i = 0; i < m; ++i)
      dot += q[i * n + k] * a[i * n + j];
    r[k * n + j] = dot;
    for (int i = 0; i < m; ++i)
      a[i * n + j] -= q[i * n + k] * dot;
  }
}

int main() {
  const int m = SIZE, n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)m * n, 431, 1.0);
  std::vector<float> q((size_t)m * n);
  float *dA, *dR, *dQ;
  cudaMalloc(&dA, a.size() * sizeof(float));
  cudaMalloc(&dR, (size_t)n * n * sizeof(float));
  cudaMalloc(&dQ, q.size() * sizeof(float));
  timeIt(
      [&] {
        cudaMemcpy(dA, a.data(), a.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
      },
      [&] {
        for (int k = 0; k < n; ++k) {
          columnNorm<<<1, 256>>>(dA, dR, k, m, n);
          normalize<<<(m + 255) / 256, 256>>>(dA, dR, dQ, k, m, n);
          updateRight<<<(n + 255) / 256, 256>>>(dA, dR, dQ, k, m, n);
        }
        cudaDeviceSynchronize();
      });
  cudaMemcpy(q.data(), dQ, q.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(q));
  return 0;
}

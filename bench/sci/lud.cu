// LUD: in-place LU decomposition without pivoting (A = L U, L unit lower
// triangular) of a diagonally dominant n x n matrix, blocked with 16x16
// tiles. For each diagonal tile k: `ludDiagonal` factors the tile (one
// block, a thread per row, a barrier per elimination step); `ludPerimeter`
// computes the tiles right of it (U = L_kk^-1 A, forward substitution, a
// thread per column) and below it (L = A U_kk^-1, a thread per row);
// `ludInternal` updates the trailing submatrix A -= L U, one 16x16 tile per
// block, the L and U tiles staged in shared memory.
#include "common.h"
#include <cuda_runtime.h>

#ifndef SIZE
#define SIZE 1024
#endif
#define BS 16

__global__ void ludDiagonal(float *a, int n, int k0) {
  __shared__ float d[BS][BS];
  int t = threadIdx.x;
  for (int j = 0; j < BS; ++j)
    d[t][j] = a[(size_t)(k0 + t) * n + k0 + j];
  __syncthreads();
  for (int k = 0; k < BS - 1; ++k) {
    if (t > k) {
      float l = d[t][k] / d[k][k];
      d[t][k] = l;
      for (int j = k + 1; j < BS; ++j)
        d[t][j] -= l * d[k][j];
    }
    __syncthreads();
  }
  for (int j = 0; j < BS; ++j)
    a[(size_t)(k0 + t) * n + k0 + j] = d[t][j];
}

// Block b handles tile (k, k + 1 + b) of U with threads 0..BS-1 and tile
// (k + 1 + b, k) of L with threads BS..2BS-1.
__global__ void ludPerimeter(float *a, int n, int k0) {
  __shared__ float d[BS][BS], u[BS][BS], l[BS][BS];
  int t = threadIdx.x;
  int j0 = k0 + BS * (blockIdx.x + 1);
  if (t < BS) {
    for (int i = 0; i < BS; ++i) {
      d[i][t] = a[(size_t)(k0 + i) * n + k0 + t];
      u[i][t] = a[(size_t)(k0 + i) * n + j0 + t];
    }
  } else {
    int c = t - BS;
    for (int i = 0; i < BS; ++i)
      l[i][c] = a[(size_t)(j0 + i) * n + k0 + c];
  }
  __syncthreads();
  if (t < BS) {
    // Column t of U: forward substitution with the unit lower triangle.
    for (int i = 1; i < BS; ++i) {
      float s = u[i][t];
      for (int m = 0; m < i; ++m)
        s -= d[i][m] * u[m][t];
      u[i][t] = s;
    }
    for (int i = 0; i < BS; ++i)
      a[(size_t)(k0 + i) * n + j0 + t] = u[i][t];
  } else {
    // Row r of L: solve x U_kk = row.
    int r = t - BS;
    for (int j = 0; j < BS; ++j) {
      float s = l[r][j];
      for (int m = 0; m < j; ++m)
        s -= l[r][m] * d[m][j];
      l[r][j] = s / d[j][j];
    }
    for (int j = 0; j < BS; ++j)
      a[(size_t)(j0 + r) * n + k0 + j] = l[r][j];
  }
}

// Block (bx, by) updates tile (k + 1 + by, k + 1 + bx).
__global__ void ludInternal(float *a, int n, int k0) {
  __shared__ float l[BS][BS], u[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = k0 + BS * (blockIdx.y + 1) + ty, j = k0 + BS * (blockIdx.x + 1) + tx;
  l[ty][tx] = a[(size_t)i * n + k0 + tx];
  u[ty][tx] = a[(size_t)(k0 + ty) * n + j];
  __syncthreads();
  float s = 0.0f;
  for (int m = 0; m < BS; ++m)
    s += l[ty][m] * u[m][tx];
  a[(size_t)i * n + j] -= s;
}

int main() {
  const int n = SIZE;
  std::vector<float> a0 = makeLudMatrix(n), a(a0.size());
  size_t bytes = a0.size() * sizeof(float);
  float *dA0, *dA;
  cudaMalloc(&dA0, bytes);
  cudaMalloc(&dA, bytes);
  cudaMemcpy(dA0, a0.data(), bytes, cudaMemcpyHostToDevice);
  const int nb = n / BS;
  timeIt([&] { cudaMemcpy(dA, dA0, bytes, cudaMemcpyDeviceToDevice); },
         [&] {
           for (int kb = 0; kb < nb; ++kb) {
             int k0 = kb * BS, rest = nb - kb - 1;
             ludDiagonal<<<1, BS>>>(dA, n, k0);
             if (rest > 0) {
               ludPerimeter<<<rest, 2 * BS>>>(dA, n, k0);
               ludInternal<<<dim3(rest, rest), dim3(BS, BS)>>>(dA, n, k0);
             }
           }
           cudaDeviceSynchronize();
         });
  cudaMemcpy(a.data(), dA, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(a));
  cudaFree(dA0);
  cudaFree(dA);
  return 0;
}

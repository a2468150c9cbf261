// SRAD: speckle-reducing anisotropic diffusion of an ultrasound-like image
// (Yu and Acton). Each iteration: the image's mean and variance give the
// speckle scale q0^2 (`imageStats`: per-block sums in shared memory, tree
// reductions; `finishStats`: one block sums the blocks' partials); the
// diffusion coefficient of each pixel from its four differences
// (`sradCoefficient`, which keeps the differences); the divergence update
// (`sradUpdate`, which needs the coefficients of the south and east
// neighbours). Neighbours beyond the image are the pixel itself.
#include "common.h"
#include <cuda_runtime.h>

#ifndef ROWS
#define ROWS 2048
#endif
#ifndef COLS
#define COLS 2048
#endif
#ifndef ITERS
#define ITERS 6
#endif
#define LAMBDA 0.5f
#define BLOCK 256
#define TILE 16

__global__ void imageStats(const float *J, size_t n, double *partial) {
  __shared__ double s1[BLOCK], s2[BLOCK];
  int t = threadIdx.x;
  size_t i = (size_t)blockIdx.x * BLOCK + t;
  double v = i < n ? J[i] : 0.0;
  s1[t] = v;
  s2[t] = v * v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s1[t] += s1[t + stride];
      s2[t] += s2[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    partial[2 * blockIdx.x] = s1[0];
    partial[2 * blockIdx.x + 1] = s2[0];
  }
}

__global__ void finishStats(const double *partial, int blocks, size_t n,
                            float *q0sq) {
  __shared__ double s1[BLOCK], s2[BLOCK];
  int t = threadIdx.x;
  double a = 0.0, b = 0.0;
  for (int k = t; k < blocks; k += BLOCK) {
    a += partial[2 * k];
    b += partial[2 * k + 1];
  }
  s1[t] = a;
  s2[t] = b;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s1[t] += s1[t + stride];
      s2[t] += s2[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    double mean = s1[0] / n, var = s2[0] / n - mean * mean;
    *q0sq = (float)(var / (mean * mean));
  }
}

__global__ void sradCoefficient(const float *J, float *dN, float *dS, float *dW,
                                float *dE, float *C, int rows, int cols,
                                const float *q0sqPtr) {
  int col = blockIdx.x * TILE + threadIdx.x,
      row = blockIdx.y * TILE + threadIdx.y;
  if (row >= rows || col >= cols)
    return;
  float q0sq = *q0sqPtr;
  size_t k = (size_t)row * cols + col;
  float jc = J[k];
  float n = (row > 0 ? J[k - cols] : jc) - jc;
  float s = (row < rows - 1 ? J[k + cols] : jc) - jc;
  float w = (col > 0 ? J[k - 1] : jc) - jc;
  float e = (col < cols - 1 ? J[k + 1] : jc) - jc;
  float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  float l = (n + s + w + e) / jc;
  float num = 0.5f * g2 - 0.0625f * l * l;
  float den = 1.0f + 0.25f * l;
  float qsq = num / (den * den);
  den = (qsq - q0sq) / (q0sq * (1.0f + q0sq));
  float c = 1.0f / (1.0f + den);
  c = c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c;
  dN[k] = n;
  dS[k] = s;
  dW[k] = w;
  dE[k] = e;
  C[k] = c;
}

__global__ void sradUpdate(float *J, const float *dN, const float *dS,
                           const float *dW, const float *dE, const float *C,
                           int rows, int cols) {
  int col = blockIdx.x * TILE + threadIdx.x,
      row = blockIdx.y * TILE + threadIdx.y;
  if (row >= rows || col >= cols)
    return;
  size_t k = (size_t)row * cols + col;
  float cN = C[k], cW = C[k];
  float cS = row < rows - 1 ? C[k + cols] : C[k];
  float cE = col < cols - 1 ? C[k + 1] : C[k];
  float d = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
  J[k] += 0.25f * LAMBDA * d;
}

int main() {
  const int rows = ROWS, cols = COLS;
  const size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
  std::vector<float> img = makeImage(rows, cols);
  const int statBlocks = (int)((n + BLOCK - 1) / BLOCK);
  float *dImg, *dJ, *dN, *dS, *dW, *dE, *dC, *dQ0sq;
  double *dPartial;
  cudaMalloc(&dImg, bytes);
  cudaMalloc(&dJ, bytes);
  cudaMalloc(&dN, bytes);
  cudaMalloc(&dS, bytes);
  cudaMalloc(&dW, bytes);
  cudaMalloc(&dE, bytes);
  cudaMalloc(&dC, bytes);
  cudaMalloc(&dQ0sq, sizeof(float));
  cudaMalloc(&dPartial, 2 * statBlocks * sizeof(double));
  cudaMemcpy(dImg, img.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE),
      grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  timeIt([&] { cudaMemcpy(dJ, dImg, bytes, cudaMemcpyDeviceToDevice); },
         [&] {
           for (int it = 0; it < ITERS; ++it) {
             imageStats<<<statBlocks, BLOCK>>>(dJ, n, dPartial);
             finishStats<<<1, BLOCK>>>(dPartial, statBlocks, n, dQ0sq);
             sradCoefficient<<<grid, block>>>(dJ, dN, dS, dW, dE, dC, rows,
                                              cols, dQ0sq);
             sradUpdate<<<grid, block>>>(dJ, dN, dS, dW, dE, dC, rows, cols);
           }
           cudaDeviceSynchronize();
         });
  cudaMemcpy(img.data(), dJ, bytes, cudaMemcpyDeviceToHost);
  printChecksum(checksum(img));
  cudaFree(dImg);
  cudaFree(dJ);
  cudaFree(dN);
  cudaFree(dS);
  cudaFree(dW);
  cudaFree(dE);
  cudaFree(dC);
  cudaFree(dQ0sq);
  cudaFree(dPartial);
  return 0;
}

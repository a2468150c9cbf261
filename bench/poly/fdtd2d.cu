// FDTD2D: the 2-D finite-difference time-domain kernel of PolyBench/GPU's
// FDTD-2D: per time step three kernels (the ey field with its source row,
// ex, then hz), one thread per cell, 32x8 blocks.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 2048
#endif
#ifndef STEPS
#define STEPS 100
#endif

__global__ void updateEy(const float *fict, float *ey, const float *hz, int nx,
                         int ny, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0)
      ey[i * ny + j] = fict[t];
    else
      ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__global__ void updateEx(float *ex, const float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny && j > 0)
    ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__global__ void updateHz(const float *ex, const float *ey, float *hz, int nx,
                         int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + (j + 1)] -
                              ex[i * (ny + 1) + j] + ey[(i + 1) * ny + j] -
                              ey[i * ny + j]);
}

int main() {
  const int nx = SIZE, ny = SIZE;
  std::vector<float> fict(STEPS);
  for (int t = 0; t < STEPS; ++t)
    fict[t] = (float)t;
  std::vector<float> ex = makeUniform<float>((size_t)nx * (ny + 1), 411, 1.0);
  std::vector<float> ey = makeUniform<float>((size_t)(nx + 1) * ny, 412, 1.0);
  std::vector<float> hz = makeUniform<float>((size_t)nx * ny, 413, 1.0);
  float *dFict, *dEx, *dEy, *dHz;
  cudaMalloc(&dFict, fict.size() * sizeof(float));
  cudaMalloc(&dEx, ex.size() * sizeof(float));
  cudaMalloc(&dEy, ey.size() * sizeof(float));
  cudaMalloc(&dHz, hz.size() * sizeof(float));
  cudaMemcpy(dFict, fict.data(), fict.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  dim3 block(32, 8);
  dim3 grid((ny + 31) / 32, (nx + 7) / 8);
  timeIt(
      [&] {
        cudaMemcpy(dEx, ex.data(), ex.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
        cudaMemcpy(dEy, ey.data(), ey.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
        cudaMemcpy(dHz, hz.data(), hz.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
      },
      [&] {
        for (int t = 0; t < STEPS; ++t) {
          updateEy<<<grid, block>>>(dFict, dEy, dHz, nx, ny, t);
          updateEx<<<grid, block>>>(dEx, dHz, nx, ny);
          updateHz<<<grid, block>>>(dEx, dEy, dHz, nx, ny);
        }
        cudaDeviceSynchronize();
      });
  cudaMemcpy(hz.data(), dHz, hz.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  printChecksum(checksum(hz));
  return 0;
}

// HOTSPOT: transient temperature of a chip (n x n cells) under a power map,
// explicit Euler steps of the 2-D heat equation with a five-point stencil
// (lateral conduction to the four neighbours, vertical conduction to the
// ambient). One launch per time step; each 16x16 block stages its tile of
// temperatures plus a one-cell halo in shared memory. At the chip's edges
// the missing neighbour is the cell itself (no flux across the boundary).
#include "common.h"
#include <cuda_runtime.h>

#ifndef GRID
#define GRID 1024
#endif
#ifndef STEPS
#define STEPS 100
#endif
#define TILE 16

struct HotspotCoeffs {
  float cx, cy, cz, cp, ambient; // dt/(C Rx), dt/(C Ry), dt/(C Rz), dt/C
};

static HotspotCoeffs hotspotCoeffs(int n) {
  // Chip 0.016 m wide, 0.5 mm thick, silicon; the time step is a fraction
  // of the stability limit.
  const double width = 0.016, height = 0.016, thick = 0.0005;
  const double k = 100.0, cap = 1.75e6, ambientT = 80.0 + 273.15;
  double dx = width / n, dy = height / n;
  double c = cap * thick * dx * dy;
  double rx = dx / (k * thick * dy), ry = dy / (k * thick * dx);
  double rz = thick / (k * dx * dy) * 1000.0;
  double dt = 0.2 / (1.0 / rx + 1.0 / ry) * c / 2.0;
  HotspotCoeffs h;
  h.cx = (float)(dt / (c * rx));
  h.cy = (float)(dt / (c * ry));
  h.cz = (float)(dt / (c * rz));
  h.cp = (float)(dt / c);
  h.ambient = (float)ambientT;
  return h;
}

__global__ void hotspotStep(const float *temp, const float *power, float *next,
                            int n, HotspotCoeffs h) {
  __shared__ float t[TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
  size_t k = (size_t)row * n + col;
  float self = temp[k];
  t[ty + 1][tx + 1] = self;
  if (ty == 0)
    t[0][tx + 1] = row > 0 ? temp[k - n] : self;
  if (ty == TILE - 1)
    t[TILE + 1][tx + 1] = row < n - 1 ? temp[k + n] : self;
  if (tx == 0)
    t[ty + 1][0] = col > 0 ? temp[k - 1] : self;
  if (tx == TILE - 1)
    t[ty + 1][TILE + 1] = col < n - 1 ? temp[k + 1] : self;
  __syncthreads();
  float north = t[ty][tx + 1], south = t[ty + 2][tx + 1];
  float west = t[ty + 1][tx], east = t[ty + 1][tx + 2];
  next[k] = self + h.cp * power[k] + h.cy * (north + south - 2.0f * self) +
            h.cx * (east + west - 2.0f * self) + h.cz * (h.ambient - self);
}

int main() {
  const int n = GRID;
  std::vector<float> temp, power;
  makeChip(n, temp, power);
  HotspotCoeffs h = hotspotCoeffs(n);
  size_t bytes = (size_t)n * n * sizeof(float);
  float *dTemp0, *dTemp, *dNext, *dPower;
  cudaMalloc(&dTemp0, bytes);
  cudaMalloc(&dTemp, bytes);
  cudaMalloc(&dNext, bytes);
  cudaMalloc(&dPower, bytes);
  cudaMemcpy(dTemp0, temp.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dPower, power.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
  float *result = nullptr;
  timeIt([&] { cudaMemcpy(dTemp, dTemp0, bytes, cudaMemcpyDeviceToDevice); },
         [&] {
           float *a = dTemp, *b = dNext;
           for (int s = 0; s < STEPS; ++s) {
             hotspotStep<<<grid, block>>>(a, dPower, b, n, h);
             std::swap(a, b);
           }
           cudaDeviceSynchronize();
           result = a;
         });
  cudaMemcpy(temp.data(), result, bytes, cudaMemcpyDeviceToHost);
  // Temperatures are about 320 K: checksum their rise above 300 K.
  for (float &v : temp)
    v -= 300.0f;
  printChecksum(checksum(temp));
  cudaFree(dTemp0);
  cudaFree(dTemp);
  cudaFree(dNext);
  cudaFree(dPower);
  return 0;
}

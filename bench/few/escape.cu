// Escape-time iteration (Mandelbrot) over a 64 x 16 tile of the complex
// plane, one thread per point, launched as one block of 1024 threads: the
// per-thread loop's trip count depends on the point.
#include "common.h"
#include <vector>

#ifndef MAX_ITER
#define MAX_ITER 20000
#endif

__global__ void escape(float *out, int maxIter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float cr = -2.0f + 2.5f * (float)(i % 64) / 64.0f;
  float ci = -1.25f + 2.5f * (float)(i / 64) / 16.0f;
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (zr * zr + zi * zi < 4.0f && it < maxIter) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  out[i] = (float)it;
}

int main() {
  const int n = 1024;
  std::vector<float> host(n);
  float *out;
  cudaMalloc(&out, n * sizeof(float));
  timeIt("escape", 5, [&] {
    escape<<<1, n>>>(out, MAX_ITER);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("checksum=%.3f\n", checksum(host.data(), n));
  return 0;
}

// Mandelbrot escape-time image on a 2-D grid whose size is not a multiple
// of the block size. Device code contracts a*b+c into FMA as CUDA does by
// default (nvcc -fmad=true) when the CPU has FMA, and host code does not;
// the iteration is chaotic near the set's boundary, so a small fraction of
// differing pixels is tolerated. Compiled for a CPU without FMA, device and
// host arithmetic are identical and the images must match exactly.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec -O3 --cpu=x86-64 %s -o %t.nofma && %t.nofma exact | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O3 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O3 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

#define MAX_ITER 256

__host__ __device__ int escapeTime(float cr, float ci) {
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < MAX_ITER && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  return it;
}

__global__ void mandelbrot(unsigned char *img, int width, int height,
                           float x0, float y0, float dx, float dy) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height)
    return;
  int it = escapeTime(x0 + px * dx, y0 + py * dy);
  img[py * width + px] = (unsigned char)(it == MAX_ITER ? 0 : it % 255 + 1);
}

int main(int argc, char **argv) {
  const bool exact = argc > 1;
  const int width = 601, height = 403;
  const float x0 = -2.2f, y0 = -1.2f;
  const float dx = 3.2f / width, dy = 2.4f / height;
  unsigned char *img = (unsigned char *)malloc(width * height);
  unsigned char *d;
  CUDA_CHECK(cudaMalloc(&d, width * height));
  dim3 block(16, 8);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  mandelbrot<<<grid, block>>>(d, width, height, x0, y0, dx, dy);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(img, d, width * height, cudaMemcpyDeviceToHost));

  int differing = 0, inside = 0;
  for (int py = 0; py < height; ++py) {
    for (int px = 0; px < width; ++px) {
      int it = escapeTime(x0 + px * dx, y0 + py * dy);
      unsigned char e = (unsigned char)(it == MAX_ITER ? 0 : it % 255 + 1);
      if (e == 0)
        ++inside;
      if (img[py * width + px] != e)
        ++differing;
    }
  }
  // Sanity: a reasonable part of the view lies inside the set.
  if (inside < width * height / 10) {
    printf("reference has only %d interior pixels\n", inside);
    printf("FAILED\n");
    return 1;
  }
  if (differing > (exact ? 0 : width * height / 100)) {
    printf("%d of %d pixels differ from the host image\n", differing,
           width * height);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(d));
  free(img);
  printf("PASSED\n");
  return 0;
}

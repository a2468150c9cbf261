// Jacobi relaxation of the 2-D Laplace equation without shared memory:
// one kernel launch per sweep, ping-ponging between two grids with fixed
// boundary values. Compared with the same sweeps on the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

__global__ void jacobiStep(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny)
    return;
  int i = y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

int main() {
  const int nx = 258, ny = 190, sweeps = 50;
  const int size = nx * ny;
  float *a = (float *)calloc(size, sizeof(float));
  float *b = (float *)calloc(size, sizeof(float));
  for (int x = 0; x < nx; ++x) {
    a[x] = 100.0f;                      // hot top edge
    a[(ny - 1) * nx + x] = -20.0f;      // cold bottom edge
  }
  for (int y = 0; y < ny; ++y)
    a[y * nx] = a[y * nx + nx - 1] = (float)y * 0.5f;

  float *d0, *d1;
  CUDA_CHECK(cudaMalloc(&d0, size * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d1, size * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d0, a, size * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(32, 6);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  for (int s = 0; s < sweeps; ++s) {
    jacobiStep<<<grid, block>>>(d0, d1, nx, ny);
    CUDA_CHECK(cudaGetLastError());
    float *t = d0;
    d0 = d1;
    d1 = t;
  }
  float *res = (float *)malloc(size * sizeof(float));
  CUDA_CHECK(cudaMemcpy(res, d0, size * sizeof(float), cudaMemcpyDeviceToHost));

  for (int s = 0; s < sweeps; ++s) {
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        int i = y * nx + x;
        if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1)
          b[i] = a[i];
        else
          b[i] = 0.25f * (a[i - 1] + a[i + 1] + a[i - nx] + a[i + nx]);
      }
    float *t = a;
    a = b;
    b = t;
  }
  for (int i = 0; i < size; ++i) {
    if (fabsf(res[i] - a[i]) > 1e-4f * (1.0f + fabsf(a[i]))) {
      printf("mismatch at (%d,%d): got %f, expected %f\n", i % nx, i / nx,
             res[i], a[i]);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d0));
  CUDA_CHECK(cudaFree(d1));
  free(a);
  free(b);
  free(res);
  printf("PASSED\n");
  return 0;
}

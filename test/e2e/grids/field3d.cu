// Explicit diffusion step of a 3-D scalar field with a 7-point stencil, run
// on a 3-D grid of 3-D blocks (8x4x4 threads, gridDim.z > 1, partial blocks
// in every dimension). Integer field so the comparison is exact.
// RUN: %respec -O3 -g %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O3 -g %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O3 -g %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
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

__host__ __device__ inline int at(int x, int y, int z, int nx, int ny) {
  return (z * ny + y) * nx + x;
}

__host__ __device__ int stencil(const int *f, int x, int y, int z, int nx,
                                int ny, int nz) {
  int c = f[at(x, y, z, nx, ny)];
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1)
    return c;
  int sum = f[at(x - 1, y, z, nx, ny)] + f[at(x + 1, y, z, nx, ny)] +
            f[at(x, y - 1, z, nx, ny)] + f[at(x, y + 1, z, nx, ny)] +
            f[at(x, y, z - 1, nx, ny)] + f[at(x, y, z + 1, nx, ny)];
  return c + (sum - 6 * c) / 8;
}

__global__ void diffuse(const int *in, int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz)
    out[at(x, y, z, nx, ny)] = stencil(in, x, y, z, nx, ny, nz);
}

int main() {
  const int nx = 45, ny = 37, nz = 29, steps = 6;
  const int size = nx * ny * nz;
  int *a = (int *)malloc(size * sizeof(int));
  int *b = (int *)malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i)
    a[i] = (i * 2654435761u) % 10000;

  int *d0, *d1;
  CUDA_CHECK(cudaMalloc(&d0, size * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d1, size * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d0, a, size * sizeof(int), cudaMemcpyHostToDevice));
  dim3 block(8, 4, 4);
  dim3 grid((nx + 7) / 8, (ny + 3) / 4, (nz + 3) / 4);
  for (int s = 0; s < steps; ++s) {
    diffuse<<<grid, block>>>(d0, d1, nx, ny, nz);
    CUDA_CHECK(cudaGetLastError());
    int *t = d0;
    d0 = d1;
    d1 = t;
  }
  int *res = (int *)malloc(size * sizeof(int));
  CUDA_CHECK(cudaMemcpy(res, d0, size * sizeof(int), cudaMemcpyDeviceToHost));

  for (int s = 0; s < steps; ++s) {
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
          b[at(x, y, z, nx, ny)] = stencil(a, x, y, z, nx, ny, nz);
    int *t = a;
    a = b;
    b = t;
  }
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        int i = at(x, y, z, nx, ny);
        if (res[i] != a[i]) {
          printf("mismatch at (%d,%d,%d): got %d, expected %d\n", x, y, z,
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

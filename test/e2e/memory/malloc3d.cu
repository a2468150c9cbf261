// 3-D allocation and copies: cudaMalloc3D (pitched pointer with pitch >=
// row width), cudaMemcpy3D host->device from a packed host volume, a 3-D
// kernel addressing slices through pitch * ysize, and cudaMemcpy3D
// device->host of a sub-box with offsets on the device side.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// CHECK: PASSED

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

__global__ void scaleVolume(cudaPitchedPtr vol, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz)
    return;
  char *slice = (char *)vol.ptr + (size_t)z * vol.pitch * vol.ysize;
  int *row = (int *)(slice + (size_t)y * vol.pitch);
  row[x] = row[x] * 3 + x - y + z;
}

int main() {
  const int nx = 70, ny = 33, nz = 21;
  int *h = (int *)malloc(nx * ny * nz * sizeof(int));
  for (int i = 0; i < nx * ny * nz; ++i)
    h[i] = i % 1000;

  cudaExtent extent = make_cudaExtent(nx * sizeof(int), ny, nz);
  cudaPitchedPtr dvol;
  CUDA_CHECK(cudaMalloc3D(&dvol, extent));
  if (dvol.pitch < nx * sizeof(int) || dvol.ptr == nullptr) {
    printf("bad pitched pointer: pitch %zu\n", dvol.pitch);
    printf("FAILED\n");
    return 1;
  }

  cudaMemcpy3DParms up;
  memset(&up, 0, sizeof(up));
  up.srcPtr = make_cudaPitchedPtr(h, nx * sizeof(int), nx, ny);
  up.dstPtr = dvol;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  CUDA_CHECK(cudaMemcpy3D(&up));

  dim3 block(16, 4, 4);
  dim3 grid((nx + 15) / 16, (ny + 3) / 4, (nz + 3) / 4);
  scaleVolume<<<grid, block>>>(dvol, nx, ny, nz);
  CUDA_CHECK(cudaGetLastError());

  // Copy back the sub-box x in [5, 45), y in [2, 30), z in [1, 20) into a
  // packed host box.
  const int bx = 40, by = 28, bz = 19;
  int *box = (int *)malloc(bx * by * bz * sizeof(int));
  memset(box, 0xff, bx * by * bz * sizeof(int));
  cudaMemcpy3DParms down;
  memset(&down, 0, sizeof(down));
  down.srcPtr = dvol;
  down.srcPos = make_cudaPos(5 * sizeof(int), 2, 1);
  down.dstPtr = make_cudaPitchedPtr(box, bx * sizeof(int), bx, by);
  down.extent = make_cudaExtent(bx * sizeof(int), by, bz);
  down.kind = cudaMemcpyDeviceToHost;
  CUDA_CHECK(cudaMemcpy3D(&down));

  for (int z = 0; z < bz; ++z)
    for (int y = 0; y < by; ++y)
      for (int x = 0; x < bx; ++x) {
        int gx = x + 5, gy = y + 2, gz = z + 1;
        int e = h[(gz * ny + gy) * nx + gx] * 3 + gx - gy + gz;
        int got = box[(z * by + y) * bx + x];
        if (got != e) {
          printf("mismatch at (%d,%d,%d): got %d, expected %d\n", gx, gy, gz,
                 got, e);
          printf("FAILED\n");
          return 1;
        }
      }
  CUDA_CHECK(cudaFree(dvol.ptr));
  free(h);
  free(box);
  printf("PASSED\n");
  return 0;
}

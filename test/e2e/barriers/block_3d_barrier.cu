// 2-D and 3-D thread blocks (threadIdx.y / threadIdx.z) with barriers: each
// thread stores its value at its linear index in shared memory, barrier,
// reads its mirror in x and z and the column sum over z of its (x, y),
// barrier, writes a combination back, barrier, reads its y-neighbour. Block
// shapes (8,4,4), (10,6,3), (16,8,8), (32,32,1), (7,9,1), (1,1,64), (3,5,7)
// on a 3x2 grid. The host simulates every block.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
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

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}

__global__ void block3d(const int *in, int *out) {
  __shared__ int s[1024];
  int dx = blockDim.x, dy = blockDim.y, dz = blockDim.z;
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  int lin = x + dx * (y + dy * z);
  int nthreads = dx * dy * dz;
  int block = blockIdx.x + gridDim.x * blockIdx.y;
  int g = block * nthreads + lin;
  s[lin] = in[g];
  __syncthreads();
  int mirrored = s[(dx - 1 - x) + dx * (y + dy * (dz - 1 - z))];
  int cs = 0;
  for (int k = 0; k < dz; ++k)
    cs += s[x + dx * (y + dy * k)];
  __syncthreads();
  s[lin] = mirrored * 2 + cs;
  __syncthreads();
  out[g] = s[x + dx * (((y + 1) % dy) + dy * z)] - block;
}

int main() {
  const dim3 shapes[] = {dim3(8, 4, 4), dim3(10, 6, 3), dim3(16, 8, 8),
                         dim3(32, 32, 1), dim3(7, 9, 1), dim3(1, 1, 64),
                         dim3(3, 5, 7)};
  const dim3 grid(3, 2);
  int errors = 0;
  for (dim3 b : shapes) {
    int nt = b.x * b.y * b.z, nb = grid.x * grid.y, n = nt * nb;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(n * sizeof(int));
    int *s = (int *)malloc(nt * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 2000) - 1000;
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    block3d<<<grid, b>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(int), cudaMemcpyDeviceToHost));
    int dx = b.x, dy = b.y, dz = b.z;
    for (int blk = 0; blk < nb; ++blk) {
      const int *in = h + blk * nt;
      for (int z = 0; z < dz; ++z)
        for (int y = 0; y < dy; ++y)
          for (int x = 0; x < dx; ++x) {
            int cs = 0;
            for (int k = 0; k < dz; ++k)
              cs += in[x + dx * (y + dy * k)];
            s[x + dx * (y + dy * z)] =
                in[(dx - 1 - x) + dx * (y + dy * (dz - 1 - z))] * 2 + cs;
          }
      for (int z = 0; z < dz; ++z)
        for (int y = 0; y < dy; ++y)
          for (int x = 0; x < dx; ++x) {
            int lin = x + dx * (y + dy * z);
            int want = s[x + dx * (((y + 1) % dy) + dy * z)] - blk;
            if (got[blk * nt + lin] != want && ++errors <= 5)
              printf("block (%d,%d,%d): block %d thread (%d,%d,%d) = %d, "
                     "expected %d\n",
                     dx, dy, dz, blk, x, y, z, got[blk * nt + lin], want);
          }
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(s);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

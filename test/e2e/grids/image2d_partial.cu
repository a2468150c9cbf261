// 2-D image brightness/contrast adjustment with blocks of 13x7 threads over
// a 1000x517 image: both grid dimensions end in partial blocks. Also a
// column-major launch where blockIdx.y covers the wide dimension.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=4 -O2 %s -o %t.c4x4 && %t.c4x4 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=1 -O2 %s -o %t.c7x1 && %t.c7x1 | FileCheck %s
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

__host__ __device__ unsigned char adjust(unsigned char p, int gain, int bias) {
  int v = (p * gain) / 16 + bias;
  return (unsigned char)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

__global__ void adjustImage(const unsigned char *in, unsigned char *out,
                            int width, int height, int gain, int bias) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = adjust(in[y * width + x], gain, bias);
}

// Transposed mapping: x from the y dimension of the launch.
__global__ void markTransposed(int *out, int width, int height) {
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < width && y < height)
    out[y * width + x] += y * 1000 + x;
}

int main() {
  const int width = 1000, height = 517;
  const int size = width * height;
  unsigned char *h = (unsigned char *)malloc(size);
  unsigned char *res = (unsigned char *)malloc(size);
  for (int i = 0; i < size; ++i)
    h[i] = (unsigned char)((i * 31 + i / width) & 0xff);
  unsigned char *din, *dout;
  CUDA_CHECK(cudaMalloc(&din, size));
  CUDA_CHECK(cudaMalloc(&dout, size));
  CUDA_CHECK(cudaMemcpy(din, h, size, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dout, 0xAB, size));
  dim3 block(13, 7);
  dim3 grid((width + 12) / 13, (height + 6) / 7);
  adjustImage<<<grid, block>>>(din, dout, width, height, 21, -9);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dout, size, cudaMemcpyDeviceToHost));
  for (int i = 0; i < size; ++i) {
    unsigned char e = adjust(h[i], 21, -9);
    if (res[i] != e) {
      printf("pixel (%d,%d): got %d, expected %d\n", i % width, i / width,
             res[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  int *dmark;
  int *mark = (int *)malloc(size * sizeof(int));
  CUDA_CHECK(cudaMalloc(&dmark, size * sizeof(int)));
  CUDA_CHECK(cudaMemset(dmark, 0, size * sizeof(int)));
  dim3 tblock(9, 11);
  dim3 tgrid((height + 8) / 9, (width + 10) / 11);
  markTransposed<<<tgrid, tblock>>>(dmark, width, height);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(mark, dmark, size * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      if (mark[y * width + x] != y * 1000 + x) {
        printf("transposed (%d,%d): got %d, expected %d\n", x, y,
               mark[y * width + x], y * 1000 + x);
        printf("FAILED\n");
        return 1;
      }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  CUDA_CHECK(cudaFree(dmark));
  free(h);
  free(res);
  free(mark);
  printf("PASSED\n");
  return 0;
}

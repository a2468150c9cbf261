// Pitched 2-D allocation: cudaMallocPitch (the pitch must be at least the
// row width), cudaMemcpy2D host->device with a tightly packed host image,
// a kernel that addresses rows through the pitch, cudaMemset2D of a
// sub-rectangle, and cudaMemcpy2D device->host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
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

__global__ void blurRows(const float *in, size_t inPitch, float *out,
                         size_t outPitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  const float *row = (const float *)((const char *)in + y * inPitch);
  float *orow = (float *)((char *)out + y * outPitch);
  float l = row[x > 0 ? x - 1 : x], r = row[x < width - 1 ? x + 1 : x];
  orow[x] = 0.25f * l + 0.5f * row[x] + 0.25f * r;
}

int main() {
  const int width = 333, height = 211;
  float *h = (float *)malloc(width * height * sizeof(float));
  float *res = (float *)malloc(width * height * sizeof(float));
  for (int i = 0; i < width * height; ++i)
    h[i] = (float)((i * 7) % 64);

  float *din, *dout;
  size_t pitchIn = 0, pitchOut = 0;
  CUDA_CHECK(cudaMallocPitch(&din, &pitchIn, width * sizeof(float), height));
  CUDA_CHECK(cudaMallocPitch(&dout, &pitchOut, width * sizeof(float), height));
  if (pitchIn < width * sizeof(float) || pitchOut < width * sizeof(float) ||
      pitchIn % sizeof(float) != 0) {
    printf("bad pitch %zu / %zu for row of %zu bytes\n", pitchIn, pitchOut,
           width * sizeof(float));
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaMemcpy2D(din, pitchIn, h, width * sizeof(float),
                          width * sizeof(float), height,
                          cudaMemcpyHostToDevice));
  dim3 block(32, 8);
  dim3 grid((width + 31) / 32, (height + 7) / 8);
  blurRows<<<grid, block>>>(din, pitchIn, dout, pitchOut, width, height);
  CUDA_CHECK(cudaGetLastError());
  // zero a 10x5 rectangle starting at column 20, row 30 of the output
  CUDA_CHECK(cudaMemset2D((char *)dout + 30 * pitchOut + 20 * sizeof(float),
                          pitchOut, 0, 10 * sizeof(float), 5));
  CUDA_CHECK(cudaMemcpy2D(res, width * sizeof(float), dout, pitchOut,
                          width * sizeof(float), height,
                          cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const float *row = h + y * width;
      float l = row[x > 0 ? x - 1 : x], r = row[x < width - 1 ? x + 1 : x];
      float e = 0.25f * l + 0.5f * row[x] + 0.25f * r;
      if (x >= 20 && x < 30 && y >= 30 && y < 35)
        e = 0.0f;
      if (res[y * width + x] != e) {
        printf("mismatch at (%d,%d): got %f, expected %f\n", x, y,
               res[y * width + x], e);
        printf("FAILED\n");
        return 1;
      }
    }
  CUDA_CHECK(cudaFree(din));
  CUDA_CHECK(cudaFree(dout));
  free(h);
  free(res);
  printf("PASSED\n");
  return 0;
}

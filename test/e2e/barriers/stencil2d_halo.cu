// 2-D stencils with halos in shared memory (2-D thread blocks): the block's
// tile plus a halo of width R is loaded cooperatively with a 2-D strided loop
// (covers edges and corners; zero outside the image), one barrier, then a
// radius-2 weighted cross stencil and a 3x3 box filter (which needs the
// corners) are computed from the tile. Block shapes 16x16, 32x8, 12x10, 32x32
// and 5x3, image 203x157. Two sweeps ping-pong between global buffers.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O2 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O2 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
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

#define R 2
#define MAXB 32

__global__ void stencil2d(const int *in, int *out, int w, int h, int box) {
  __shared__ int tile[(MAXB + 2 * R) * (MAXB + 2 * R)];
  int bx = blockDim.x, by = blockDim.y;
  int pitch = bx + 2 * R;
  int x0 = blockIdx.x * bx - R, y0 = blockIdx.y * by - R;
  for (int ty = threadIdx.y; ty < by + 2 * R; ty += by)
    for (int tx = threadIdx.x; tx < bx + 2 * R; tx += bx) {
      int gx = x0 + tx, gy = y0 + ty;
      tile[ty * pitch + tx] =
          (gx >= 0 && gx < w && gy >= 0 && gy < h) ? in[gy * w + gx] : 0;
    }
  __syncthreads();
  int gx = blockIdx.x * bx + threadIdx.x, gy = blockIdx.y * by + threadIdx.y;
  if (gx < w && gy < h) {
    int cx = threadIdx.x + R, cy = threadIdx.y + R;
    int acc;
    if (box) {
      acc = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          acc += (3 * (dy + 1) + dx + 2) * tile[(cy + dy) * pitch + cx + dx];
    } else {
      acc = 4 * tile[cy * pitch + cx];
      for (int d = 1; d <= R; ++d)
        acc += d * tile[cy * pitch + cx - d] + 2 * d * tile[cy * pitch + cx + d] +
               3 * d * tile[(cy - d) * pitch + cx] +
               4 * d * tile[(cy + d) * pitch + cx];
    }
    out[gy * w + gx] = acc % 100003;
  }
}

static int at(const int *a, int w, int h, int x, int y) {
  return x >= 0 && x < w && y >= 0 && y < h ? a[y * w + x] : 0;
}

static void hostStencil(const int *in, int *out, int w, int h, int box) {
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int acc;
      if (box) {
        acc = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            acc += (3 * (dy + 1) + dx + 2) * at(in, w, h, x + dx, y + dy);
      } else {
        acc = 4 * at(in, w, h, x, y);
        for (int d = 1; d <= R; ++d)
          acc += d * at(in, w, h, x - d, y) + 2 * d * at(in, w, h, x + d, y) +
                 3 * d * at(in, w, h, x, y - d) + 4 * d * at(in, w, h, x, y + d);
      }
      out[y * w + x] = acc % 100003;
    }
}

int main() {
  const int w = 203, h = 157, n = w * h;
  int *hIn = (int *)malloc(n * sizeof(int));
  int *hA = (int *)malloc(n * sizeof(int));
  int *hB = (int *)malloc(n * sizeof(int));
  int *got = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    hIn[i] = (int)(lcg() % 201) - 100;
  int *dIn, *dA, *dB;
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dA, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dB, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, hIn, n * sizeof(int), cudaMemcpyHostToDevice));
  int errors = 0;
  const dim3 blocks[] = {dim3(16, 16), dim3(32, 8), dim3(12, 10), dim3(32, 32),
                         dim3(5, 3)};
  for (int box = 0; box < 2; ++box) {
    // Host reference: two sweeps.
    hostStencil(hIn, hA, w, h, box);
    hostStencil(hA, hB, w, h, box);
    for (dim3 b : blocks) {
      dim3 grid((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
      stencil2d<<<grid, b>>>(dIn, dA, w, h, box);
      CUDA_CHECK(cudaGetLastError());
      stencil2d<<<grid, b>>>(dA, dB, w, h, box);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(got, dB, n * sizeof(int), cudaMemcpyDeviceToHost));
      for (int i = 0; i < n; ++i)
        if (got[i] != hB[i] && ++errors <= 5)
          printf("%s block %ux%u: out[%d][%d] = %d, expected %d\n",
                 box ? "box" : "cross", b.x, b.y, i / w, i % w, got[i], hB[i]);
    }
  }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dB));
  free(hIn);
  free(hA);
  free(hB);
  free(got);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Rodinia srad_v2's neighbour reads: each thread stages its pixel in a
// shared tile, and after the barrier reads its neighbours from the tile,
// or at the tile's edge from shared arrays holding the next tile's border
// (`tx == BS - 1 ? east[ty][tx] : temp[ty][tx + 1]`). clang folds the edge
// address to a constant element, so the address read is a select between
// two shared addresses. Before 0.29.0 barrier elimination took such an
// address for memory other than shared memory and removed the barrier:
// threads read neighbours not yet staged (51,521 wrong pixels in srad_v2).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: row PASSED
// CHECK: tile PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define BS 16

__global__ void rowDifferences(float *east, float *doubled, const float *in) {
  int tx = threadIdx.x;
  __shared__ float temp[BS];
  __shared__ float result[BS];
  __shared__ float border[BS];
  border[tx] = 7.0f;
  temp[tx] = in[blockIdx.x * BS + tx];
  __syncthreads();
  float e = (tx == BS - 1 ? border[tx] : temp[tx + 1]) - temp[tx];
  result[tx] = e * 2;
  __syncthreads();
  doubled[blockIdx.x * BS + tx] = result[tx];
  east[blockIdx.x * BS + tx] = e;
}

// The 2-D form: a 16x16 tile and its four borders, clamped at the image's
// edge as srad does.
__global__ void tileGradient(float *out, const float *image, int cols,
                             int rows) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int x = bx * BS + tx, y = by * BS + ty;
  __shared__ float temp[BS][BS];
  __shared__ float north[BS][BS], south[BS][BS], east[BS][BS], west[BS][BS];
  int up = by == 0 ? y : by * BS - 1, down = by == gridDim.y - 1 ? y : (by + 1) * BS;
  int left = bx == 0 ? x : bx * BS - 1, right = bx == gridDim.x - 1 ? x : (bx + 1) * BS;
  north[ty][tx] = image[up * cols + x];
  south[ty][tx] = image[down * cols + x];
  west[ty][tx] = image[y * cols + left];
  east[ty][tx] = image[y * cols + right];
  temp[ty][tx] = image[y * cols + x];
  __syncthreads();
  float c = temp[ty][tx];
  float n = ty == 0 ? north[ty][tx] : temp[ty - 1][tx];
  float s = ty == BS - 1 ? south[ty][tx] : temp[ty + 1][tx];
  float w = tx == 0 ? west[ty][tx] : temp[ty][tx - 1];
  float e = tx == BS - 1 ? east[ty][tx] : temp[ty][tx + 1];
  __syncthreads();
  temp[ty][tx] = (n - c) + 2 * (s - c) + 3 * (w - c) + 4 * (e - c);
  __syncthreads();
  out[y * cols + x] = temp[ty][tx];
}

int main() {
  const int blocks = 5, n = blocks * BS;
  float *in, *east, *doubled;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&east, n * sizeof(float));
  cudaMallocManaged(&doubled, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    in[i] = 1.0f + (i * 7 % 5);
  rowDifferences<<<blocks, BS>>>(east, doubled, in);
  cudaDeviceSynchronize();
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    float want = (i % BS == BS - 1 ? 7.0f : in[i + 1]) - in[i];
    if ((east[i] != want || doubled[i] != 2 * want) && failures++ < 5)
      printf("row %d: %g %g, expected %g %g\n", i, east[i], doubled[i], want,
             2 * want);
  }
  printf("row %s\n", failures ? "FAILED" : "PASSED");

  const int cols = 3 * BS, rows = 2 * BS;
  float *image, *out;
  cudaMallocManaged(&image, cols * rows * sizeof(float));
  cudaMallocManaged(&out, cols * rows * sizeof(float));
  for (int i = 0; i < cols * rows; ++i)
    image[i] = (float)(i * 37 % 101);
  tileGradient<<<dim3(cols / BS, rows / BS), dim3(BS, BS)>>>(out, image, cols,
                                                             rows);
  cudaDeviceSynchronize();
  int tileFailures = 0;
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) {
      auto at = [&](int yy, int xx) {
        yy = yy < 0 ? 0 : yy >= rows ? rows - 1 : yy;
        xx = xx < 0 ? 0 : xx >= cols ? cols - 1 : xx;
        return image[yy * cols + xx];
      };
      float c = at(y, x);
      float want = (at(y - 1, x) - c) + 2 * (at(y + 1, x) - c) +
                   3 * (at(y, x - 1) - c) + 4 * (at(y, x + 1) - c);
      if (out[y * cols + x] != want && tileFailures++ < 5)
        printf("tile (%d, %d): %g, expected %g\n", x, y, out[y * cols + x],
               want);
    }
  printf("tile %s\n", tileFailures ? "FAILED" : "PASSED");
  return failures + tileFailures != 0;
}

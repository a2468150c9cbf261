// PATHFINDER: dynamic programming over a rows x cols grid of weights: the
// cheapest path from the top row to each cell of the bottom row, moving one
// row down and at most one column sideways per step:
//   cost(r, c) = wall(r, c) + min(cost(r-1, c-1), cost(r-1, c),
//                                 cost(r-1, c+1)).
// Each launch advances PYRAMID rows. A block loads BLOCK consecutive costs of
// the previous row into shared memory and computes PYRAMID rows in place,
// the valid region shrinking by one column on each side per row (a pyramid);
// so blocks overlap by 2 * PYRAMID columns and each writes the
// BLOCK - 2 * PYRAMID columns in its middle.
#include "common.h"
#include <climits>
#include <cuda_runtime.h>

#ifndef ROWS
#define ROWS 256
#endif
#ifndef COLS
#define COLS (1 << 18)
#endif
#define BLOCK 256
#define PYRAMID 16

__global__ void pathRows(const int *wall, const int *src, int *dst, int cols,
                         int row0, int rows) {
  __shared__ int prev[BLOCK], cur[BLOCK];
  int tx = threadIdx.x;
  int c = blockIdx.x * (BLOCK - 2 * PYRAMID) - PYRAMID + tx;
  bool inside = c >= 0 && c < cols;
  prev[tx] = inside ? src[c] : INT_MAX;
  __syncthreads();
  for (int r = 0; r < rows; ++r) {
    bool computes = tx > r && tx < BLOCK - 1 - r && inside;
    if (computes) {
      int best = prev[tx];
      if (c > 0)
        best = min(best, prev[tx - 1]);
      if (c < cols - 1)
        best = min(best, prev[tx + 1]);
      cur[tx] = best + wall[(size_t)(row0 + r) * cols + c];
    }
    __syncthreads();
    if (computes)
      prev[tx] = cur[tx];
    __syncthreads();
  }
  if (tx >= PYRAMID && tx < BLOCK - PYRAMID && inside)
    dst[c] = prev[tx];
}

int main() {
  const int rows = ROWS, cols = COLS;
  std::vector<int> wall = makeWall(rows, cols), result(cols);
  int *dWall, *dA, *dB;
  cudaMalloc(&dWall, wall.size() * sizeof(int));
  cudaMalloc(&dA, cols * sizeof(int));
  cudaMalloc(&dB, cols * sizeof(int));
  cudaMemcpy(dWall, wall.data(), wall.size() * sizeof(int),
             cudaMemcpyHostToDevice);
  int blocks = (cols + BLOCK - 2 * PYRAMID - 1) / (BLOCK - 2 * PYRAMID);
  int *out = nullptr;
  timeIt([&] {
    // Row 0 costs its own weights.
    cudaMemcpy(dA, dWall, cols * sizeof(int), cudaMemcpyDeviceToDevice);
    int *src = dA, *dst = dB;
    for (int r = 1; r < rows; r += PYRAMID) {
      pathRows<<<blocks, BLOCK>>>(dWall, src, dst, cols, r,
                                  std::min(PYRAMID, rows - r));
      std::swap(src, dst);
    }
    cudaDeviceSynchronize();
    out = src;
  });
  cudaMemcpy(result.data(), out, cols * sizeof(int), cudaMemcpyDeviceToHost);
  printChecksum(intChecksum(result));
  cudaFree(dWall);
  cudaFree(dA);
  cudaFree(dB);
  return 0;
}

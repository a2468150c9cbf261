// Kernels of narrow 2-D and 3-D blocks, which respec runs with neighbouring
// blocks of a grid row fused (respec-fuse-block-rows): a 5-point stencil
// through a shared tile with a halo and a barrier (grids whose width is not
// a multiple of the block's, down to one block), a barrier-free kernel of
// 32x8 blocks with bounds checks, values computed from the block index and
// kept across a barrier next to dynamic shared memory, 3-D blocks, and a
// grid with one row of blocks. The host checks every element.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=block-rows %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O1 --coarsen=block=2,thread=2 %s -o %t.c && %t.c | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

static int failures = 0;

static void expectEqual(const char *what, long long got, long long want,
                        int index) {
  if (got != want && failures++ < 10)
    fprintf(stderr, "%s[%d]: got %lld, want %lld\n", what, index, got, want);
}

#define TILE 16

// Integer 5-point stencil through a shared tile: exact, so the host's
// result must match bit for bit.
__global__ void stencil(const int *in, int *out, int rows, int cols) {
  __shared__ int t[TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
  bool inside = row < rows && col < cols;
  int self = inside ? in[row * cols + col] : 0;
  // Threads past the edge write nothing: the edge's own threads write the
  // clamped halo there.
  if (inside) {
    t[ty + 1][tx + 1] = self;
    if (ty == 0)
      t[0][tx + 1] = row > 0 ? in[(row - 1) * cols + col] : self;
    if (ty == TILE - 1 || row == rows - 1)
      t[ty + 2][tx + 1] = row < rows - 1 ? in[(row + 1) * cols + col] : self;
    if (tx == 0)
      t[ty + 1][0] = col > 0 ? in[row * cols + col - 1] : self;
    if (tx == TILE - 1 || col == cols - 1)
      t[ty + 1][tx + 2] = col < cols - 1 ? in[row * cols + col + 1] : self;
  }
  __syncthreads();
  if (inside)
    out[row * cols + col] = 4 * self - t[ty][tx + 1] - t[ty + 2][tx + 1] -
                            t[ty + 1][tx] - t[ty + 1][tx + 2] + blockIdx.x;
}

static int at(const std::vector<int> &in, int rows, int cols, int r, int c) {
  r = r < 0 ? 0 : r >= rows ? rows - 1 : r;
  c = c < 0 ? 0 : c >= cols ? cols - 1 : c;
  return in[r * cols + c];
}

static void checkStencil(int rows, int cols) {
  std::vector<int> in(rows * cols), out(rows * cols, -1);
  for (int i = 0; i < rows * cols; ++i)
    in[i] = (i * 7919) % 1013 - 500;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  stencil<<<grid, block>>>(dIn, dOut, rows, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      int self = in[r * cols + c];
      int want = 4 * self - at(in, rows, cols, r - 1, c) -
                 at(in, rows, cols, r + 1, c) - at(in, rows, cols, r, c - 1) -
                 at(in, rows, cols, r, c + 1) + c / TILE;
      expectEqual("stencil", out[r * cols + c], want, r * cols + c);
    }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// Barrier-free, 32x8 blocks, a bounds check, and a value from the block's
// index computed before the thread's own work.
__global__ void scale(const float *in, float *out, int rows, int cols,
                      float factor) {
  int col = blockIdx.x * 32 + threadIdx.x;
  int row = blockIdx.y * 8 + threadIdx.y;
  float bias = 0.5f * blockIdx.x + 0.25f * blockIdx.y;
  if (row >= rows || col >= cols)
    return;
  out[row * cols + col] = in[row * cols + col] * factor + bias;
}

static void checkScale(int rows, int cols) {
  std::vector<float> in(rows * cols), out(rows * cols, -1.0f);
  for (int i = 0; i < rows * cols; ++i)
    in[i] = (float)(i % 97) - 48.0f;
  float *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(float),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(dOut, 0, out.size() * sizeof(float)));
  scale<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(dIn, dOut,
                                                                  rows, cols,
                                                                  3.0f);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(float),
                        cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      float want = in[r * cols + c] * 3.0f + 0.5f * (c / 32) + 0.25f * (r / 8);
      expectEqual("scale", (long long)(out[r * cols + c] * 4.0f),
                  (long long)(want * 4.0f), r * cols + c);
    }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// Dynamic shared memory, and values from the block's index kept by every
// thread across the barrier: each block's copy must be its own.
__global__ void blockKeys(long long *out, int cols) {
  extern __shared__ int row[];
  int tx = threadIdx.x, ty = threadIdx.y;
  long long key = blockIdx.x * 1000003LL + blockIdx.y * 1009 + ty * 31 + tx;
  int col = blockIdx.x * blockDim.x + tx;
  row[ty * blockDim.x + tx] = (int)(key % 65521);
  __syncthreads();
  int mirror = row[(blockDim.y - 1 - ty) * blockDim.x + (blockDim.x - 1 - tx)];
  int r = blockIdx.y * blockDim.y + ty;
  if (col < cols)
    out[r * cols + col] = key * 65536 + mirror;
}

static void checkBlockKeys(int rows, int cols) {
  const int bx = 16, by = 4;
  int gridRows = (rows + by - 1) / by;
  std::vector<long long> out(gridRows * by * cols, -1);
  long long *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(long long)));
  blockKeys<<<dim3((cols + bx - 1) / bx, gridRows), dim3(bx, by),
              bx * by * sizeof(int)>>>(dOut, cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  for (int r = 0; r < gridRows * by; ++r)
    for (int c = 0; c < cols; ++c) {
      long long bxI = c / bx, byI = r / by, ty = r % by, tx = c % bx;
      long long key = bxI * 1000003LL + byI * 1009 + ty * 31 + tx;
      long long other =
          bxI * 1000003LL + byI * 1009 + (by - 1 - ty) * 31 + (bx - 1 - tx);
      expectEqual("blockKeys", out[r * cols + c], key * 65536 + other % 65521,
                  r * cols + c);
    }
  CUDA_CHECK(cudaFree(dOut));
}

// 3-D blocks: every thread records its block and thread indices.
__global__ void ids3d(int *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
  out[(z * h + y) * w + x] = blockIdx.x * 1000 + threadIdx.z * 100 +
                             threadIdx.y * 10 + threadIdx.x % 10;
}

static void checkIds3d() {
  dim3 block(8, 4, 2), grid(13, 3, 2);
  int w = 8 * 13, h = 4 * 3, d = 2 * 2;
  std::vector<int> out(w * h * d, -1);
  int *dOut;
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
  ids3d<<<grid, block>>>(dOut);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int want = (x / 8) * 1000 + (z % 2) * 100 + (y % 4) * 10 + (x % 8) % 10;
        expectEqual("ids3d", out[(z * h + y) * w + x], want,
                    (z * h + y) * w + x);
      }
  CUDA_CHECK(cudaFree(dOut));
}

int main() {
  checkStencil(1, 1);
  checkStencil(16, 16);
  checkStencil(37, 1000);
  checkStencil(256, 256);
  checkStencil(300, 17);
  checkStencil(5, 2049);
  checkScale(8, 5000);
  checkScale(123, 457);
  checkScale(1024, 64);
  checkBlockKeys(4, 16 * 200);
  checkBlockKeys(61, 333);
  checkIds3d();
  if (failures) {
    printf("FAILED (%d)\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

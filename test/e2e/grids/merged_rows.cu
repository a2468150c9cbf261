// Barrier-free kernels of narrow 2-D blocks whose threads respec runs, for
// the neighbouring blocks of a grid row, as one loop over the global column
// (respec-fuse-block-rows' merge-rows): bounds checks on the column on one
// side, on both sides (a 3x3 stencil's interior), against run-time bounds
// anywhere in the grid (so that whole blocks in the middle of a row fall
// outside), in unsigned and in 64-bit arithmetic, a 16-wide block, grids of
// one block and of widths that are not multiples of the block's; and
// kernels that are not merged (the thread index used on its own, a block
// value that is not the global index). Every element is checked, including
// those the kernels must not write.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=row-merge %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O2 --disable-opt=thread-index-split %s -o %t.nosplit && %t.nosplit | FileCheck %s
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

static void expectEqual(const char *what, int rows, int cols, long long got,
                        long long want, int index) {
  if (got != want && failures++ < 10)
    fprintf(stderr, "%s (%dx%d)[%d]: got %lld, want %lld\n", what, rows, cols,
            index, got, want);
}

static const int kUntouched = -7;

// `col < cols` and `row < rows`: the last block of a row is partial.
__global__ void affine(const int *in, int *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < cols && row < rows)
    out[row * cols + col] = 3 * in[row * cols + col] + col - 2 * row;
}

// The interior of a 3x3 stencil: the first and last columns (and rows) are
// skipped, so the first and last blocks of each row are partial.
__global__ void interior(const int *in, int *out, int rows, int cols) {
  int col = threadIdx.x + blockIdx.x * blockDim.x;
  int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (col > 0 && col < cols - 1 && row > 0 && row < rows - 1) {
    int sum = 0;
    for (int dr = -1; dr <= 1; ++dr)
      for (int dc = -1; dc <= 1; ++dc)
        sum += (dr * 3 + dc + 5) * in[(row + dr) * cols + col + dc];
    out[row * cols + col] = sum;
  }
}

// A window [lo, hi) of columns given at run time, anywhere in the row:
// whole blocks before and after it run no thread.
__global__ void window(int *out, int rows, int cols, int lo, int hi) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col >= lo && col < hi && col < cols && row < rows)
    out[row * cols + col] = col * 7 + row;
}

// Unsigned arithmetic, as in `size_t`-free code that avoids signed
// overflow.
__global__ void unsignedIndex(int *out, unsigned rows, unsigned cols) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < cols && row < rows)
    out[row * cols + col] = (int)(col ^ (row << 4));
}

// Not merged: the thread index is also used on its own.
__global__ void threadAndGlobal(int *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < cols && row < rows)
    out[row * cols + col] = col * 100 + threadIdx.x;
}

// A 64-bit global index (the block index widened before the product).
__global__ void wideIndex(int *out, int rows, int cols) {
  size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (col < (size_t)cols && row < (size_t)rows)
    out[row * cols + col] = (int)(col * 5 + row);
}

// Not merged: the block's column and the thread's do not add up to the
// global index (every other block's columns, as a two-pass kernel does).
__global__ void everyOtherBlock(int *out, int rows, int cols) {
  int col = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < cols && row < rows)
    out[row * cols + col] = col + 1000 * row;
}

struct Buffers {
  std::vector<int> in, out;
  int *dIn = nullptr, *dOut = nullptr;
  int rows, cols;

  Buffers(int rows, int cols) : in(rows * cols), out(rows * cols), rows(rows),
                                cols(cols) {
    for (int i = 0; i < rows * cols; ++i)
      in[i] = (i * 37) % 101 - 50;
    CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(int),
                          cudaMemcpyHostToDevice));
    std::vector<int> untouched(rows * cols, kUntouched);
    CUDA_CHECK(cudaMemcpy(dOut, untouched.data(), in.size() * sizeof(int),
                          cudaMemcpyHostToDevice));
  }
  ~Buffers() {
    CUDA_CHECK(cudaFree(dIn));
    CUDA_CHECK(cudaFree(dOut));
  }
  const std::vector<int> &result() {
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                          cudaMemcpyDeviceToHost));
    return out;
  }
};

static dim3 gridFor(int rows, int cols, dim3 block, int xFactor = 1) {
  return dim3((cols + block.x * xFactor - 1) / (block.x * xFactor),
              (rows + block.y - 1) / block.y);
}

// The block size is a constant at every launch, so that respec builds
// launch copies for it (at most two per kernel: the third size runs the
// generic copy, which does not fuse blocks).
template <unsigned BX, unsigned BY, unsigned BZ>
static void checkShape(int rows, int cols) {
  const dim3 block(BX, BY, BZ);
  {
    Buffers b(rows, cols);
    affine<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dIn, b.dOut, rows, cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        expectEqual("affine", rows, cols, out[r * cols + c],
                    3 * b.in[r * cols + c] + c - 2 * r, r * cols + c);
  }
  {
    Buffers b(rows, cols);
    interior<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dIn, b.dOut, rows,
                                                    cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        int want = kUntouched;
        if (r > 0 && r < rows - 1 && c > 0 && c < cols - 1) {
          want = 0;
          for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc)
              want += (dr * 3 + dc + 5) * b.in[(r + dr) * cols + c + dc];
        }
        expectEqual("interior", rows, cols, out[r * cols + c], want,
                    r * cols + c);
      }
  }
  const int windows[][2] = {{0, cols}, {5, cols - 3}, {cols / 2, cols / 2 + 1},
                            {cols / 3, cols / 3 + 70}, {cols - 1, cols + 40},
                            {-20, 3}, {40, 10}};
  for (const auto &w : windows) {
    Buffers b(rows, cols);
    window<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dOut, rows, cols, w[0],
                                                  w[1]);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        int want = c >= w[0] && c < w[1] ? c * 7 + r : kUntouched;
        expectEqual("window", rows, cols, out[r * cols + c], want,
                    r * cols + c);
      }
  }
  {
    Buffers b(rows, cols);
    unsignedIndex<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dOut, rows, cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        expectEqual("unsigned", rows, cols, out[r * cols + c],
                    (int)((unsigned)c ^ ((unsigned)r << 4)), r * cols + c);
  }
  {
    Buffers b(rows, cols);
    threadAndGlobal<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dOut, rows, cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        expectEqual("threadAndGlobal", rows, cols, out[r * cols + c],
                    c * 100 + c % (int)block.x, r * cols + c);
  }
  {
    Buffers b(rows, cols);
    wideIndex<<<gridFor(rows, cols, block), dim3(BX, BY, BZ)>>>(b.dOut, rows, cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        expectEqual("wideIndex", rows, cols, out[r * cols + c], c * 5 + r,
                    r * cols + c);
  }
  {
    Buffers b(rows, cols);
    everyOtherBlock<<<gridFor(rows, cols, block, 2), dim3(BX, BY, BZ)>>>(b.dOut, rows,
                                                              cols);
    const std::vector<int> &out = b.result();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        bool written = (c / block.x) % 2 == 0;
        expectEqual("everyOtherBlock", rows, cols, out[r * cols + c],
                    written ? c + 1000 * r : kUntouched, r * cols + c);
      }
  }
}

int main() {
  const int shapes[][2] = {{64, 2048}, {37, 1000}, {9, 33}, {8, 32},
                           {130, 4500}, {3, 5}};
  for (const auto &s : shapes) {
    checkShape<32, 8, 1>(s[0], s[1]);
    checkShape<16, 16, 1>(s[0], s[1]);
    checkShape<8, 4, 2>(s[0], s[1]);
  }
  if (failures) {
    printf("FAILED (%d mismatches)\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Shared-memory tiles whose reads respec recomputes from the writers'
// values (respec-forward-shared-stores) and tiles it must leave alone:
// a 1-D three-point stencil with halo cells (in and out in different
// allocations; in the two halves of one allocation; the kernel launched
// with several block sizes), a 64x4 tile with halo rows, a 16x16 tile with
// halo cells on four sides (image sizes that are and are not multiples of
// the tile), a block that
// stores back in place what another thread of the block read, a read at a
// data-dependent index, a thread reading its own value back, and library
// math in the tile's values and after the barrier, and a read of the tile
// through a pointer chosen at run time. Integer
// data, so the host's results must match exactly.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=shared-forwarding %s -o %t.off && %t.off | FileCheck %s
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

// Three-point stencil with a halo cell on each side; cells past the array
// read as 0. Launched with blockDim.x == B.
template <int B> __global__ void stencil1d(const int *in, int *out, int n) {
  __shared__ int s[B + 2];
  int t = threadIdx.x, i = blockIdx.x * B + t;
  s[t + 1] = i < n ? in[i] : 0;
  if (t == 0)
    s[0] = i > 0 && i - 1 < n ? in[i - 1] : 0;
  if (t == B - 1)
    s[B + 1] = i + 1 < n ? in[i + 1] : 0;
  __syncthreads();
  if (i < n)
    out[i] = s[t] + 2 * s[t + 1] + 3 * s[t + 2];
}

static void checkStencil1d(const std::vector<int> &in,
                           const std::vector<int> &out, const char *what) {
  int n = (int)in.size();
  for (int i = 0; i < n; ++i) {
    int left = i > 0 ? in[i - 1] : 0, right = i + 1 < n ? in[i + 1] : 0;
    expectEqual(what, out[i], left + 2 * in[i] + 3 * right, i);
  }
}

template <int B> static void runStencil1d(int n, const char *what) {
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 7919) % 1000 - 500;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  stencil1d<B><<<(n + B - 1) / B, B>>>(dIn, dOut, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  checkStencil1d(in, out, what);
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// The same stencil with in and out the two halves of one allocation: the
// run-time test that they lie in different allocations fails, and the
// original code (tile and barrier) runs.
static void runStencilOneAllocation(int n) {
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 104729) % 997 - 400;
  int *both;
  CUDA_CHECK(cudaMalloc(&both, 2 * n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(both, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  stencil1d<256><<<(n + 255) / 256, 256>>>(both, both + n, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), both + n, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  checkStencil1d(in, out, "one allocation");
  CUDA_CHECK(cudaFree(both));
}

// A 64x4 tile with a halo row above and below (clamped at the edges of the
// image): reads differ from the writers along y only.
__global__ void verticalBlur(const int *in, int *out, int rows, int cols) {
  __shared__ int t[6][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * 64 + tx, row = blockIdx.y * 4 + ty;
  int self = in[row * cols + col];
  t[ty + 1][tx] = self;
  if (ty == 0)
    t[0][tx] = row > 0 ? in[(row - 1) * cols + col] : self;
  if (ty == 3)
    t[5][tx] = row + 1 < rows ? in[(row + 1) * cols + col] : self;
  __syncthreads();
  out[row * cols + col] = t[ty][tx] - 2 * t[ty + 1][tx] + t[ty + 2][tx];
}

static void runVerticalBlur() {
  const int rows = 12, cols = 192;
  std::vector<int> in(rows * cols), out(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    in[i] = (i * 31 + 7) % 211;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  verticalBlur<<<dim3(cols / 64, rows / 4), dim3(64, 4)>>>(dIn, dOut, rows,
                                                          cols);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      int up = in[(r > 0 ? r - 1 : r) * cols + c];
      int down = in[(r + 1 < rows ? r + 1 : r) * cols + c];
      expectEqual("vertical blur", out[r * cols + c],
                  up - 2 * in[r * cols + c] + down, r * cols + c);
    }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// A 16x16 tile with halo cells on all four sides, as in a heat stencil:
// the halo threads load their neighbours' cells or, at the image's edge
// (w x h, rows of `pitch` elements), their own. Blocks cover the image and
// pad it to whole tiles: threads past the edge still load (padded memory)
// and those beside them read the tile, so a thread at column w - 1 reads
// its right neighbour's padding cell unless it is thread 15 of its row,
// which reads its own value. respec serves each halo read with the halo
// branch for all threads of the block, and its padding readers need the
// neighbour's value where the branch's edge test fails.
__global__ void heatTile(const int *in, int *out, int w, int h, int pitch) {
  __shared__ int t[18][18];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * 16 + tx, row = blockIdx.y * 16 + ty;
  size_t k = (size_t)row * pitch + col;
  int self = in[k];
  t[ty + 1][tx + 1] = self;
  if (ty == 0)
    t[0][tx + 1] = row > 0 ? in[k - pitch] : self;
  if (ty == 15)
    t[17][tx + 1] = row < h - 1 ? in[k + pitch] : self;
  if (tx == 0)
    t[ty + 1][0] = col > 0 ? in[k - 1] : self;
  if (tx == 15)
    t[ty + 1][17] = col < w - 1 ? in[k + 1] : self;
  __syncthreads();
  if (col < w && row < h)
    out[(size_t)row * w + col] = 4 * self - t[ty][tx + 1] - 2 * t[ty + 2][tx + 1] -
                                 3 * t[ty + 1][tx] - 5 * t[ty + 1][tx + 2];
}

static void runHeatTile(int w, int h) {
  int gx = (w + 15) / 16, gy = (h + 15) / 16, pitch = gx * 16;
  // One padding row below the last tile and one cell past it.
  std::vector<int> in((size_t)(gy * 16 + 1) * pitch + 1), out((size_t)w * h);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = (int)((i * 37 + 11) % 1009);
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, in.size() * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, out.size() * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), in.size() * sizeof(int),
                        cudaMemcpyHostToDevice));
  heatTile<<<dim3(gx, gy), dim3(16, 16)>>>(dIn, dOut, w, h, pitch);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, out.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int r = 0; r < h; ++r)
    for (int c = 0; c < w; ++c) {
      size_t k = (size_t)r * pitch + c;
      int self = in[k], tx = c % 16, ty = r % 16;
      int north = ty == 0 && r == 0 ? self : in[k - pitch];
      int south = ty == 15 && r >= h - 1 ? self : in[k + pitch];
      int west = tx == 0 && c == 0 ? self : in[k - 1];
      int east = tx == 15 && c >= w - 1 ? self : in[k + 1];
      expectEqual("heat tile", out[(size_t)r * w + c],
                  4 * self - north - 2 * south - 3 * west - 5 * east,
                  r * w + c);
    }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// Library math in the recomputed values and after the barrier: the tile
// holds |in[i]| through sqrtf of a perfect square (exact), the result goes
// through floorf.
__global__ void mathNeighbours(const int *in, int *out, int n) {
  __shared__ float s[130];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t + 1] = sqrtf((float)(in[i] * in[i]));
  if (t == 0)
    s[0] = i > 0 ? sqrtf((float)(in[i - 1] * in[i - 1])) : 0.0f;
  if (t == 127)
    s[129] = i + 1 < n ? sqrtf((float)(in[i + 1] * in[i + 1])) : 0.0f;
  __syncthreads();
  out[i] = (int)floorf(s[t] + 0.5f * s[t + 2]);
}

static void runMathNeighbours() {
  const int n = 128 * 6;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 37) % 201 - 100;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  mathNeighbours<<<n / 128, 128>>>(dIn, dOut, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int left = i > 0 ? abs(in[i - 1]) : 0, right = i + 1 < n ? abs(in[i + 1]) : 0;
    // left + right / 2, rounded down (right / 2 is a multiple of 0.5).
    expectEqual("math neighbours", out[i], left + right / 2, i);
  }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// One read of the tile goes through a pointer chosen at run time (the tile
// or global memory): the tile must stay, with its barrier, for that read.
__global__ void chosenPointer(const int *in, int *out, int useTile) {
  __shared__ int s[129];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = in[i] * 5;
  if (t == 127)
    s[128] = 1;
  __syncthreads();
  const int *p = useTile ? s : in + blockIdx.x * 128;
  out[i] = s[t + 1] + p[127 - t];
}

static void runChosenPointer() {
  const int blocks = 3, n = blocks * 128;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 13) % 97;
  int *dIn, *dOut;
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  for (int useTile = 0; useTile < 2; ++useTile) {
    chosenPointer<<<blocks, 128>>>(dIn, dOut, useTile);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), dOut, n * sizeof(int),
                          cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < 128; ++t) {
        int i = b * 128 + t;
        int next = t < 127 ? in[i + 1] * 5 : 1;
        int mirror = in[b * 128 + 127 - t] * (useTile ? 5 : 1);
        expectEqual(useTile ? "chosen pointer, tile" : "chosen pointer, global",
                    out[i], next + mirror, i);
      }
  }
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dOut));
}

// Rotates each block's 128 elements by one, in place: thread t stores what
// thread t + 1 loaded before the barrier. Recomputing that load after the
// barrier would read what thread t + 1 may already have stored.
__global__ void rotateInPlace(int *a) {
  __shared__ int s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = a[i];
  __syncthreads();
  a[i] = s[(t + 1) % 128];
}

// Reads at a data-dependent index, and a thread reading back its own value.
__global__ void gatherAndOwn(const int *in, int *gathered, int *own) {
  __shared__ int s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  int v = in[i];
  s[t] = v * 3;
  __syncthreads();
  gathered[i] = s[v & 127];
  own[i] = s[t] + 1;
}

static void runInPlaceAndGather() {
  const int blocks = 5, n = blocks * 128;
  std::vector<int> in(n), rotated(n), gathered(n), own(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 2654435761u) % 100000;
  int *dA, *dIn, *dGathered, *dOwn;
  CUDA_CHECK(cudaMalloc(&dA, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dIn, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dGathered, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dOwn, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dA, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dIn, in.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  rotateInPlace<<<blocks, 128>>>(dA);
  gatherAndOwn<<<blocks, 128>>>(dIn, dGathered, dOwn);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(rotated.data(), dA, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gathered.data(), dGathered, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(own.data(), dOwn, n * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 128; ++t) {
      int i = b * 128 + t;
      expectEqual("rotate in place", rotated[i], in[b * 128 + (t + 1) % 128],
                  i);
      expectEqual("data-dependent read", gathered[i],
                  in[b * 128 + (in[i] & 127)] * 3, i);
      expectEqual("own value", own[i], in[i] * 3 + 1, i);
    }
  CUDA_CHECK(cudaFree(dA));
  CUDA_CHECK(cudaFree(dIn));
  CUDA_CHECK(cudaFree(dGathered));
  CUDA_CHECK(cudaFree(dOwn));
}

int main() {
  runStencil1d<256>(256 * 9, "stencil 256");
  runStencil1d<256>(1, "stencil 256, one element");
  runStencil1d<256>(1000, "stencil 256, ragged end");
  runStencil1d<64>(64 * 3 + 17, "stencil 64");
  runStencil1d<128>(128 * 4, "stencil 128");
  runStencilOneAllocation(256 * 4);
  runVerticalBlur();
  runHeatTile(64, 48);
  runHeatTile(37, 21);
  runHeatTile(16, 16);
  runHeatTile(1, 1);
  runInPlaceAndGather();
  runMathNeighbours();
  runChosenPointer();
  if (failures) {
    printf("FAILED (%d)\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Branches on the thread index, which thread-index splitting turns into
// separate thread loops: a 1-D bounds check (threads past n must write
// nothing), halo loads on tx == 0 / tx == blockDim.x - 1 / ty == 0 and their
// && and || combinations in 2-D blocks, tree reductions on tid < s (also for
// sizes that are not powers of two), every comparison kind with offsets,
// negative and always-true bounds, unsigned wrap-around and a 64-bit index,
// switches on threadIdx.x, and bounds that are kernel arguments changing
// between launches. Conditional stores go to separate output planes, so a
// thread that takes a wrong branch writes (or misses) a checked element. The
// kernels exchange values through shared memory across a barrier, so their
// bodies sit in the thread loops that the pass splits. Block sizes are
// constants at the launch site (including 1 and odd sizes) or only known at
// run time. The host checks every element.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=thread-index-split %s -o %t.off && %t.off | FileCheck %s
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
  }                                                                           \
  while (0)

static const int kSentinel = -7;

// 1. Bounds check, without and with a shared-memory exchange (the value of
// the mirrored thread of the block).
template <bool Tile> __global__ void boundsMap(int *out, int n) {
  __shared__ int sh[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i * 3 + 1;
  if (Tile) {
    sh[threadIdx.x] = v;
    __syncthreads();
    v = sh[blockDim.x - 1 - threadIdx.x] * 2;
  }
  if (i < n)
    out[i] = v;
}

// 2. A 3x3 stencil over a tile whose one-cell halo the edge threads load.
__host__ __device__ inline int cell(int x, int y, int w, int h) {
  x = ((x % w) + w) % w;
  y = ((y % h) + h) % h;
  return x * 131 + y * 7 + 1;
}

// The same conditions in a form for kernel and host (tx, ty, bx, by ints).
#define EDGE_CODE(v)                                                          \
  int v = 1;                                                                  \
  if (tx == 0) v += 2;                                                        \
  if (tx == bx - 1) v += 4;                                                   \
  if (ty == 0) v += 8;                                                        \
  if (ty == by - 1) v += 16;                                                  \
  if (tx == 0 && ty == 0) v += 32;                                            \
  if (tx == bx - 1 || ty == by - 1) v += 64;                                  \
  if (tx == 0 || ty == 0) v += 128;                                           \
  if (ty >= 1 && ty < by - 1 && tx > 2) v += 256;

__global__ void halo(int *out, int w, int h) {
  __shared__ int t[18][18];
  __shared__ int codes[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bx = blockDim.x, by = blockDim.y;
  int gx = blockIdx.x * bx + tx, gy = blockIdx.y * by + ty;
  t[ty + 1][tx + 1] = cell(gx, gy, w, h);
  if (tx == 0) t[ty + 1][0] = cell(gx - 1, gy, w, h);
  if (tx == blockDim.x - 1) t[ty + 1][bx + 1] = cell(gx + 1, gy, w, h);
  if (ty == 0) t[0][tx + 1] = cell(gx, gy - 1, w, h);
  if (ty == blockDim.y - 1) t[by + 1][tx + 1] = cell(gx, gy + 1, w, h);
  if (tx == 0 && ty == 0) t[0][0] = cell(gx - 1, gy - 1, w, h);
  if (tx == bx - 1 && ty == 0) t[0][bx + 1] = cell(gx + 1, gy - 1, w, h);
  if (tx == 0 && ty == by - 1) t[by + 1][0] = cell(gx - 1, gy + 1, w, h);
  if (tx == bx - 1 && ty == by - 1)
    t[by + 1][bx + 1] = cell(gx + 1, gy + 1, w, h);
  EDGE_CODE(v)
  codes[ty][tx] = v;
  __syncthreads();
  int sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += (3 * (dy + 1) + dx + 2) * t[ty + 1 + dy][tx + 1 + dx];
  if (gx < w && gy < h)
    out[gy * w + gx] = sum * 1024 + codes[by - 1 - ty][bx - 1 - tx];
}

// 3. Tree reductions: the classic one (powers of two only) and one that
// halves rounding up, for any block size.
__global__ void sumPow2(const int *in, int *out, int n) {
  extern __shared__ int sh[];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sh[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}

__global__ void sumAny(const int *in, int *out, int n) {
  extern __shared__ int sh[];
  unsigned tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sh[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned len = blockDim.x, s = (len + 1) / 2; len > 1;
       len = s, s = (s + 1) / 2) {
    if (tid < s && tid + s < len)
      sh[tid] += sh[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sh[0];
}

// 4. Comparison kinds in three groups (each thread loop is split into a
// bounded number of pieces). Names: tx, bid, bdim unsigned; i, gi the global
// index as int / unsigned; g as size_t.
#define RANGES_0(X)                                                           \
  X(0, tx > 3) X(1, tx >= 5) X(2, tx <= 7) X(3, tx != 2)                      \
  X(4, 2 <= tx && tx < bdim - 2) /* unsigned: wraps for bdim < 2 */           \
  X(5, (int)tx - 4 < 0) X(6, tx == 0 || tx == bdim - 1)
#define RANGES_1(X)                                                           \
  X(0, i < -1) X(1, i < negBound) X(2, i > -3) X(3, tx < 0xFFFFFFFFu)         \
  X(4, g < n64) X(5, g < big64) X(6, (int)tx < (int)bdim - 2)                 \
  X(7, tx >= 3 && tx < 9)
#define RANGES_2(X)                                                           \
  X(0, bdim - 1 - tx < 3) X(1, tx == bdim)                                    \
  X(2, tx + wrapOff >= 2u) /* false only for tx 4 and 5 */                    \
  X(3, gi + wbase < 10u) X(4, gi + wbase >= 0xFFFFFFF0u) X(5, tx % 4 == 1)    \
  X(6, 2 * tx + 1 < 9) X(7, !(tx >= 3) || tx == 6)                            \
  X(8, (unsigned char)(tx + 250) < 10)
static const int kPlanes = 9;

template <int G>
__global__ void ranges(int *out, int negBound, unsigned wrapOff,
                       unsigned wbase, size_t n64, size_t big64) {
  __shared__ int sh[64];
  unsigned tx = threadIdx.x, bid = blockIdx.x, bdim = blockDim.x;
  unsigned gi = bid * bdim + tx, total = gridDim.x * bdim;
  int i = gi;
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  sh[tx] = i * 5 + 1;
  __syncthreads();
  int val = sh[bdim - 1 - tx];
#define STORE(c, cond)                                                        \
  if (cond)                                                                   \
    out[(c) * total + gi] = val + (c);
  if (G == 0) { RANGES_0(STORE) }
  if (G == 1) { RANGES_1(STORE) }
  if (G == 2) { RANGES_2(STORE) }
}

// 5. Switch on the thread index (with a fall-through), each case storing to
// its own plane.
__global__ void switchKernel(int *out) {
  __shared__ int sh[64];
  unsigned tx = threadIdx.x, total = gridDim.x * blockDim.x;
  unsigned gi = blockIdx.x * blockDim.x + tx;
  sh[tx] = gi * 3;
  __syncthreads();
  int v = sh[blockDim.x - 1 - tx];
  switch (threadIdx.x) {
  case 0: out[gi] = v + 100; break;
  case 5: out[total + gi] = v + 200; // fall through
  case 6: out[2 * total + gi] = v + 7; break;
  case 31: out[3 * total + gi] = v + 300; break;
  default: out[4 * total + gi] = v + tx * 2; break;
  }
}

// 6. Bounds from a kernel argument (k may be negative); mirrored thread
// indices (`63 - tx`), comparisons with a min or max of thread
// expressions (pathfinder's `tx > k && tx < 63 - k`, which LLVM folds into
// `k < smin(tx, 63 - tx)`) and unsigned range checks on `k - tx` (a
// wavefront's `j >= 0 && j < 16`, folded into `(unsigned)j < 16`).
__host__ __device__ inline int imin(int a, int b) { return a < b ? a : b; }
__host__ __device__ inline int imax(int a, int b) { return a > b ? a : b; }
#define ARG_CONDS(X)                                                          \
  X(0, (int)tx < k) X(1, tx < (unsigned)k) /* k < 0: huge unsigned bound */   \
  X(2, (int)tx >= k - 2 && (int)tx <= k) X(3, (int)tx == k)                   \
  X(4, (int)tx > k) X(5, tx - (unsigned)k < 3u) X(6, (int)tx + k >= 4)        \
  X(7, (int)tx > k && (int)tx < 63 - k) X(8, 63 - (int)tx < k)                \
  X(9, k <= imin((int)tx, 40 - (int)tx))                                      \
  X(10, (int)tx < k || 50 - (int)tx > k)                                      \
  X(11, imax((int)tx, 30 - (int)tx) < k)                                     \
  X(12, k - (int)tx >= 0 && k - (int)tx < 16)                                 \
  X(13, (unsigned)(k - (int)tx) < 7u) X(14, (unsigned)(k - (int)tx) > 9u)
#define ARG_PLANES 15

__global__ void argBound(int *out, int k) {
  __shared__ int sh[128];
  unsigned tx = threadIdx.x, total = gridDim.x * blockDim.x;
  unsigned gi = blockIdx.x * blockDim.x + tx;
  sh[tx] = gi * 7;
  __syncthreads();
  int val = sh[blockDim.x - 1 - tx];
  ARG_CONDS(STORE)
}

static int failures = 0;

// Compares got with want; reports the first mismatch of this check.
static void compare(const char *what, int block, int *dev,
                    const std::vector<int> &want) {
  std::vector<int> got(want.size());
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got.data(), dev, got.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(dev));
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      ++failures;
      printf("%s (block %d): out[%zu] = %d, expected %d\n", what, block, i,
             got[i], want[i]);
      return;
    }
}

static int *devFill(size_t n, int value) {
  std::vector<int> host(n, value);
  int *dev;
  CUDA_CHECK(cudaMalloc(&dev, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(dev, host.data(), n * sizeof(int),
                        cudaMemcpyHostToDevice));
  return dev;
}

#define EXPECT(c, cond)                                                       \
  if (cond)                                                                   \
    want[(c) * total + gi] = val + (c);

template <int G> static void checkRanges(int block) {
  const unsigned blocks = 5, total = blocks * block, bdim = block;
  const int negBound = -5;
  const unsigned wrapOff = 0xFFFFFFFCu, wbase = 0xFFFFFFFFu - 20;
  const size_t n64 = total - 3, big64 = (size_t)1 << 33;
  int *out = devFill(kPlanes * total, kSentinel);
  if (block == 32)
    ranges<G><<<blocks, 32>>>(out, negBound, wrapOff, wbase, n64, big64);
  else if (block == 13)
    ranges<G><<<blocks, 13>>>(out, negBound, wrapOff, wbase, n64, big64);
  else if (block == 1)
    ranges<G><<<blocks, 1>>>(out, negBound, wrapOff, wbase, n64, big64);
  else
    ranges<G><<<blocks, block>>>(out, negBound, wrapOff, wbase, n64, big64);
  std::vector<int> want(kPlanes * total, kSentinel);
  for (unsigned gi = 0; gi < total; ++gi) {
    unsigned tx = gi % bdim, bid = gi / bdim;
    int i = gi;
    size_t g = gi;
    int val = (int)(bid * bdim + bdim - 1 - tx) * 5 + 1;
    if (G == 0) { RANGES_0(EXPECT) }
    if (G == 1) { RANGES_1(EXPECT) }
    if (G == 2) { RANGES_2(EXPECT) }
  }
  char what[32];
  snprintf(what, sizeof what, "ranges group %d", G);
  compare(what, block, out, want);
}

int main(int argc, char **argv) {
  volatile int one = argc;  // 1; sizes built from it are run-time values
  int rt = 40 + one;        // 41

  // 1. n = 1000 is not a multiple of the block size; threads past n and the
  // extra elements must stay untouched.
  for (int block : {128, 96, rt})
    for (bool tile : {false, true}) {
      const int n = 1000, extra = 300, blocks = (n + block - 1) / block;
      int *out = devFill(n + extra, kSentinel);
      if (block == 128 && tile) boundsMap<true><<<blocks, 128>>>(out, n);
      else if (block == 128) boundsMap<false><<<blocks, 128>>>(out, n);
      else if (block == 96 && tile) boundsMap<true><<<blocks, 96>>>(out, n);
      else if (block == 96) boundsMap<false><<<blocks, 96>>>(out, n);
      else if (tile) boundsMap<true><<<blocks, block>>>(out, n);
      else boundsMap<false><<<blocks, block>>>(out, n);
      std::vector<int> want(n + extra, kSentinel);
      for (int i = 0; i < n; ++i) {
        int base = i / block * block, mirror = base + block - 1 - (i - base);
        want[i] = tile ? (mirror * 3 + 1) * 2 : i * 3 + 1;
      }
      compare(tile ? "boundsMap tile" : "boundsMap", block, out, want);
    }

  // 2. Halo tiles in 16x16, 8x4 and a run-time 5x3 block.
  const dim3 haloBlocks[] = {dim3(16, 16), dim3(8, 4), dim3(5 * one, 3 * one)};
  for (int c = 0; c < 3; ++c) {
    const int w = 43, h = 22;
    dim3 b = haloBlocks[c];
    dim3 grid((w + b.x - 1) / b.x, (h + b.y - 1) / b.y);
    int *out = devFill(w * h, kSentinel);
    if (c == 0) halo<<<grid, dim3(16, 16)>>>(out, w, h);
    else if (c == 1) halo<<<grid, dim3(8, 4)>>>(out, w, h);
    else halo<<<grid, b>>>(out, w, h);
    std::vector<int> want(w * h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int sum = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
            sum += (3 * (dy + 1) + dx + 2) * cell(x + dx, y + dy, w, h);
        int bx = b.x, by = b.y;
        int tx = bx - 1 - x % bx, ty = by - 1 - y % by;  // the mirror thread
        EDGE_CODE(code)
        want[y * w + x] = sum * 1024 + code;
      }
    compare("halo", b.x * 100 + b.y, out, want);
  }

  // 3. Per-block sums.
  {
    const int n = 1000;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
    int *din;
    CUDA_CHECK(cudaMalloc(&din, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(din, in.data(), n * sizeof(int),
                          cudaMemcpyHostToDevice));
    const int sizes[] = {256, 64, 256, 96, rt, 1};
    for (int c = 0; c < 6; ++c) {
      int block = sizes[c], blocks = (n + block - 1) / block;
      size_t shared = block * sizeof(int);
      int *out = devFill(blocks, kSentinel);
      if (c == 0) sumPow2<<<blocks, 256, shared>>>(din, out, n);
      else if (c == 1) sumPow2<<<blocks, 64, shared>>>(din, out, n);
      else if (c == 2) sumAny<<<blocks, 256, shared>>>(din, out, n);
      else if (c == 3) sumAny<<<blocks, 96, shared>>>(din, out, n);
      else if (c == 4) sumAny<<<blocks, block, shared>>>(din, out, n);
      else sumAny<<<blocks, 1, shared>>>(din, out, n);
      std::vector<int> want(blocks, 0);
      for (int i = 0; i < n; ++i) want[i / block] += in[i];
      compare(c < 2 ? "sumPow2" : "sumAny", block, out, want);
    }
    CUDA_CHECK(cudaFree(din));
  }

  // 4. Comparison kinds, in blocks of 32, 13, 1 and a run-time 7.
  for (int block : {32, 13, 1, 6 + one}) {
    checkRanges<0>(block);
    checkRanges<1>(block);
    checkRanges<2>(block);
  }

  // 5. Switch in blocks of 32, 20 (case 31 never taken) and run-time 33.
  for (int block : {32, 20, 32 + one}) {
    const unsigned blocks = 3, total = blocks * block;
    int *out = devFill(5 * total, kSentinel);
    if (block == 32) switchKernel<<<blocks, 32>>>(out);
    else if (block == 20) switchKernel<<<blocks, 20>>>(out);
    else switchKernel<<<blocks, block>>>(out);
    std::vector<int> want(5 * total, kSentinel);
    for (unsigned gi = 0; gi < total; ++gi) {
      unsigned tx = gi % block;
      int v = (int)(gi - tx + block - 1 - tx) * 3;
      if (tx == 0) want[gi] = v + 100;
      else if (tx == 5) want[total + gi] = v + 200;
      if (tx == 5 || tx == 6) want[2 * total + gi] = v + 7;
      else if (tx == 31) want[3 * total + gi] = v + 300;
      else if (tx != 0) want[4 * total + gi] = v + tx * 2;
    }
    compare("switch", block, out, want);
  }

  // 6. The same kernel with bounds 0, 1, 5, 20, 31, 32, bd-1, bd, bd+5
  // and -3.
  for (int block : {64, rt}) {
    const unsigned blocks = 2, total = blocks * block;
    for (int k : {0, 1, 5, 20, 31, 32, block - 1, block, block + 5, -3}) {
      int *out = devFill(ARG_PLANES * total, kSentinel);
      if (block == 64) argBound<<<blocks, 64>>>(out, k);
      else argBound<<<blocks, block>>>(out, k);
      std::vector<int> want(ARG_PLANES * total, kSentinel);
      for (unsigned gi = 0; gi < total; ++gi) {
        unsigned tx = gi % block;
        int val = (int)(gi - tx + block - 1 - tx) * 7;
        ARG_CONDS(EXPECT)
      }
      char what[32];
      snprintf(what, sizeof what, "argBound k=%d", k);
      compare(what, block, out, want);
    }
  }

  if (failures) {
    printf("FAILED: %d checks\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Warp primitives in kernels without block barriers whose primitives sit in
// straight-line code or under lane-invariant branches (by default respec
// runs such warps as 32 interleaved lanes; --disable-opt=all takes the
// barrier emulation instead, so the two RUN lines compare both):
//  - shuffles whose lane operand differs from lane to lane (negative and
//    large source lanes, deltas and xor masks 0..31) for widths 32, 8, 1;
//  - shuffles whose width and operands are kernel arguments (every width);
//  - votes and reductions with the full mask and with per-lane masks that
//    name the lane's own group of 8; a lane-invariant if around primitives;
//    per-lane branches without primitives; __syncwarp ordering a
//    shared-memory exchange (full warps); a few votes and reductions whose
//    mask names the existing lanes (a partial last warp); per-lane loops
//    and branches (without primitives) computing the values shuffled;
// in blocks of 64 threads, of 80 threads (a partial last warp of 16 lanes:
// the masks name only existing lanes) and 2-D blocks of (8, 12).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <climits>
#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define MAXN 512

__device__ int linearTid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// The mask of the existing lanes of the caller's warp.
__device__ unsigned warpMask() {
  int threads = blockDim.x * blockDim.y * blockDim.z;
  int n = threads - linearTid() / 32 * 32;
  return n >= 32 ? FULL : (1u << n) - 1;
}

__device__ int globalId() {
  return blockIdx.x * blockDim.x * blockDim.y * blockDim.z + linearTid();
}

// Lane operands that differ from lane to lane.
template <int W>
__global__ void laneOperands(const int *in, const int *src, int *out) {
  int gid = globalId();
  int v = in[gid], s = src[gid];
  unsigned m = warpMask();
  int *r = out + gid * 4;
  r[0] = __shfl_sync(m, v, s, W);
  r[1] = __shfl_up_sync(m, v, (unsigned)s & 31, W);
  r[2] = __shfl_down_sync(m, v, (unsigned)s & 31, W);
  r[3] = __shfl_xor_sync(m, v, s & 31, W);
}

// Width and operands as kernel arguments.
__global__ void argOperands(const int *in, int *out, int width, int srcLane,
                            unsigned delta, int laneMask) {
  int gid = globalId();
  int v = in[gid];
  unsigned m = warpMask();
  double d = v * 0.5 + 1.0 / 4096;
  int *r = out + gid * 6;
  r[0] = __shfl_sync(m, v, srcLane, width);
  r[1] = __shfl_up_sync(m, v, delta, width);
  r[2] = __shfl_down_sync(m, v, delta, width);
  r[3] = __shfl_xor_sync(m, v, laneMask, width);
  r[4] = (int)(__shfl_down_sync(m, d, delta, width) * 4096);
  r[5] = (int)(__shfl_xor_sync(m, d, laneMask, width) * 4096);
}

#define NVOTE 18
// Full warps only: the full mask, and per-lane masks naming the lane's
// group of 8.
__global__ void votes(const int *in, int *out, int flag) {
  __shared__ int s[MAXN];
  int gid = globalId(), t = linearTid(), lane = t % 32;
  int v = in[gid];
  unsigned u = (unsigned)v * 2654435761u;
  unsigned g = 0xffu << (lane & ~7);
  int *r = out + gid * NVOTE;
  r[0] = (int)__ballot_sync(FULL, v % 3 == 0);
  r[1] = __any_sync(FULL, v > 95);
  r[2] = __all_sync(FULL, v >= 0);
  r[3] = __uni_sync(FULL, v >= 5);
  r[4] = (int)__reduce_add_sync(FULL, (unsigned)v);
  r[5] = __reduce_min_sync(FULL, v - 50);
  r[6] = __reduce_max_sync(FULL, v - 50);
  r[7] = (int)__reduce_min_sync(FULL, u);
  r[8] = (int)__reduce_max_sync(FULL, u);
  r[9] = (int)__reduce_and_sync(FULL, u | 0x10000);
  r[10] = (int)__reduce_or_sync(FULL, u & 0xff00ff);
  r[11] = (int)__reduce_xor_sync(FULL, u);
  // Per-lane masks: each lane names its own group of 8.
  r[12] = (int)__ballot_sync(g, v % 2 == 0);
  r[13] = (int)__reduce_add_sync(g, (unsigned)v);
  r[14] = __shfl_down_sync(g, v, 1, 8);
  // A lane-invariant branch around a primitive; per-lane control without.
  int x = v;
  if (v % 4 == 1)
    x = x * 3 + lane;
  else
    x -= 7;
  if (flag)
    r[15] = __shfl_sync(FULL, x, 0);
  else
    r[15] = __shfl_xor_sync(FULL, x, 2);
  // __syncwarp orders an exchange through shared memory.
  s[t] = v * 5;
  __syncwarp();
  r[16] = s[t - lane + (lane + 1) % 32];
  __syncwarp();
  r[17] = x;
}

// Any block: the masks name the existing lanes of the warp. (Few
// primitives: with a mask that varies by lane, the interleaved form takes
// long to compile.)
__global__ void partialVotes(const int *in, int *out) {
  int gid = globalId();
  int v = in[gid];
  unsigned m = warpMask();
  int *r = out + gid * 4;
  r[0] = (int)__ballot_sync(m, v % 3 == 0);
  r[1] = __all_sync(m, v >= 0);
  r[2] = (int)__reduce_add_sync(m, (unsigned)v);
  r[3] = __reduce_max_sync(m, v - 50);
}

// Per-lane loops and branches (no primitive inside) feeding primitives.
__global__ void perLaneControl(const int *in, int *out) {
  int gid = globalId(), lane = linearTid() % 32;
  int v = in[gid];
  int x = 0;
  for (int i = 0; i < v % 13; ++i)
    x += i * lane + 1;
  if (lane & 1)
    x = -x;
  int y = __shfl_sync(FULL, x, (lane * 7) % 32);
  out[gid * 3 + 0] = y;
  out[gid * 3 + 1] = (int)__reduce_add_sync(FULL, (unsigned)y);
  out[gid * 3 + 2] = (int)__ballot_sync(FULL, y > 0);
}

static int errors = 0;

static void report(const char *what, int gid, int k, int got, int want) {
  if (got != want && ++errors <= 15)
    printf("%s thread %d item %d: got %d, expected %d\n", what, gid, k, got,
           want);
}

// The lane whose value `lane` receives, by the CUDA Programming Guide;
// -1 if that lane does not exist (n lanes in the warp): undefined.
static int sourceLane(int kind, int lane, int b, int w, int n) {
  int start = lane / w * w, src;
  switch (kind) {
  case 0: src = start + (int)(((long long)b % w + w) % w); break;
  case 1: src = lane - b >= start ? lane - b : lane; break;
  case 2: src = lane + b < start + w ? lane + b : lane; break;
  default: src = (lane ^ b) < start + w ? (lane ^ b) : lane; break;
  }
  return src < n ? src : -1;
}

struct Config {
  dim3 block;
  int blocks;
};

template <int W> static void runLaneOperands(const Config &c) {
  int threads = c.block.x * c.block.y * c.block.z, total = threads * c.blocks;
  static int h[MAXN * 2], src[MAXN * 2], out[MAXN * 2 * 4];
  static const int extra[] = {-1, -7, -32, -33, 32, 45, 1000, INT_MIN, INT_MAX};
  for (int i = 0; i < total; ++i) {
    h[i] = (i * 37 + 11) % 101;
    src[i] = i % 5 == 4 ? extra[i / 5 % 9] : (i * 13 + 7) % 32;
  }
  int *dIn, *dSrc, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dSrc, total * sizeof(int));
  cudaMalloc(&dOut, total * 4 * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dSrc, src, total * sizeof(int), cudaMemcpyHostToDevice);
  laneOperands<W><<<c.blocks, c.block>>>(dIn, dSrc, dOut);
  cudaMemcpy(out, dOut, total * 4 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int gid = 0; gid < total; ++gid) {
    int t = gid % threads, lane = t % 32, base = gid - lane;
    int n = threads - t / 32 * 32 < 32 ? threads - t / 32 * 32 : 32;
    for (int k = 0; k < 4; ++k) {
      int b = k == 0 ? src[gid] : src[gid] & 31;
      int sl = sourceLane(k, lane, b, W, n);
      if (sl >= 0)
        report(W == 32 ? "lane operands, width 32" : W == 8 ? "lane operands, width 8" : "lane operands, width 1",
               gid, k, out[gid * 4 + k], h[base + sl]);
    }
  }
  cudaFree(dIn);
  cudaFree(dSrc);
  cudaFree(dOut);
}

static void runArgOperands(const Config &c, int width, int srcLane,
                           unsigned delta, int laneMask) {
  int threads = c.block.x * c.block.y * c.block.z, total = threads * c.blocks;
  static int h[MAXN * 2], out[MAXN * 2 * 6];
  for (int i = 0; i < total; ++i)
    h[i] = (i * 53 + 7) % 97;
  int *dIn, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dOut, total * 6 * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  argOperands<<<c.blocks, c.block>>>(dIn, dOut, width, srcLane, delta, laneMask);
  cudaMemcpy(out, dOut, total * 6 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int gid = 0; gid < total; ++gid) {
    int t = gid % threads, lane = t % 32, base = gid - lane;
    int n = threads - t / 32 * 32 < 32 ? threads - t / 32 * 32 : 32;
    int b[6] = {srcLane, (int)delta, (int)delta, laneMask, (int)delta, laneMask};
    int kind[6] = {0, 1, 2, 3, 2, 3};
    for (int k = 0; k < 6; ++k) {
      int sl = sourceLane(kind[k], lane, b[k], width, n);
      if (sl >= 0)
        report("argument operands", gid, k, out[gid * 6 + k],
               k < 4 ? h[base + sl] : h[base + sl] * 2048 + 1);
    }
  }
  cudaFree(dIn);
  cudaFree(dOut);
}

static void runVotes(const Config &c, int flag) {
  int threads = c.block.x * c.block.y * c.block.z, total = threads * c.blocks;
  static int h[MAXN * 2], out[MAXN * 2 * NVOTE];
  for (int i = 0; i < total; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *dIn, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dOut, total * NVOTE * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  bool full = threads % 32 == 0;
  if (full)
    votes<<<c.blocks, c.block>>>(dIn, dOut, flag);
  else
    partialVotes<<<c.blocks, c.block>>>(dIn, dOut);
  cudaMemcpy(out, dOut, total * NVOTE * sizeof(int), cudaMemcpyDeviceToHost);
  for (int gid = 0; gid < total; ++gid) {
    int t = gid % threads, lane = t % 32, base = gid - lane;
    int n = threads - t / 32 * 32 < 32 ? threads - t / 32 * 32 : 32;
    const int *v = h + base;
    unsigned bal = 0, sum = 0, umin = UINT_MAX, umax = 0, uand = ~0u, uor = 0,
             uxor = 0, gbal = 0, gsum = 0;
    int any = 0, all = 1, ge5 = 0, imin = INT_MAX, imax = INT_MIN;
    int x[32];
    for (int l = 0; l < n; ++l) {
      unsigned u = (unsigned)v[l] * 2654435761u;
      bal |= (unsigned)(v[l] % 3 == 0) << l;
      any |= v[l] > 95;
      all &= v[l] >= 0;
      ge5 += v[l] >= 5;
      sum += v[l];
      imin = v[l] - 50 < imin ? v[l] - 50 : imin;
      imax = v[l] - 50 > imax ? v[l] - 50 : imax;
      umin = u < umin ? u : umin;
      umax = u > umax ? u : umax;
      uand &= u | 0x10000;
      uor |= u & 0xff00ff;
      uxor ^= u;
      if (l / 8 == lane / 8) {
        gbal |= (unsigned)(v[l] % 2 == 0) << l;
        gsum += v[l];
      }
      x[l] = v[l] % 4 == 1 ? v[l] * 3 + l : v[l] - 7;
    }
    if (!full) {
      int want[4] = {(int)bal, all, (int)sum, imax};
      for (int k = 0; k < 4; ++k)
        report("partial-warp votes", gid, k, out[gid * 4 + k], want[k]);
      continue;
    }
    int down = lane % 8 < 7 ? v[lane + 1] : v[lane];
    int want[NVOTE] = {(int)bal, any, all, ge5 == 0 || ge5 == 32, (int)sum,
                       imin, imax, (int)umin, (int)umax, (int)uand, (int)uor,
                       (int)uxor, (int)gbal, (int)gsum, down,
                       x[flag ? 0 : lane ^ 2], v[(lane + 1) % 32] * 5, x[lane]};
    for (int k = 0; k < NVOTE; ++k)
      report(flag ? "votes (flag 1)" : "votes (flag 0)", gid, k,
             out[gid * NVOTE + k], want[k]);
  }
  cudaFree(dIn);
  cudaFree(dOut);
}

static void runPerLaneControl(const Config &c) {
  int threads = c.block.x * c.block.y * c.block.z, total = threads * c.blocks;
  static int h[MAXN * 2], out[MAXN * 2 * 3];
  for (int i = 0; i < total; ++i)
    h[i] = (i * 37 + 11) % 101;
  int *dIn, *dOut;
  cudaMalloc(&dIn, total * sizeof(int));
  cudaMalloc(&dOut, total * 3 * sizeof(int));
  cudaMemcpy(dIn, h, total * sizeof(int), cudaMemcpyHostToDevice);
  perLaneControl<<<c.blocks, c.block>>>(dIn, dOut);
  cudaMemcpy(out, dOut, total * 3 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int base = 0; base < total; base += 32) {
    int x[32], y[32];
    unsigned sum = 0, bal = 0;
    for (int l = 0; l < 32; ++l) {
      x[l] = 0;
      for (int i = 0; i < h[base + l] % 13; ++i)
        x[l] += i * l + 1;
      if (l & 1)
        x[l] = -x[l];
    }
    for (int l = 0; l < 32; ++l) {
      y[l] = x[(l * 7) % 32];
      sum += y[l];
      bal |= (unsigned)(y[l] > 0) << l;
    }
    for (int l = 0; l < 32; ++l) {
      int want[3] = {y[l], (int)sum, (int)bal};
      for (int k = 0; k < 3; ++k)
        report("per-lane control", base + l, k, out[(base + l) * 3 + k],
               want[k]);
    }
  }
  cudaFree(dIn);
  cudaFree(dOut);
}

int main() {
  const Config configs[] = {{dim3(64), 2}, {dim3(80), 2}, {dim3(8, 12), 2}};
  for (const Config &c : configs) {
    runLaneOperands<32>(c);
    runLaneOperands<8>(c);
    runLaneOperands<1>(c);
    for (int w = 1; w <= 32; w *= 2) {
      runArgOperands(c, w, 5, 3, 6);
      runArgOperands(c, w, -3, 17, 13);
      runArgOperands(c, w, 40, 31, 31);
    }
    runVotes(c, 0);
    if (c.block.x * c.block.y * c.block.z % 32 == 0) {
      runVotes(c, 1); // the other side of the lane-invariant branch
      runPerLaneControl(c);
    }
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

// The four __shfl*_sync functions with a full mask for every width (1, 2,
// 4, 8, 16, 32) and every lane operand 0..31, for int, unsigned, float,
// double, long long, long and unsigned long long, against CUDA's documented
// results:
//   __shfl_sync:      the lane srcLane modulo width of the caller's segment,
//                     also for srcLane >= width, negative or huge srcLane;
//   __shfl_up_sync:   lane - delta, or the caller's own value if that lies
//                     before the start of its segment;
//   __shfl_down_sync: lane + delta, or the own value past the segment's end;
//   __shfl_xor_sync:  lane ^ laneMask; a lane of an earlier segment may be
//                     read, a lane past the end of the caller's segment
//                     yields the own value (masks >= width included).
// The width and the lane operand are run-time values here (see
// shfl_const_operands.cu for constant ones). 3 blocks of 64 threads (full
// warps only).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <climits>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define NWIDTH 6 // widths 1 << 0 .. 1 << 5
#define NLANEOPS 32
// srcLane values of __shfl_sync beyond 0..31.
#define NEXTRA 15
static const int hExtra[NEXTRA] = {-1, -2, -5, -17, -31, -32, -33, 32, 33,
                                   47, 64, 100, 1000003, INT_MIN, INT_MAX};
#define NOPS (NLANEOPS + NEXTRA)
#define PER_THREAD (NWIDTH * NOPS * 4)
#define BLOCKS 3
#define THREADS 64
#define N (BLOCKS * THREADS)

// Every width and lane operand, the width and operand held in variables.
template <typename T>
__global__ void shuffleAll(const T *in, const int *ops, T *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[gid];
  T *o = out + (size_t)gid * PER_THREAD;
  for (int wi = 0; wi < NWIDTH; ++wi) {
    int w = 1 << wi;
    for (int j = 0; j < NOPS; ++j) {
      int b = ops[j];
      T *r = o + (wi * NOPS + j) * 4;
      r[0] = __shfl_sync(FULL, v, b, w);
      if (j < NLANEOPS) {
        r[1] = __shfl_up_sync(FULL, v, (unsigned)b, w);
        r[2] = __shfl_down_sync(FULL, v, (unsigned)b, w);
        r[3] = __shfl_xor_sync(FULL, v, b, w);
      }
    }
  }
}

// The lane whose value `lane` receives, by the CUDA Programming Guide.
// kind: 0 __shfl_sync, 1 up, 2 down, 3 xor.
static int sourceLane(int kind, int lane, int b, int w) {
  int start = lane / w * w;
  switch (kind) {
  case 0: {
    long long m = ((long long)b % w + w) % w;
    return start + (int)m;
  }
  case 1:
    return lane - b >= start ? lane - b : lane;
  case 2:
    return lane + b < start + w ? lane + b : lane;
  default:
    return (lane ^ b) < start + w ? (lane ^ b) : lane;
  }
}

static void show(int v, char *s) { sprintf(s, "%d", v); }
static void show(unsigned v, char *s) { sprintf(s, "%u", v); }
static void show(float v, char *s) { sprintf(s, "%a", v); }
static void show(double v, char *s) { sprintf(s, "%a", v); }
static void show(long long v, char *s) { sprintf(s, "%lld", v); }
static void show(long v, char *s) { sprintf(s, "%ld", v); }
static void show(unsigned long long v, char *s) { sprintf(s, "%llu", v); }

static int errors = 0;

template <typename T>
static void expect(const char *type, const char *fn, int b, int width, int gid,
                   T got, T want) {
  if (memcmp(&got, &want, sizeof(T)) == 0)
    return;
  if (++errors <= 12) {
    char g[64], w[64];
    show(got, g);
    show(want, w);
    printf("%s %s(b=%d, width=%d) thread %d: got %s, expected %s\n", type, fn,
           b, width, gid, g, w);
  }
}

template <typename T> static void run(const char *type, T (*gen)(int)) {
  static T h[N], out[N * PER_THREAD];
  int ops[NOPS];
  for (int j = 0; j < NLANEOPS; ++j)
    ops[j] = j;
  for (int j = 0; j < NEXTRA; ++j)
    ops[NLANEOPS + j] = hExtra[j];
  for (int i = 0; i < N; ++i)
    h[i] = gen(i);
  T *dIn, *dOut;
  int *dOps;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dOps, sizeof ops);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dOps, ops, sizeof ops, cudaMemcpyHostToDevice);
  cudaMemset(dOut, 0, sizeof out);
  shuffleAll<T><<<BLOCKS, THREADS>>>(dIn, dOps, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dOps);

  static const char *kinds[4] = {"shfl", "shfl_up", "shfl_down", "shfl_xor"};
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    for (int wi = 0; wi < NWIDTH; ++wi) {
      int w = 1 << wi;
      for (int j = 0; j < NOPS; ++j)
        for (int k = 0; k < (j < NLANEOPS ? 4 : 1); ++k)
          expect(type, kinds[k], ops[j], w, gid,
                 out[(size_t)gid * PER_THREAD + (wi * NOPS + j) * 4 + k],
                 h[base + sourceLane(k, lane, ops[j], w)]);
    }
  }
}

static unsigned hash(int i) {
  unsigned x = (unsigned)i * 2654435761u + 12345u;
  x ^= x >> 15;
  x *= 2246822519u;
  return x ^ (x >> 13);
}
static int genInt(int i) { return (int)hash(i); }
static unsigned genUnsigned(int i) {
  return hash(i) | (i % 3 == 0 ? 0x80000000u : 0u);
}
static float genFloat(int i) {
  return i == 5 ? -0.0f : (float)(int)(hash(i) % 2000 - 1000) * 0.375f;
}
static double genDouble(int i) {
  // Both 32-bit halves differ from lane to lane.
  return ((int)(hash(i) % 4000) - 2000) * 1.0000000001 + i * 1e-9;
}
static long long genLongLong(int i) {
  return (long long)(((unsigned long long)hash(i) << 32) | hash(i + 7777));
}
static long genLong(int i) { return (long)genLongLong(i + 99); }
static unsigned long long genULongLong(int i) {
  return (unsigned long long)genLongLong(i + 555);
}

int main() {
  run<int>("int", genInt);
  run<unsigned>("unsigned", genUnsigned);
  run<float>("float", genFloat);
  run<double>("double", genDouble);
  run<long long>("long long", genLongLong);
  run<long>("long", genLong);
  run<unsigned long long>("unsigned long long", genULongLong);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

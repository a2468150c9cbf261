// The __shfl*_sync functions with compile-time constant widths and lane
// operands (one kernel per width, 1 to 32; int), plus calls that leave the
// width at its default (warpSize; int and double). Operands go past the segment:
// srcLane >= width and negative srcLane wrap modulo width; shfl_up/down
// past the segment's ends return the caller's own value; xor masks >= width
// reach into an earlier segment or yield the own value.
// 2 blocks of 96 threads (full warps only).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define NCALLS 10
#define BLOCKS 2
#define THREADS 96
#define N (BLOCKS * THREADS)

template <int W, typename T> __global__ void constWidth(const T *in, T *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[gid];
  T *r = out + gid * NCALLS;
  r[0] = __shfl_sync(FULL, v, 3, W);
  r[1] = __shfl_sync(FULL, v, -1, W);
  r[2] = __shfl_sync(FULL, v, W + 1, W);
  r[3] = __shfl_up_sync(FULL, v, 1, W);
  r[4] = __shfl_up_sync(FULL, v, W / 2 + 1, W);
  r[5] = __shfl_down_sync(FULL, v, 1, W);
  r[6] = __shfl_down_sync(FULL, v, W - 1, W);
  r[7] = __shfl_xor_sync(FULL, v, 1, W);
  r[8] = __shfl_xor_sync(FULL, v, (2 * W - 1) & 31, W);
  r[9] = __shfl_xor_sync(FULL, v, 16, W);
}

template <typename T> __global__ void defaultWidth(const T *in, T *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  T v = in[gid];
  T *r = out + gid * 6;
  r[0] = __shfl_sync(FULL, v, 17);
  r[1] = __shfl_sync(FULL, v, 40);
  r[2] = __shfl_up_sync(FULL, v, 5);
  r[3] = __shfl_down_sync(FULL, v, 7);
  r[4] = __shfl_xor_sync(FULL, v, 21);
  r[5] = __shfl_down_sync(FULL, v, 31);
}

// The lane whose value `lane` receives, by the CUDA Programming Guide.
// kind: 0 __shfl_sync, 1 up, 2 down, 3 xor.
static int sourceLane(int kind, int lane, int b, int w) {
  int start = lane / w * w;
  switch (kind) {
  case 0:
    return start + ((b % w) + w) % w;
  case 1:
    return lane - b >= start ? lane - b : lane;
  case 2:
    return lane + b < start + w ? lane + b : lane;
  default:
    return (lane ^ b) < start + w ? (lane ^ b) : lane;
  }
}

static int errors = 0;
static const char *kinds[4] = {"shfl", "shfl_up", "shfl_down", "shfl_xor"};

static void show(int v) { printf("%d", v); }
static void show(double v) { printf("%a", v); }

template <typename T>
static void check(const char *type, const T *h, const T *out, int per,
                  const int *kind, const int *b, int w) {
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    for (int c = 0; c < per; ++c) {
      T want = h[base + sourceLane(kind[c], lane, b[c], w)];
      T got = out[gid * per + c];
      if (memcmp(&got, &want, sizeof(T)) != 0 && ++errors <= 12) {
        printf("%s %s(b=%d, width=%d) thread %d: got ", type, kinds[kind[c]],
               b[c], w, gid);
        show(got);
        printf(", expected ");
        show(want);
        printf("\n");
      }
    }
  }
}

template <int W, typename T>
static void runWidth(const char *type, const T *h, T *dIn, T *dOut) {
  static T out[N * NCALLS];
  cudaMemset(dOut, 0, sizeof out);
  constWidth<W, T><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  int kind[NCALLS] = {0, 0, 0, 1, 1, 2, 2, 3, 3, 3};
  int b[NCALLS] = {3, -1, W + 1, 1, W / 2 + 1, 1, W - 1, 1, (2 * W - 1) & 31, 16};
  check(type, h, out, NCALLS, kind, b, W);
}

// Only instantiated kernels are compiled: constWidth for int only.
template <typename T> static void runWidths(const char *, const T *, T *, T *) {}
template <> void runWidths<int>(const char *type, const int *h, int *dIn,
                                int *dOut) {
  runWidth<1>(type, h, dIn, dOut);
  runWidth<2>(type, h, dIn, dOut);
  runWidth<4>(type, h, dIn, dOut);
  runWidth<8>(type, h, dIn, dOut);
  runWidth<16>(type, h, dIn, dOut);
  runWidth<32>(type, h, dIn, dOut);
}

template <typename T> static void run(const char *type, T (*gen)(int)) {
  static T h[N], out[N * NCALLS];
  for (int i = 0; i < N; ++i)
    h[i] = gen(i);
  T *dIn, *dOut;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  runWidths<T>(type, h, dIn, dOut);
  cudaMemset(dOut, 0, sizeof out);
  defaultWidth<T><<<BLOCKS, THREADS>>>(dIn, dOut);
  cudaMemcpy(out, dOut, N * 6 * sizeof(T), cudaMemcpyDeviceToHost);
  int kind[6] = {0, 0, 1, 2, 3, 2};
  int b[6] = {17, 40, 5, 7, 21, 31};
  check(type, h, out, 6, kind, b, 32);
  cudaFree(dIn);
  cudaFree(dOut);
}

static int genInt(int i) { return (i * 7919 + 13) % 100003 - 50000; }
static double genDouble(int i) {
  // Both 32-bit halves differ from lane to lane.
  return (i * 7919 % 1009 - 500) * 1.0000000001 + i * 1e-9;
}

int main() {
  run<int>("int", genInt);
  run<double>("double", genDouble);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

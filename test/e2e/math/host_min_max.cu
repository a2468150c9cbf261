// CUDA's integer and mixed-type min and max in host code and in
// __host__ __device__ functions, which nvcc provides on both sides and
// clang's CUDA headers only for device code. Each overload is checked with
// CUDA's conversions (signed and unsigned compare as unsigned, float and
// double as double, a NaN yields the other operand), on the host and, for
// the __host__ __device__ function, in a kernel; with the toolkit's headers
// and with respec's own.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

static int failures = 0;

#define EXPECT(expr, want)                                                     \
  do {                                                                         \
    if (!((expr) == (want))) {                                                 \
      std::printf("line %d: %s is wrong\n", __LINE__, #expr);                  \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

__host__ __device__ int clampToRange(int x, int lo, int hi) {
  return max(lo, min(x, hi));
}

__global__ void clampKernel(int *out) {
  out[threadIdx.x] = clampToRange(int(threadIdx.x) - 3, 0, 5);
}

int main(int argc, char **) {
  // Operands the compiler cannot fold.
  volatile int one = argc;
  int minusOne = -one;
  unsigned five = 5u * one;
  long minusOneLong = -long(one);
  unsigned long sevenLong = 7ul * one;
  long long minusOneLongLong = -(long long)one;
  unsigned long long nine = 9ull * one;
  float half = 0.5f * one;
  double quarter = 0.25 * one;

  EXPECT(min(minusOne, 3), -1);
  EXPECT(max(minusOne, 3), 3);
  EXPECT(umin(five, 3u), 3u);
  EXPECT(umax(five, 3u), 5u);
  EXPECT(llmin(minusOneLongLong, 2ll), -1ll);
  EXPECT(llmax(minusOneLongLong, 2ll), 2ll);
  EXPECT(ullmin(nine, 4ull), 4ull);
  EXPECT(ullmax(nine, 4ull), 9ull);
  EXPECT(min(five, 2u), 2u);
  EXPECT(max(five, 2u), 5u);
  // A signed and an unsigned operand compare as unsigned: -1 is the
  // largest value.
  EXPECT(min(minusOne, five), 5u);
  EXPECT(max(five, minusOne), 0xffffffffu);
  EXPECT(min(minusOneLong, 3l), -1l);
  EXPECT(max(sevenLong, 3ul), 7ul);
  EXPECT(min(minusOneLong, sevenLong), 7ul);
  EXPECT(max(sevenLong, minusOneLong), ~0ul);
  EXPECT(min(minusOneLongLong, 5ll), -1ll);
  EXPECT(max(nine, 3ull), 9ull);
  EXPECT(min(minusOneLongLong, nine), 9ull);
  EXPECT(max(nine, minusOneLongLong), ~0ull);
  EXPECT(min(half, 2.0f), 0.5f);
  EXPECT(max(half, 2.0f), 2.0f);
  EXPECT(min(quarter, 1.0), 0.25);
  EXPECT(max(half, quarter), 0.5);
  EXPECT(min(quarter, half), 0.25);
  EXPECT(max(half, std::nan("")), 0.5);
  EXPECT(min(std::nanf(""), half), 0.5f);
  // A grid sized on the host as CUDA programs do.
  int blocks = min(32, (1000 * one + 255) / 256);
  EXPECT(blocks, 4);

  int *out;
  cudaMalloc(&out, 16 * sizeof(int));
  clampKernel<<<1, 16>>>(out);
  int host[16];
  cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 16; ++t) {
    EXPECT(host[t], clampToRange(t - 3, 0, 5));
    EXPECT(clampToRange(t - 3, 0, 5), t < 3 ? 0 : t - 3 > 5 ? 5 : t - 3);
  }
  cudaFree(out);
  if (failures) {
    std::printf("FAILED: %d\n", failures);
    return 1;
  }
  std::printf("PASSED\n");
  return 0;
}

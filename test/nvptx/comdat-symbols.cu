// Device code using symbols that C++ puts in COMDAT groups: a C++17 inline
// static data member, an inline variable, and the ordering constants of a
// defaulted `operator<=>` on a struct with a float member
// (std::partial_ordering::less & co. are inline variables). PTX has no
// COMDAT groups; before 0.28.0, --target=nvptx stopped with "error:
// expected comdat symbol" and no location. Now the program builds (PTX and
// ptxas' cubin) and its kernel launches with the parameters the host gives.
//
// REQUIRES: cuda-toolkit, ptxas, fake-cuda-driver
// RUN: %respec --target=nvptx -std=c++20 %s -o %t
// RUN: %respec --target=nvptx -std=c++20 --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: rm -f %t.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.log %t
// RUN: FileCheck %s --input-file %t.log
// PTX: .entry _Z7compareP5PointS0_Pi(
// CHECK: launch _Z7compareP5PointS0_Pi grid=1,1,1 block=8,1,1

#include <compare>

struct Limits {
  int low;
  static const Limits standard;
};
inline constexpr Limits Limits::standard{-1};
inline constexpr int kScale = 3;

struct Point {
  float x;
  int id;
  auto operator<=>(const Point &) const = default;
};

__device__ int lowOf(const Limits &limits) { return limits.low; }

__global__ void compare(Point *a, Point *b, int *out) {
  int i = threadIdx.x;
  auto order = a[i] <=> b[i];
  out[i] = (order < 0 ? lowOf(Limits::standard) : order > 0 ? 1 : 0) * kScale;
}

int main() {
  Point *a, *b;
  int *out;
  cudaMalloc(&a, 8 * sizeof(Point));
  cudaMalloc(&b, 8 * sizeof(Point));
  cudaMalloc(&out, 8 * sizeof(int));
  compare<<<1, 8>>>(a, b, out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

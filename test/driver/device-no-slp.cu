// Device code reaches the back ends without SLP vectors: clang at -O2 would
// pack pairs of a thread's array elements into <2 x float> for the GPU,
// which hides the scalar per-thread code the CPU back end widens across
// threads. Each back end's own pipeline runs the SLP vectorizer for its
// target.
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}}@_Z7nearestPKfS0_iiPi(
// CHECK-NOT: x float>
// CHECK: ret void

#include <cuda_runtime.h>

#define DIMS 8

__global__ void nearest(const float *xT, const float *centers, int k, int n,
                        int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x[DIMS];
    for (int f = 0; f < DIMS; ++f)
      x[f] = xT[(size_t)f * n + i];
    int best = 0;
    float bestDist = 3e38f;
    for (int c = 0; c < k; ++c) {
      float dist = 0.0f;
      for (int f = 0; f < DIMS; ++f) {
        float d = x[f] - centers[c * DIMS + f];
        dist += d * d;
      }
      if (dist < bestDist) {
        bestDist = dist;
        best = c;
      }
    }
    out[i] = best;
  }
}

int main() {
  nearest<<<1, 32>>>(nullptr, nullptr, 0, 0, nullptr);
  return 0;
}

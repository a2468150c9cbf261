// Neighbouring blocks of a grid row fused (respec-fuse-block-rows) when the
// barrier lowering places its spill storage between the thread loops, as it
// does without the minimum cut: each fused row loop must use only the
// storage allocated before it (this used to be invalid IR, "operand #0 does
// not dominate this use"). The kernel is LU's trailing update: 16x16 tiles
// of a row and a column of the matrix staged in shared memory, then each
// thread's dot product. The host checks every element.
// RUN: %respec -O2 --disable-opt=barrier-min-cut %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 %s -o %t.default && %t.default | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <vector>

#define BS 16

__global__ void trailingUpdate(float *a, int n, int k0) {
  __shared__ float l[BS][BS], u[BS][BS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = k0 + BS * (blockIdx.y + 1) + ty, j = k0 + BS * (blockIdx.x + 1) + tx;
  l[ty][tx] = a[(size_t)i * n + k0 + tx];
  u[ty][tx] = a[(size_t)(k0 + ty) * n + j];
  __syncthreads();
  float s = 0.0f;
  for (int m = 0; m < BS; ++m)
    s += l[ty][m] * u[m][tx];
  a[(size_t)i * n + j] -= s;
}

int main() {
  const int n = 160, k0 = 16, rest = (n - k0) / BS - 1;
  std::vector<float> a(n * n), want;
  for (int i = 0; i < n * n; ++i)
    a[i] = (float)((i * 37) % 101) / 16.0f;
  want = a;
  for (int i = k0 + BS; i < n; ++i)
    for (int j = k0 + BS; j < n; ++j) {
      float s = 0.0f;
      for (int m = 0; m < BS; ++m)
        s += a[(size_t)i * n + k0 + m] * a[(size_t)(k0 + m) * n + j];
      want[(size_t)i * n + j] = a[(size_t)i * n + j] - s;
    }
  float *d;
  cudaMalloc(&d, a.size() * sizeof(float));
  cudaMemcpy(d, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  trailingUpdate<<<dim3(rest, rest), dim3(BS, BS)>>>(d, n, k0);
  cudaMemcpy(a.data(), d, a.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (size_t i = 0; i < a.size(); ++i)
    if (std::fabs(a[i] - want[i]) > 1e-3f * (1.0f + std::fabs(want[i]))) {
      printf("FAILED: a[%zu] = %f, expected %f\n", i, a[i], want[i]);
      return 1;
    }
  printf("PASSED\n");
  return 0;
}

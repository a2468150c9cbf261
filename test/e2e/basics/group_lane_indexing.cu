// Register-cache style indexing in kernels whose threads run a loop: a group
// of G threads per problem (`gid / G`), lane `gid % G` of it, also written
// with masks (`gid & (G - 1)`, `gid & -G`). On the CPU consecutive threads
// run as SIMD lanes; whether a vector of threads stays inside one group is
// decided at run time, so every group size is checked, including ones the
// vector width does not divide (G = 4, 12) and blocks of 100 threads whose
// vectors straddle groups. Checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=thread-vectorize %s -o %t.scalar
// RUN: %t.scalar | FileCheck %s
// CHECK: G=4 PASSED
// CHECK: G=12 PASSED
// CHECK: G=16 PASSED
// CHECK: G=32 PASSED
// CHECK: masks PASSED

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

// y[p * G + lane] = sum_k A[p][k][lane] * x[p * G + k]: a batched
// matrix-vector product, thread `lane` of group `p` holding one column.
template <int G>
__global__ void batchedMatVec(const float *A, const float *x, float *y,
                              int batch) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int problem = gid / G, lane = gid % G;
  if (problem >= batch)
    return;
  const float *a = A + (size_t)problem * G * G;
  float sum = 0.0f;
  for (int k = 0; k < G; ++k)
    sum += a[k * G + lane] * x[problem * G + k];
  y[problem * G + lane] = sum;
}

// The same with power-of-two masks and a data-dependent trip count.
__global__ void maskedGroups(const float *in, const int *counts, float *out,
                             int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid >= n)
    return;
  int lane = gid & 15, base = gid & -16;
  float acc = 0.0f;
  for (int r = 0; r < counts[base >> 4]; ++r)
    acc += in[(size_t)r * n + base + lane] * (float)(r + 1);
  out[(base | lane)] = acc;
}

template <int G> bool runMatVec(int batch) {
  std::vector<float> A((size_t)batch * G * G), x((size_t)batch * G),
      y((size_t)batch * G);
  for (size_t i = 0; i < A.size(); ++i)
    A[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = (float)((i * 11) % 23) / 10.0f;
  float *dA, *dx, *dy;
  cudaMalloc(&dA, A.size() * sizeof(float));
  cudaMalloc(&dx, x.size() * sizeof(float));
  cudaMalloc(&dy, y.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dy, 0, y.size() * sizeof(float));
  int threads = batch * G, block = 100;
  batchedMatVec<G><<<(threads + block - 1) / block, block>>>(dA, dx, dy,
                                                              batch);
  cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dx);
  cudaFree(dy);
  int bad = 0;
  for (int p = 0; p < batch; ++p)
    for (int lane = 0; lane < G; ++lane) {
      float expect = 0.0f;
      for (int k = 0; k < G; ++k)
        expect += A[(size_t)p * G * G + k * G + lane] * x[p * G + k];
      float got = y[p * G + lane];
      if (std::fabs(got - expect) > 1e-4f * (1.0f + std::fabs(expect)))
        if (bad++ < 5)
          printf("G=%d problem %d lane %d: %f, expected %f\n", G, p, lane, got,
                 expect);
    }
  printf("G=%d %s\n", G, bad ? "FAILED" : "PASSED");
  return bad == 0;
}

bool runMasks(int n) {
  int groups = (n + 15) / 16;
  std::vector<float> in((size_t)8 * n), out(n);
  std::vector<int> counts(groups);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = (float)((i * 13) % 17) - 8.0f;
  for (int g = 0; g < groups; ++g)
    counts[g] = g % 9;
  float *dIn, *dOut;
  int *dCounts;
  cudaMalloc(&dIn, in.size() * sizeof(float));
  cudaMalloc(&dOut, out.size() * sizeof(float));
  cudaMalloc(&dCounts, counts.size() * sizeof(int));
  cudaMemcpy(dIn, in.data(), in.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dCounts, counts.data(), counts.size() * sizeof(int),
             cudaMemcpyHostToDevice);
  maskedGroups<<<(n + 99) / 100, 100>>>(dIn, dCounts, dOut, n);
  cudaMemcpy(out.data(), dOut, out.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dCounts);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float expect = 0.0f;
    for (int r = 0; r < counts[i / 16]; ++r)
      expect += in[(size_t)r * n + i] * (float)(r + 1);
    if (out[i] != expect && bad++ < 5)
      printf("masks %d: %f, expected %f\n", i, out[i], expect);
  }
  printf("masks %s\n", bad ? "FAILED" : "PASSED");
  return bad == 0;
}

int main() {
  bool ok = runMatVec<4>(301);
  ok &= runMatVec<12>(123);
  ok &= runMatVec<16>(257);
  ok &= runMatVec<32>(77);
  ok &= runMasks(1000);
  return ok ? 0 : 1;
}

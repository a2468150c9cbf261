// Threads that each walk a column of a matrix under a branch on their index
// (PolyBench/GPU's Gram-Schmidt): the norm of column k by thread 0 alone,
// the normalization by a thread per row, and the update of the columns
// right of k (`if (j > k && j < n)`), whose leading blocks run out of work
// as k grows. Odd sizes, several blocks, every result checked against the
// host. Also with the loop interchange off and with the static schedule.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=loop-interchange %s -o %t.noic
// RUN: %t.noic | FileCheck %s
// RUN: %respec -O2 --grid-schedule=static %s -o %t.static
// RUN: %t.static | FileCheck %s
// CHECK: gramschmidt PASSED

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void columnNorm(const float *a, float *r, int k, int m, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    float norm = 0.0f;
    for (int i = 0; i < m; ++i)
      norm += a[i * n + k] * a[i * n + k];
    r[k * n + k] = sqrtf(norm);
  }
}

__global__ void normalize(const float *a, const float *r, float *q, int k,
                          int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    q[i * n + k] = a[i * n + k] / r[k * n + k];
}

__global__ void updateRight(float *a, float *r, const float *q, int k, int m,
                            int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n) {
    float dot = 0.0f;
    for (int i = 0; i < m; ++i)
      dot += q[i * n + k] * a[i * n + j];
    r[k * n + j] = dot;
    for (int i = 0; i < m; ++i)
      a[i * n + j] -= q[i * n + k] * dot;
  }
}

int main() {
  const int m = 301, n = 203;
  std::vector<float> a((size_t)m * n);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = (float)((i * 7919) % 1009) / 1009.0f + (i % n == i / n ? 4.0f : 0);
  std::vector<double> ha(a.begin(), a.end()), hq(a.size()), hr((size_t)n * n);
  for (int k = 0; k < n; ++k) {
    double norm = 0;
    for (int i = 0; i < m; ++i)
      norm += ha[i * n + k] * ha[i * n + k];
    hr[k * n + k] = std::sqrt(norm);
    for (int i = 0; i < m; ++i)
      hq[i * n + k] = ha[i * n + k] / hr[k * n + k];
    for (int j = k + 1; j < n; ++j) {
      double dot = 0;
      for (int i = 0; i < m; ++i)
        dot += hq[i * n + k] * ha[i * n + j];
      hr[k * n + j] = dot;
      for (int i = 0; i < m; ++i)
        ha[i * n + j] -= hq[i * n + k] * dot;
    }
  }
  float *dA, *dR, *dQ;
  cudaMalloc(&dA, a.size() * sizeof(float));
  cudaMalloc(&dR, (size_t)n * n * sizeof(float));
  cudaMalloc(&dQ, a.size() * sizeof(float));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dR, 0, (size_t)n * n * sizeof(float));
  for (int k = 0; k < n; ++k) {
    columnNorm<<<1, 128>>>(dA, dR, k, m, n);
    normalize<<<(m + 63) / 64, 64>>>(dA, dR, dQ, k, m, n);
    updateRight<<<(n + 63) / 64, 64>>>(dA, dR, dQ, k, m, n);
  }
  std::vector<float> q(a.size()), r((size_t)n * n);
  cudaMemcpy(q.data(), dQ, q.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(r.data(), dR, r.size() * sizeof(float), cudaMemcpyDeviceToHost);
  double worst = 0;
  for (size_t i = 0; i < q.size(); ++i)
    worst = std::fmax(worst, std::fabs(q[i] - hq[i]));
  for (int k = 0; k < n; ++k)
    for (int j = k; j < n; ++j)
      worst = std::fmax(worst, std::fabs(r[k * n + j] - hr[k * n + j]) /
                                   (1.0 + std::fabs(hr[k * n + j])));
  printf("gramschmidt %s (worst error %.2e)\n",
         worst < 1e-3 ? "PASSED" : "FAILED", worst);
  return 0;
}

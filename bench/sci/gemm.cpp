// GEMM: C = A B for dense row-major matrices (M x K times K x N): rows of C
// in parallel, i-k-j order so that the inner loop streams rows of B and C
// (vectorized).
#include "common.h"

#ifndef M_DIM
#define M_DIM 1024
#endif
#ifndef N_DIM
#define N_DIM 1024
#endif
#ifndef K_DIM
#define K_DIM 768
#endif

int main() {
  const int m = M_DIM, n = N_DIM, k = K_DIM;
  std::vector<float> A = makeGemmMatrix((size_t)m * k, 221),
                     B = makeGemmMatrix((size_t)k * n, 222), C((size_t)m * n);
  timeIt([&] {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < m; ++i) {
      float *c = &C[(size_t)i * n];
      for (int j = 0; j < n; ++j)
        c[j] = 0.0f;
      for (int p = 0; p < k; ++p) {
        float a = A[(size_t)i * k + p];
        const float *b = &B[(size_t)p * n];
        for (int j = 0; j < n; ++j)
          c[j] += a * b[j];
      }
    }
  });
  printChecksum(checksum(C));
  return 0;
}

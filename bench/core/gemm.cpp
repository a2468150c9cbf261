// GEMM: C = A B for a batch of small G x G matrices (row-major), as a CPU
// programmer writes it (i-k-j loop order).
#ifndef GROUP
#define GROUP 8
#endif
#include "common.h"

int main() {
  const int G = GROUP;
  const size_t n = (size_t)BATCH * G * G;
  std::vector<Real> A = makeMatrices<Real>(G, 1), B = makeMatrices<Real>(G, 2),
                    C(n);
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      const Real *a = &A[p * G * G], *b = &B[p * G * G];
      Real *c = &C[p * G * G];
      for (int i = 0; i < G; ++i) {
        for (int j = 0; j < G; ++j)
          c[i * G + j] = 0;
        for (int k = 0; k < G; ++k)
          for (int j = 0; j < G; ++j)
            c[i * G + j] += a[i * G + k] * b[k * G + j];
      }
    }
  });
  printChecksum(checksum(C));
  return 0;
}

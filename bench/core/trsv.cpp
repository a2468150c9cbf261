// TRSV: solve L U x = b for a batch of small G x G systems (factors packed
// in one column-major matrix: unit lower L below the diagonal, U on and
// above it), as a CPU programmer writes it: forward then backward
// substitution.
#ifndef GROUP
#define GROUP 16
#endif
#include "common.h"

int main() {
  const int G = GROUP;
  std::vector<Real> LU = makeTrsvFactors<Real>(G);
  std::vector<Real> B = makeUniform<Real>((size_t)BATCH * G, 4, 1);
  std::vector<Real> X(B.size());
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      const Real *m = &LU[p * G * G], *b = &B[p * G];
      Real *x = &X[p * G];
      for (int i = 0; i < G; ++i) { // L y = b
        Real s = b[i];
        for (int k = 0; k < i; ++k)
          s -= m[k * G + i] * x[k];
        x[i] = s;
      }
      for (int i = G - 1; i >= 0; --i) { // U x = y
        Real s = x[i];
        for (int k = G - 1; k > i; --k)
          s -= m[k * G + i] * x[k];
        x[i] = s / m[i * G + i];
      }
    }
  });
  printChecksum(checksum(X));
  return 0;
}

// LDUS: LDU factorization with static pivoting (no row exchanges; the
// matrices are diagonally dominant) of a batch of small G x G column-major
// matrices, as a CPU programmer writes it: right-looking elimination, then
// the pivot row divided by its pivot. Packed result: L below the diagonal,
// D on it, U above it (unit diagonals implied).
#ifndef GROUP
#define GROUP 16
#endif
#include "common.h"

int main() {
  const int G = GROUP;
  std::vector<Real> A = makeDominant<Real>(G), LDU(A.size());
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      Real *a = &LDU[p * G * G]; // a[j * G + i] is element (i, j)
      for (int i = 0; i < G * G; ++i)
        a[i] = A[p * G * G + i];
      for (int k = 0; k < G; ++k) {
        Real pivot = a[k * G + k];
        for (int i = k + 1; i < G; ++i)
          a[k * G + i] /= pivot;
        for (int j = k + 1; j < G; ++j)
          for (int i = k + 1; i < G; ++i)
            a[j * G + i] -= a[k * G + i] * a[j * G + k];
        for (int j = k + 1; j < G; ++j)
          a[j * G + k] /= pivot;
      }
    }
  });
  printChecksum(checksum(LDU));
  return 0;
}

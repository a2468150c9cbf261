// LUD: in-place LU decomposition without pivoting (A = L U, L unit lower
// triangular) of a diagonally dominant n x n matrix: right-looking
// elimination, for each pivot the rows below it updated in parallel (the
// inner loop over the row vectorized).
#include "common.h"

#ifndef SIZE
#define SIZE 1024
#endif

int main() {
  const int n = SIZE;
  std::vector<float> a0 = makeLudMatrix(n), a(a0.size());
  timeIt([&] { a = a0; },
         [&] {
           float *m = a.data();
#pragma omp parallel
           for (int k = 0; k < n - 1; ++k) {
             const float *pivot = m + (size_t)k * n;
#pragma omp for schedule(static)
             for (int i = k + 1; i < n; ++i) {
               float *row = m + (size_t)i * n;
               float l = row[k] / pivot[k];
               row[k] = l;
               for (int j = k + 1; j < n; ++j)
                 row[j] -= l * pivot[j];
             }
           }
         });
  printChecksum(checksum(a));
  return 0;
}

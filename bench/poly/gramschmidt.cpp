// GRAMSCHMIDT: QR decomposition by modified Gram-Schmidt (see
// gramschmidt.cu), as PolyBench's loops: per column k the norm (serial),
// the normalization (rows in parallel) and the update of the columns right
// of k (columns in parallel, each walked down twice).
#include "../sci/common.h"

#include <cmath>

#ifndef SIZE
#define SIZE 512
#endif

int main() {
  const int m = SIZE, n = SIZE;
  const std::vector<float> input =
      makeUniform<float>((size_t)m * n, 431, 1.0);
  std::vector<float> a, q((size_t)m * n), r((size_t)n * n);
  timeIt([&] { a = input; },
         [&] {
           float *pa = a.data(), *pq = q.data(), *pr = r.data();
           for (int k = 0; k < n; ++k) {
             float norm = 0.0f;
             for (int i = 0; i < m; ++i)
               norm += pa[i * n + k] * pa[i * n + k];
             pr[k * n + k] = sqrtf(norm);
#pragma omp parallel for schedule(static)
             for (int i = 0; i < m; ++i)
               pq[i * n + k] = pa[i * n + k] / pr[k * n + k];
#pragma omp parallel for schedule(static)
             for (int j = k + 1; j < n; ++j) {
               float dot = 0.0f;
               for (int i = 0; i < m; ++i)
                 dot += pq[i * n + k] * pa[i * n + j];
               pr[k * n + j] = dot;
               for (int i = 0; i < m; ++i)
                 pa[i * n + j] -= pq[i * n + k] * dot;
             }
           }
         });
  printChecksum(checksum(q));
  return 0;
}

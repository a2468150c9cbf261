// ATAX: y = A^T (A x) for an n x n matrix (see atax.cu): the rows of A x in
// parallel, then the columns of A^T (A x) in parallel, each an inner
// product as written.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

int main() {
  const int n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)n * n, 421, 1.0);
  std::vector<float> x = makeUniform<float>(n, 422, 1.0);
  std::vector<float> tmp(n), y(n);
  timeIt([&] {
    const float *pa = a.data();
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
      float sum = 0.0f;
      for (int j = 0; j < n; ++j)
        sum += pa[i * n + j] * x[j];
      tmp[i] = sum;
    }
#pragma omp parallel for schedule(static)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i)
        sum += pa[i * n + j] * tmp[i];
      y[j] = sum;
    }
  });
  printChecksum(checksum(y));
  return 0;
}

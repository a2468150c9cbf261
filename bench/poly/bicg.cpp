// BICG: s = A^T r and q = A p (see bicg.cu), as PolyBench's loops with the
// outer loop of each product in parallel.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 4096
#endif

int main() {
  const int n = SIZE;
  std::vector<float> a = makeUniform<float>((size_t)n * n, 451, 1.0);
  std::vector<float> r = makeUniform<float>(n, 452, 1.0);
  std::vector<float> p = makeUniform<float>(n, 453, 1.0);
  std::vector<float> s(n), q(n);
  timeIt([&] {
    const float *pa = a.data();
#pragma omp parallel for schedule(static)
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i)
        sum += r[i] * pa[i * n + j];
      s[j] = sum;
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
      float sum = 0.0f;
      for (int j = 0; j < n; ++j)
        sum += pa[i * n + j] * p[j];
      q[i] = sum;
    }
  });
  printChecksum(checksum(s) + checksum(q));
  return 0;
}

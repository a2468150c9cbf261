// LU: LU decomposition without pivoting (see lu.cu), as PolyBench's loops:
// per pivot k, row k scaled (serial), then the rows below it updated in
// parallel.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 1024
#endif

int main() {
  const int n = SIZE;
  std::vector<float> input = makeUniform<float>((size_t)n * n, 441, 1.0);
  for (int i = 0; i < n; ++i)
    input[(size_t)i * n + i] += n;
  std::vector<float> a;
  timeIt([&] { a = input; },
         [&] {
           float *pa = a.data();
           for (int k = 0; k < n; ++k) {
             for (int j = k + 1; j < n; ++j)
               pa[k * n + j] /= pa[k * n + k];
#pragma omp parallel for schedule(static)
             for (int i = k + 1; i < n; ++i)
               for (int j = k + 1; j < n; ++j)
                 pa[i * n + j] -= pa[i * n + k] * pa[k * n + j];
           }
         });
  printChecksum(checksum(a));
  return 0;
}

// Dense matrix multiply in i-k-j order (vectorizable inner loop).
#include "common.h"
#include <vector>

int main() {
  const int n = 1024;
  std::vector<float> A((long)n * n), B((long)n * n), C((long)n * n);
  for (long i = 0; i < (long)n * n; ++i) {
    A[i] = benchInput(i);
    B[i] = benchInput(i + 1);
  }
  timeIt("matmul", 3, [&] {
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      float *c = &C[(long)i * n];
      for (int j = 0; j < n; ++j)
        c[j] = 0;
      for (int k = 0; k < n; ++k) {
        float a = A[(long)i * n + k];
        const float *b = &B[(long)k * n];
        for (int j = 0; j < n; ++j)
          c[j] += a * b[j];
      }
    }
  });
  std::printf("checksum=%.1f\n", checksum(C.data(), (long)n * n));
  return 0;
}

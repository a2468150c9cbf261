// Plain C++ translation unit of separate-compilation.test.
#include <cmath>
#include <cstdio>

bool checkResult(const float *x, int n) {
  for (int i = 0; i < n; ++i) {
    float expected = (i + 1.0f) * 3.0f;
    if (std::fabs(x[i] - expected) > 1e-5f) {
      std::printf("mismatch at %d: %f vs %f\n", i, x[i], expected);
      return false;
    }
  }
  return true;
}

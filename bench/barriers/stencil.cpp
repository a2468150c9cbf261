// 1-D three-point stencil, 100 steps.
#include "common.h"
#include <vector>

int main() {
  const int n = 1 << 22, steps = 100;
  std::vector<float> va(n), vb(n);
  float *a = va.data(), *b = vb.data();
  timeIt("stencil", 1, [&] {
    for (int i = 0; i < n; ++i)
      a[i] = benchInput(i);
    for (int s = 0; s < steps; ++s) {
#pragma omp parallel for
      for (int i = 0; i < n; ++i) {
        float left = i > 0 ? a[i - 1] : 0.0f;
        float right = i + 1 < n ? a[i + 1] : 0.0f;
        b[i] = 0.25f * left + 0.5f * a[i] + 0.25f * right;
      }
      float *t = a;
      a = b;
      b = t;
    }
  });
  std::printf("checksum=%.3f\n", checksum(a, n));
  return 0;
}

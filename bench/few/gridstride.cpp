// y = a * x + y with a polynomial of x, as a CPU programmer writes it.
#include "common.h"
#include <vector>

#ifndef N
#define N (1 << 24)
#endif

int main() {
  const long n = N;
  std::vector<float> x(n), y(n);
  for (long i = 0; i < n; ++i)
    x[i] = y[i] = unitInput(i);
  timeIt("gridstride", 10, [&] {
#pragma omp parallel for
    for (long i = 0; i < n; ++i) {
      float v = x[i];
      y[i] = 0.5f * y[i] + v * (1.0f + v * (0.5f + v * 0.25f));
    }
  });
  std::printf("checksum=%.3f\n", checksum(y.data(), n));
  return 0;
}

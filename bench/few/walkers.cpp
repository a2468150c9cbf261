// The 1024 contracting-map walkers as a CPU programmer writes them.
#include "common.h"
#include <vector>

#ifndef STEPS
#define STEPS 20000
#endif

int main() {
  const int n = 1024;
  std::vector<float> start(n), end(n);
  for (int i = 0; i < n; ++i)
    start[i] = 0.1f + 0.8f * unitInput(i);
  timeIt("walkers", 5, [&] {
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      float x = start[i];
      float r = 0.5f + 0.4f * start[i];
      for (int k = 0; k < STEPS; ++k)
        x = 0.5f * x + r / (1.0f + x * x);
      end[i] = x;
    }
  });
  std::printf("checksum=%.3f\n", checksum(end.data(), n));
  return 0;
}

// Explicit time stepping of 1-D diffusion, as a CPU programmer writes it:
// a parallel loop per step.
#include "common.h"
#include <utility>
#include <vector>

#ifndef CELLS
#define CELLS (1 << 14)
#endif
#ifndef STEPS
#define STEPS 2000
#endif

int main() {
  const int n = CELLS;
  std::vector<float> host(n), a(n), b(n);
  for (int i = 0; i < n; ++i)
    host[i] = unitInput(i);
  float *in = nullptr;
  timeIt("steps", 5, [&] {
    a = host;
    in = a.data();
    float *out = b.data();
    for (int s = 0; s < STEPS; ++s) {
#pragma omp parallel for
      for (int i = 0; i < n; ++i) {
        float left = i > 0 ? in[i - 1] : in[i];
        float right = i < n - 1 ? in[i + 1] : in[i];
        out[i] = in[i] + 0.25f * (left - 2.0f * in[i] + right);
      }
      std::swap(in, out);
    }
  });
  std::printf("checksum=%.3f\n", checksum(in, n));
  return 0;
}

// Escape-time iteration over a 64 x 16 tile, as a CPU programmer writes it.
#include "common.h"
#include <vector>

#ifndef MAX_ITER
#define MAX_ITER 20000
#endif

int main() {
  const int n = 1024;
  std::vector<float> out(n);
  timeIt("escape", 5, [&] {
#pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      float cr = -2.0f + 2.5f * (float)(i % 64) / 64.0f;
      float ci = -1.25f + 2.5f * (float)(i / 64) / 16.0f;
      float zr = 0.0f, zi = 0.0f;
      int it = 0;
      while (zr * zr + zi * zi < 4.0f && it < MAX_ITER) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
      }
      out[i] = (float)it;
    }
  });
  std::printf("checksum=%.3f\n", checksum(out.data(), n));
  return 0;
}

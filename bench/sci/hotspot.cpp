// HOTSPOT: transient temperature of a chip (n x n cells) under a power map,
// explicit Euler steps of the 2-D heat equation with a five-point stencil
// (lateral conduction to the four neighbours, vertical conduction to the
// ambient), rows in parallel, two buffers swapped after each step. At the
// chip's edges the missing neighbour is the cell itself.
#include "common.h"

#ifndef GRID
#define GRID 1024
#endif
#ifndef STEPS
#define STEPS 100
#endif

struct HotspotCoeffs {
  float cx, cy, cz, cp, ambient;
};

static HotspotCoeffs hotspotCoeffs(int n) {
  const double width = 0.016, height = 0.016, thick = 0.0005;
  const double k = 100.0, cap = 1.75e6, ambientT = 80.0 + 273.15;
  double dx = width / n, dy = height / n;
  double c = cap * thick * dx * dy;
  double rx = dx / (k * thick * dy), ry = dy / (k * thick * dx);
  double rz = thick / (k * dx * dy) * 1000.0;
  double dt = 0.2 / (1.0 / rx + 1.0 / ry) * c / 2.0;
  HotspotCoeffs h;
  h.cx = (float)(dt / (c * rx));
  h.cy = (float)(dt / (c * ry));
  h.cz = (float)(dt / (c * rz));
  h.cp = (float)(dt / c);
  h.ambient = (float)ambientT;
  return h;
}

int main() {
  const int n = GRID;
  std::vector<float> temp0, power;
  makeChip(n, temp0, power);
  const HotspotCoeffs h = hotspotCoeffs(n);
  std::vector<float> bufA(temp0.size()), bufB(temp0.size());
  float *result = nullptr;
  timeIt([&] { bufA = temp0; },
         [&] {
           float *a = bufA.data(), *b = bufB.data();
           const float *p = power.data();
           for (int s = 0; s < STEPS; ++s) {
#pragma omp parallel for schedule(static)
             for (int r = 0; r < n; ++r) {
               const float *cur = a + (size_t)r * n;
               const float *up = r > 0 ? cur - n : cur;
               const float *down = r < n - 1 ? cur + n : cur;
               const float *pw = p + (size_t)r * n;
               float *out = b + (size_t)r * n;
               for (int c = 0; c < n; ++c) {
                 float self = cur[c];
                 float west = c > 0 ? cur[c - 1] : self;
                 float east = c < n - 1 ? cur[c + 1] : self;
                 out[c] = self + h.cp * pw[c] +
                          h.cy * (up[c] + down[c] - 2.0f * self) +
                          h.cx * (east + west - 2.0f * self) +
                          h.cz * (h.ambient - self);
               }
             }
             std::swap(a, b);
           }
           result = a;
         });
  std::vector<float> temp(result, result + temp0.size());
  for (float &v : temp)
    v -= 300.0f;
  printChecksum(checksum(temp));
  return 0;
}

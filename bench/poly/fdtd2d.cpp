// FDTD2D: the 2-D finite-difference time-domain kernel (see fdtd2d.cu),
// each of the three field updates of a time step a parallel loop over
// rows.
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 2048
#endif
#ifndef STEPS
#define STEPS 100
#endif

int main() {
  const int nx = SIZE, ny = SIZE;
  std::vector<float> fict(STEPS);
  for (int t = 0; t < STEPS; ++t)
    fict[t] = (float)t;
  const std::vector<float> ex0 =
      makeUniform<float>((size_t)nx * (ny + 1), 411, 1.0);
  const std::vector<float> ey0 =
      makeUniform<float>((size_t)(nx + 1) * ny, 412, 1.0);
  const std::vector<float> hz0 = makeUniform<float>((size_t)nx * ny, 413, 1.0);
  std::vector<float> ex, ey, hz;
  timeIt(
      [&] {
        ex = ex0;
        ey = ey0;
        hz = hz0;
      },
      [&] {
        float *x = ex.data(), *y = ey.data(), *h = hz.data();
        for (int t = 0; t < STEPS; ++t) {
          for (int j = 0; j < ny; ++j)
            y[j] = fict[t];
#pragma omp parallel for schedule(static)
          for (int i = 1; i < nx; ++i)
            for (int j = 0; j < ny; ++j)
              y[i * ny + j] -= 0.5f * (h[i * ny + j] - h[(i - 1) * ny + j]);
#pragma omp parallel for schedule(static)
          for (int i = 0; i < nx; ++i)
            for (int j = 1; j < ny; ++j)
              x[i * (ny + 1) + j] -=
                  0.5f * (h[i * ny + j] - h[i * ny + (j - 1)]);
#pragma omp parallel for schedule(static)
          for (int i = 0; i < nx; ++i)
            for (int j = 0; j < ny; ++j)
              h[i * ny + j] -=
                  0.7f * (x[i * (ny + 1) + (j + 1)] - x[i * (ny + 1) + j] +
                          y[(i + 1) * ny + j] - y[i * ny + j]);
        }
      });
  printChecksum(checksum(hz));
  return 0;
}

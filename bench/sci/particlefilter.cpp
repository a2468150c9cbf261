// PARTICLEFILTER: a bootstrap particle filter tracking an object in the
// plane from noisy position observations, n particles, several frames
// (double precision). Per frame: move each particle by the motion model
// plus noise and weigh it by the Gaussian likelihood of the observation,
// summing the weights and weighted positions (a parallel reduction; the
// estimate is the weighted mean); the CDF of the normalised weights
// (sequential prefix sum); systematic resampling, a binary search in the CDF
// per new particle, in parallel.
#include "common.h"

#ifndef PARTICLES
#define PARTICLES (1 << 18)
#endif
#ifndef FRAMES
#define FRAMES 8
#endif
#define SIGMA 2.0

int main() {
  const int n = PARTICLES;
  std::vector<double> x0(n), y0(n);
  double tx, ty;
  pfTruth(0, tx, ty);
  for (int i = 0; i < n; ++i) {
    x0[i] = tx + 2.0 * benchNormal(302, 2 * i);
    y0[i] = ty + 2.0 * benchNormal(302, 2 * i + 1);
  }
  std::vector<double> est(2 * FRAMES), px(n), py(n), nx(n), ny(n), w(n), cdf(n);
  timeIt(
      [&] {
        px = x0;
        py = y0;
      },
      [&] {
        for (int t = 1; t <= FRAMES; ++t) {
          double ox, oy;
          pfObservation(t, ox, oy);
          double sw = 0.0, sx = 0.0, sy = 0.0;
#pragma omp parallel for reduction(+ : sw, sx, sy) schedule(static)
          for (int i = 0; i < n; ++i) {
            size_t k = (size_t)t * n + i;
            double x = px[i] + 2.0 + 1.0 * benchNormal(301, 2 * k);
            double y = py[i] + 2.0 + 1.0 * benchNormal(301, 2 * k + 1);
            double dx = x - ox, dy = y - oy;
            double wi = std::exp(-(dx * dx + dy * dy) / (2.0 * SIGMA * SIGMA));
            px[i] = x;
            py[i] = y;
            w[i] = wi;
            sw += wi;
            sx += wi * x;
            sy += wi * y;
          }
          est[2 * (t - 1)] = sx / sw;
          est[2 * (t - 1) + 1] = sy / sw;
          double acc = 0.0;
          for (int i = 0; i < n; ++i) {
            acc += w[i] / sw;
            cdf[i] = acc;
          }
          const double u0 = 0.5 + 0.5 * benchUniform(303, t);
#pragma omp parallel for schedule(static)
          for (int j = 0; j < n; ++j) {
            double u = (u0 + j) / n;
            int idx = (int)(std::lower_bound(cdf.begin(), cdf.end(), u) -
                            cdf.begin());
            idx = std::min(idx, n - 1);
            nx[j] = px[idx];
            ny[j] = py[idx];
          }
          px.swap(nx);
          py.swap(ny);
        }
      });
  double sum = checksum(est);
  double fx, fy;
  pfTruth(FRAMES, fx, fy);
  std::fprintf(stderr,
               "particlefilter: final estimate (%.3f, %.3f), "
               "truth (%.3f, %.3f)\n",
               est[2 * FRAMES - 2], est[2 * FRAMES - 1], fx, fy);
  printChecksum(sum);
  return 0;
}

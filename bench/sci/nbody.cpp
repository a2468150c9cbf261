// NBODY: one time step (kick, then drift) of n gravitating bodies with
// all-pairs forces (softened, G = 1), structure of arrays: the
// accelerations of the bodies in parallel, each a vectorized loop over all
// bodies; then the velocities and positions are advanced. Built with
// -fno-math-errno (suite.json, "reference_flags"): otherwise g++ keeps a branch
// that sets errno around each sqrt and does not vectorize the loop over the
// bodies (12x slower); CUDA's sqrtf does not set errno either.
#include "common.h"

#ifndef BODIES
#define BODIES 10240
#endif
#ifndef STEPS
#define STEPS 1
#endif
#define SOFTENING 0.01f
#define DT 0.01f

static void step(int n, float *x, float *y, float *z, float *vx, float *vy,
                 float *vz, const float *m) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float xi = x[i], yi = y[i], zi = z[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
    for (int j = 0; j < n; ++j) {
      float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
      float r2 = dx * dx + dy * dy + dz * dz + SOFTENING;
      float inv = 1.0f / std::sqrt(r2);
      float s = m[j] * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    vx[i] += DT * ax;
    vy[i] += DT * ay;
    vz[i] += DT * az;
  }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    x[i] += DT * vx[i];
    y[i] += DT * vy[i];
    z[i] += DT * vz[i];
  }
}

int main() {
  const int n = BODIES;
  std::vector<float> x0, y0, z0, vx0, vy0, vz0, m;
  makeBodies(n, x0, y0, z0, vx0, vy0, vz0, m);
  std::vector<float> x, y, z, vx, vy, vz;
  timeIt(
      [&] {
        x = x0, y = y0, z = z0;
        vx = vx0, vy = vy0, vz = vz0;
      },
      [&] {
        for (int s = 0; s < STEPS; ++s)
          step(n, x.data(), y.data(), z.data(), vx.data(), vy.data(), vz.data(),
               m.data());
      });
  std::vector<float> out;
  for (int i = 0; i < n; ++i) {
    out.push_back(x[i]);
    out.push_back(y[i]);
    out.push_back(z[i]);
    out.push_back(100 * vx[i]);
    out.push_back(100 * vy[i]);
    out.push_back(100 * vz[i]);
  }
  printChecksum(checksum(out));
  return 0;
}

// FRCG: Fletcher-Reeves nonlinear conjugate gradient on a batch of chained
// Rosenbrock functions of dimension GROUP, ITERS iterations with a
// backtracking (Armijo) line search of at most TRIALS halvings, restarted
// every GROUP iterations, as a CPU programmer writes it.
#ifndef GROUP
#define GROUP 16
#endif
// Smaller than the suite's 100000: respec needs 5-15 s per launch for that.
#ifndef BATCH
#define BATCH 20000
#endif
#include "common.h"

#define ITERS 30
#define TRIALS 20

const int N = GROUP;

static Real rosenbrock(const Real *x) {
  Real f = 0;
  for (int i = 0; i < N - 1; ++i) {
    Real t = x[i + 1] - x[i] * x[i], u = 1 - x[i];
    f += 100 * t * t + u * u;
  }
  return f;
}

static void gradient(const Real *x, Real *g) {
  for (int i = 0; i < N; ++i) {
    g[i] = 0;
    if (i < N - 1)
      g[i] += -400 * x[i] * (x[i + 1] - x[i] * x[i]) - 2 * (1 - x[i]);
    if (i > 0)
      g[i] += 200 * (x[i] - x[i - 1] * x[i - 1]);
  }
}

static Real dot(const Real *u, const Real *v) {
  Real s = 0;
  for (int i = 0; i < N; ++i)
    s += u[i] * v[i];
  return s;
}

int main() {
  std::vector<Real> X0 = makeStarts<Real>(N), X(X0.size()), F(BATCH);
  timeIt([&] {
#pragma omp parallel for
    for (long p = 0; p < BATCH; ++p) {
      Real *x = &X[p * N], g[N], d[N], xt[N], gn[N];
      for (int i = 0; i < N; ++i)
        x[i] = X0[p * N + i];
      Real f = rosenbrock(x), step = 1e-3;
      gradient(x, g);
      for (int i = 0; i < N; ++i)
        d[i] = -g[i];
      Real gg = dot(g, g);
      for (int it = 0; it < ITERS; ++it) {
        Real slope = dot(g, d);
        if (slope >= 0) { // not a descent direction: restart
          for (int i = 0; i < N; ++i)
            d[i] = -g[i];
          slope = -gg;
        }
        Real alpha = 2 * step, ft = f;
        for (int t = 0; t < TRIALS; ++t) {
          for (int i = 0; i < N; ++i)
            xt[i] = x[i] + alpha * d[i];
          ft = rosenbrock(xt);
          if (ft <= f + Real(1e-4) * alpha * slope)
            break;
          alpha /= 2;
        }
        for (int i = 0; i < N; ++i)
          x[i] = xt[i];
        f = ft;
        step = alpha;
        gradient(x, gn);
        Real ggn = dot(gn, gn);
        Real beta = (it + 1) % N == 0 || gg == 0 ? 0 : ggn / gg;
        for (int i = 0; i < N; ++i) {
          d[i] = -gn[i] + beta * d[i];
          g[i] = gn[i];
        }
        gg = ggn;
      }
      F[p] = f;
    }
  });
  printChecksum(checksum(X) + checksum(F));
  return 0;
}

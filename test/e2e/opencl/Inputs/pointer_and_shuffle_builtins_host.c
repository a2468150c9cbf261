// Host of pointer_and_shuffle_builtins.cl.
#include <limits.h>
#include <math.h>
#include <respec/opencl.h>
#include <stdio.h>
#include <stdlib.h>

static int close(double got, double want, double tolerance) {
  if (isnan(want))
    return isnan(got);
  return fabs(got - want) <= tolerance * fmax(1.0, fabs(want));
}

static int run(const char *name, size_t global, size_t local, int nargs,
               void **args, size_t *sizes) {
  respec_cl_kernel *k = respec_cl_create_kernel(name, NULL);
  for (int i = 0; i < nargs; ++i)
    respec_cl_set_kernel_arg(k, i, sizes[i], args[i]);
  int status = respec_cl_enqueue_ndrange(k, 1, NULL, &global, &local);
  respec_cl_release_kernel(k);
  return status;
}

int main(void) {
  int bad = 0;
  enum { N = 16 };
  float x[N] = {2.75f, -2.75f, 0.5f, -0.25f, 7.0f, -3.5f, 100.25f, 1e-3f,
                -1e-3f, 3.0f, -0.5f, 12.5f, 0.9f, -7.75f, 5.5f, 1.25f};
  float out[N * 8];
  int iout[N * 3];
  float *px = x, *pout = out;
  int *piout = iout;
  void *args[4] = {&px, &pout, &piout, NULL};
  size_t sizes[4] = {sizeof(px), sizeof(pout), sizeof(piout),
                     8 * sizeof(float)};
  bad |= run("pointers", N, 8, 4, args, sizes);
  int ok = 1;
  for (int i = 0; i < N; ++i) {
    float v = x[i], fl = floorf(v), ip;
    float mf = modff(v, &ip);
    int e, q, s = 1;
    float fr = frexpf(v, &e), rq = remquof(v, 0.75f, &q);
    float lg = lgammaf(v);
    double g = tgamma(v);
    s = g < 0 ? -1 : 1;
    ok &= close(out[i * 8 + 0], fminf(v - fl, 0x1.fffffep-1f), 1e-6);
    ok &= out[i * 8 + 1] == fl;
    ok &= out[i * 8 + 2] == mf && out[i * 8 + 3] == ip;
    ok &= close(out[i * 8 + 4], sinf(v), 1e-6);
    ok &= close(out[i * 8 + 5], cosf(v), 1e-6);
    ok &= close(out[i * 8 + 6], fr + rq, 1e-6);
    ok &= close(out[i * 8 + 7], lg, 1e-5);
    ok &= iout[i * 3 + 0] == e && (iout[i * 3 + 1] & 7) == (q & 7) &&
          iout[i * 3 + 2] == s;
    if (!ok) {
      printf("  x = %g: item %d\n", v, i);
      break;
    }
  }
  printf("pointer outputs: %s\n", ok ? "ok" : "FAILED");
  bad |= !ok;

  double dx[8] = {0.5, -0.5, 0.25, 1.0, -1.0, 0.0, 0.75, -0.125};
  double dout[8 * 5];
  double *pdx = dx, *pdout = dout;
  void *dargs[2] = {&pdx, &pdout};
  size_t dsizes[2] = {sizeof(pdx), sizeof(pdout)};
  bad |= run("pi_functions", 8, 8, 2, dargs, dsizes);
  ok = 1;
  for (int i = 0; i < 8; ++i) {
    double v = dx[i];
    ok &= close(dout[i * 4 + 0], acos(v) / M_PI, 1e-14);
    ok &= close(dout[i * 4 + 1], asin(v) / M_PI, 1e-14);
    ok &= close(dout[i * 4 + 2], atan(v) / M_PI, 1e-14);
    ok &= close(dout[i * 4 + 3], atan2(v, 0.5) / M_PI, 1e-14);
    double t = dout[32 + i];
    double want = fabs(v) == 0.5 ? (v > 0 ? INFINITY : -INFINITY)
                                 : tan(M_PI * v);
    ok &= isinf(want) ? t == want : close(t, want, 1e-13);
  }
  printf("pi functions: %s\n", ok ? "ok" : "FAILED");
  bad |= !ok;

  int ints[16] = {0};
  int *pints = ints;
  void *iargs[1] = {&pints};
  size_t isizes[1] = {sizeof(pints)};
  bad |= run("integers", 1, 1, 1, iargs, isizes);
  int want[9] = {INT_MAX, INT_MIN, 255,
                 (int)(((long)-30000 * 30000) >> 16), (250 * 250) >> 8,
                 (int)(((unsigned)(unsigned short)-1 << 16) | 3),
                 (2 << 16) | 4, 2, 3};
  // -100000 * 100000 + 7 saturates to INT_MIN.
  ok = 1;
  for (int i = 0; i < 9; ++i)
    if (ints[i] != want[i]) {
      printf("  integers[%d] = %d, expected %d\n", i, ints[i], want[i]);
      ok = 0;
    }
  printf("integer: %s\n", ok ? "ok" : "FAILED");
  bad |= !ok;

  int sh[12] = {0};
  int *psh = sh;
  void *sargs[1] = {&psh};
  bad |= run("shuffles", 4, 4, 1, sargs, isizes);
  int swant[12] = {13, 12, 11, 10, 13, 12, 11, 10, 21, 12,
                   25 + 250 + 1500 + 25000, 6};
  ok = 1;
  for (int i = 0; i < 12; ++i)
    if (sh[i] != swant[i]) {
      printf("  shuffles[%d] = %d, expected %d\n", i, sh[i], swant[i]);
      ok = 0;
    }
  printf("vector shuffles: %s\n", ok ? "ok" : "FAILED");
  bad |= !ok;
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

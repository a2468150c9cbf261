// Host of powr_edge_cases.cl.
#include <respec/opencl.h>
#include <math.h>
#include <stdio.h>

#define N 14
static const double x[N] = {-2.0, -0.5, 0.0, -0.0,     INFINITY, 1.0,  1.0,
                            1.0,  NAN,  -0.0, -0.0,    0.0,      2.0,  4.0};
static const double y[N] = {2.0, 3.0, 0.0, -0.0, 0.0, INFINITY, -INFINITY,
                            NAN, 0.0, 3.0, -3.0, -INFINITY, 10.0, 0.5};
static const double expected[N] = {NAN, NAN, NAN, NAN,      NAN,      NAN, NAN,
                                   NAN, NAN, 0.0, INFINITY, INFINITY, 1024.0,
                                   2.0};

static int same(double got, double want) {
  return (isnan(got) && isnan(want)) ||
         (got == want && signbit(got) == signbit(want));
}

int main(void) {
  float outf[N];
  double outd[N];
  const double *px = x, *py = y;
  float *pf = outf;
  double *pd = outd;
  respec_cl_kernel *kernel = respec_cl_create_kernel("powers", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof px, &px);
  respec_cl_set_kernel_arg(kernel, 1, sizeof py, &py);
  respec_cl_set_kernel_arg(kernel, 2, sizeof pf, &pf);
  respec_cl_set_kernel_arg(kernel, 3, sizeof pd, &pd);
  size_t items = N;
  int bad_f = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  int bad_d = bad_f;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < N; ++i) {
    if (!same(outf[i], expected[i])) {
      printf("  powr(%gf, %gf) = %a, expected %a\n", x[i], y[i], outf[i],
             expected[i]);
      bad_f = 1;
    }
    if (!same(outd[i], expected[i])) {
      printf("  powr(%g, %g) = %a, expected %a\n", x[i], y[i], outd[i],
             expected[i]);
      bad_d = 1;
    }
  }
  printf("float: %s\ndouble: %s\n", bad_f ? "FAILED" : "ok",
         bad_d ? "FAILED" : "ok");
  printf(bad_f || bad_d ? "FAIL\n" : "PASS\n");
  return bad_f || bad_d;
}

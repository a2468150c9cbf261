// Host of rootn_edge_cases.cl.
#include <respec/opencl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 12
static const double x[N] = {-8.0, -27.0, -1.0, 4.0,  -4.0, -0.0,
                            0.0,  -0.0,  -0.0, 27.0, 1e300, -1e-300};
static const int n[N] = {3, -3, 5, 0, 2, 3, -2, -3, 2, 3, 3, 5};
// Expected values (for float, x is first rounded to float: 1e300 becomes
// inf and -1e-300 becomes -0).
static const double expected_d[N] = {-2.0, -1.0 / 3, -1.0, NAN, NAN, -0.0,
                                     INFINITY, -INFINITY, 0.0, 3.0, 1e100,
                                     -1e-60};
static const float expected_f[N] = {-2.0f, -1.0f / 3, -1.0f, NAN, NAN, -0.0f,
                                    INFINITY, -INFINITY, 0.0f, 3.0f, INFINITY,
                                    -0.0f};

static int close_enough(double got, double expected, double ulp_bits) {
  if (isnan(expected) || isinf(expected) || expected == 0)
    return (isnan(got) && isnan(expected)) ||
           (got == expected && signbit(got) == signbit(expected));
  return fabs(got - expected) <= 16 * ldexp(1.0, ilogb(expected) - ulp_bits);
}

int main(void) {
  float outf[N];
  double outd[N];
  const double *px = x;
  const int *pn = n;
  float *pf = outf;
  double *pd = outd;
  respec_cl_kernel *kernel = respec_cl_create_kernel("roots", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof px, &px);
  respec_cl_set_kernel_arg(kernel, 1, sizeof pn, &pn);
  respec_cl_set_kernel_arg(kernel, 2, sizeof pf, &pf);
  respec_cl_set_kernel_arg(kernel, 3, sizeof pd, &pd);
  size_t items = N;
  int bad_f = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  int bad_d = bad_f;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < N; ++i) {
    if (!close_enough(outf[i], expected_f[i], 23)) {
      printf("  rootn(%gf, %d) = %a, expected %a\n", (float)x[i], n[i],
             outf[i], expected_f[i]);
      bad_f = 1;
    }
    if (!close_enough(outd[i], expected_d[i], 52)) {
      printf("  rootn(%g, %d) = %a, expected %a\n", x[i], n[i], outd[i],
             expected_d[i]);
      bad_d = 1;
    }
  }
  printf("float: %s\ndouble: %s\n", bad_f ? "FAILED" : "ok",
         bad_d ? "FAILED" : "ok");
  printf(bad_f || bad_d ? "FAIL\n" : "PASS\n");
  return bad_f || bad_d;
}

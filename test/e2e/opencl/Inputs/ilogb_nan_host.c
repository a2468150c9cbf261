// Host of ilogb_nan.cl.
#include <respec/opencl.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  float f[4] = {NAN, -NAN, NAN, NAN};
  double d[2] = {NAN, -NAN};
  int out[6] = {0};
  float *pf = f;
  double *pd = d;
  int *po = out;
  respec_cl_kernel *kernel = respec_cl_create_kernel("ilogb_nan", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof pf, &pf);
  respec_cl_set_kernel_arg(kernel, 1, sizeof pd, &pd);
  respec_cl_set_kernel_arg(kernel, 2, sizeof po, &po);
  size_t one = 1;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &one, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < 4; ++i)
    bad |= out[i] != 1;
  if (bad)
    printf("  ilogb(NaN) = %d, FP_ILOGBNAN = %d\n", out[5], out[4]);
  printf("ilogb(NaN): %s\n", bad ? "FAILED" : "ok");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

// Host of cbrt_double_accuracy.cl: errors in ulps against long double.
#include <respec/opencl.h>
#include <math.h>
#include <stdio.h>

int main(void) {
  enum { N = 4 };
  double x[N] = {0x1.7ad6dca79993ep+61, -0x1.751dc2a1ba182p-6,
                 0x1.d50053a113a6ep-1, -0x1.b7cdfd9d7bdbbp-34};
  double out[N];
  double *px = x, *po = out;
  respec_cl_kernel *kernel = respec_cl_create_kernel("cube_roots", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof px, &px);
  respec_cl_set_kernel_arg(kernel, 1, sizeof po, &po);
  size_t items = N;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < N; ++i) {
    long double exact = cbrtl(x[i]);
    double ulps = (double)fabsl((out[i] - exact) /
                                ldexpl(1.0L, ilogbl(exact) - 52));
    if (!(ulps <= 2)) {
      printf("  cbrt(%a) = %a: %.2f ulps\n", x[i], out[i], ulps);
      bad = 1;
    }
  }
  printf("cbrt double: %s\n", bad ? "FAILED" : "ok");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

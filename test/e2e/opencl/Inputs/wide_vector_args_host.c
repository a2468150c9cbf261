// Host of wide_vector_args.cl.
#include <respec/opencl.h>
#include <stdio.h>

int main(void) {
  enum { N = 4 };
  double out[6 * N] = {0};
  double *po = out;
  float a[8] = {1, 0, 0, 0, 0, 0, 0, 2};
  double b[4] = {3, 0, 0, 4};
  long c[4] = {5, 0, 0, 6};
  int d[8] = {7, 0, 0, 0, 0, 0, 0, 8};
  float e[16] = {9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10};
  double f[8] = {11, 0, 0, 0, 0, 0, 0, 12};
  respec_cl_kernel *kernel = respec_cl_create_kernel("sums", NULL);
  int bad = respec_cl_set_kernel_arg(kernel, 0, sizeof po, &po) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 1, sizeof a, a) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 2, sizeof b, b) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 3, sizeof c, c) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 4, sizeof d, d) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 5, sizeof e, e) != 0;
  bad |= respec_cl_set_kernel_arg(kernel, 6, sizeof f, f) != 0;
  size_t items = N;
  bad |= respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < N; ++i) {
    const double expected[6] = {3.0 + i, 7, 11, 15, 19, 23};
    for (int k = 0; k < 6; ++k)
      bad |= out[6 * i + k] != expected[k];
  }
  printf("wide vector arguments: %s\n", bad ? "FAILED" : "ok");
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

// Host of work_group_shuffle.cl.
#include <respec/opencl.h>
#include <stdio.h>
#include <stdlib.h>

static int rotate(size_t group) {
  size_t groups = 7, n = group * groups;
  long *in = malloc(n * sizeof(long)), *out = malloc(n * 6 * sizeof(long));
  for (size_t i = 0; i < n; ++i)
    in[i] = (long)(i * 37 % 1001) - 500;
  respec_cl_kernel *kernel = respec_cl_create_kernel("rotate", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof(in), &in);
  respec_cl_set_kernel_arg(kernel, 1, sizeof(out), &out);
  int bad = respec_cl_enqueue_batch(kernel, groups, group) != 0;
  for (size_t i = 0; i < n && !bad; ++i) {
    size_t g = i / group, lid = i % group;
    long x = in[g * group + (lid * 5 + 3) % group];
    long want[6] = {(int)x, (long)(unsigned)x, x * 1000003,
                    (long)((unsigned long)x << 20), (long)((float)x * 0.5f),
                    (long)((double)x * 0.25)};
    for (int k = 0; k < 6; ++k)
      if (out[i * 6 + k] != want[k]) {
        printf("  item %zu type %d: %ld, expected %ld\n", i, k, out[i * 6 + k],
               want[k]);
        bad = 1;
      }
  }
  respec_cl_release_kernel(kernel);
  free(in);
  free(out);
  printf("rotate %zu: %s\n", group, bad ? "FAILED" : "ok");
  return bad;
}

static int butterfly(size_t group) {
  size_t groups = 5, n = group * groups;
  double *in = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i)
    in[i] = (double)(i % 17); // small integers: sums are exact
  respec_cl_kernel *kernel = respec_cl_create_kernel("butterfly", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof(in), &in);
  respec_cl_set_kernel_arg(kernel, 1, sizeof(out), &out);
  int bad = respec_cl_enqueue_batch(kernel, groups, group) != 0;
  for (size_t g = 0; g < groups && !bad; ++g) {
    double sum = 0;
    for (size_t i = 0; i < group; ++i)
      sum += in[g * group + i];
    for (size_t i = 0; i < group; ++i)
      if (out[g * group + i] != sum) {
        printf("  group %zu item %zu: %f, expected %f\n", g, i,
               out[g * group + i], sum);
        bad = 1;
        break;
      }
  }
  respec_cl_release_kernel(kernel);
  free(in);
  free(out);
  printf("butterfly %zu: %s\n", group, bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = rotate(4) + rotate(12) + rotate(32) + rotate(100);
  bad += butterfly(4) + butterfly(16) + butterfly(32) + butterfly(128);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

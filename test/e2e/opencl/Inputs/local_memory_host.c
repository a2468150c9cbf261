// Host of local_memory.cl.
#include <respec/opencl.h>
#include <stdio.h>
#include <stdlib.h>

static int check(size_t group, size_t groups) {
  size_t n = group * groups;
  float *in = malloc(n * sizeof(float));
  float *sums = malloc(groups * sizeof(float));
  int *maxima = malloc(groups * sizeof(int));
  for (size_t i = 0; i < n; ++i)
    in[i] = (float)((i * 7919) % 1000);
  respec_cl_kernel *kernel = respec_cl_create_kernel("sum_and_max", NULL);
  respec_cl_set_kernel_arg(kernel, 0, sizeof(in), &in);
  respec_cl_set_kernel_arg(kernel, 1, sizeof(sums), &sums);
  respec_cl_set_kernel_arg(kernel, 2, sizeof(maxima), &maxima);
  respec_cl_set_kernel_arg(kernel, 3, group * sizeof(float), NULL);
  respec_cl_set_kernel_arg(kernel, 4, group * sizeof(int), NULL);
  int status = respec_cl_enqueue_batch(kernel, groups, group);
  int bad = status != RESPEC_CL_SUCCESS;
  for (size_t g = 0; g < groups && !bad; ++g) {
    float sum = 0;
    int largest = 0;
    for (size_t i = g * group; i < (g + 1) * group; ++i) {
      sum += in[i];
      largest = (int)in[i] > largest ? (int)in[i] : largest;
    }
    if (sums[g] != sum || maxima[g] != largest) {
      printf("  group %zu: sum %f max %d, expected %f %d\n", g, sums[g],
             maxima[g], sum, largest);
      bad = 1;
    }
  }
  respec_cl_release_kernel(kernel);
  free(in);
  free(sums);
  free(maxima);
  printf("group size %zu: %s\n", group, bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = check(8, 50) + check(64, 20) + check(256, 9);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}

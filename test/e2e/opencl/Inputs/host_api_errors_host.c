// Host of host_api_errors.cl.
#include <respec/opencl.h>
#include <stdio.h>
#include <stdlib.h>

static int failures;

static void expect(int status, int want, const char *what) {
  fflush(stdout);
  if (status != want) {
    printf("%s: got %s, expected %s\n", what, respec_cl_status_string(status),
           respec_cl_status_string(want));
    ++failures;
  }
  fflush(stdout);
}

int main(void) {
  int status = 0;
  if (respec_cl_create_kernel("missing", &status) ||
      status != RESPEC_CL_INVALID_KERNEL_NAME)
    ++failures;
  respec_cl_kernel *kernel = respec_cl_create_kernel("fill", &status);
  if (!kernel || status != RESPEC_CL_SUCCESS)
    return 1;
  int *out = calloc(4096, sizeof(int));
  int value = 7;
  long wide = 7;
  expect(respec_cl_set_kernel_arg(kernel, 0, sizeof(out), &out),
         RESPEC_CL_SUCCESS, "buffer");
  expect(respec_cl_set_kernel_arg(kernel, 3, sizeof(int), &value),
         RESPEC_CL_INVALID_ARG_INDEX, "index");
  expect(respec_cl_set_kernel_arg(kernel, 1, sizeof(wide), &wide),
         RESPEC_CL_INVALID_ARG_SIZE, "size");
  expect(respec_cl_set_kernel_arg(kernel, 1, sizeof(value), &value),
         RESPEC_CL_SUCCESS, "scalar");
  expect(respec_cl_set_kernel_arg(kernel, 2, 64, &value),
         RESPEC_CL_INVALID_ARG_VALUE, "local with a value");
  expect(respec_cl_set_kernel_arg(kernel, 2, 0, NULL),
         RESPEC_CL_INVALID_ARG_SIZE, "empty local");
  size_t global = 128, local = 64;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local),
         RESPEC_CL_INVALID_KERNEL_ARGS, "unset argument");
  expect(respec_cl_set_kernel_arg(kernel, 2, 64 * sizeof(int), NULL),
         RESPEC_CL_SUCCESS, "local");
  size_t global3[4] = {64, 1, 1, 1}, local3[4] = {64, 1, 1, 1};
  expect(respec_cl_enqueue_ndrange(kernel, 4, NULL, global3, local3),
         RESPEC_CL_INVALID_WORK_DIMENSION, "work_dim");
  global = 100;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local),
         RESPEC_CL_INVALID_WORK_GROUP_SIZE, "not a multiple");
  global = 4096;
  local = 2048;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local),
         RESPEC_CL_INVALID_WORK_GROUP_SIZE, "too large");
  global = 0;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, NULL),
         RESPEC_CL_INVALID_GLOBAL_WORK_SIZE, "empty");
  expect(respec_cl_set_kernel_arg(kernel, 2, 1 << 30, NULL),
         RESPEC_CL_SUCCESS, "huge local");
  global = 64;
  local = 64;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local),
         RESPEC_CL_OUT_OF_RESOURCES, "local memory");
  int untouched = 1;
  for (int i = 0; i < 4096; ++i)
    untouched &= out[i] == 0;
  printf("untouched: %s\n", untouched ? "ok" : "FAILED");
  failures += !untouched;

  expect(respec_cl_set_kernel_arg(kernel, 2, 64 * sizeof(int), NULL),
         RESPEC_CL_SUCCESS, "local again");
  global = 4096;
  expect(respec_cl_enqueue_ndrange(kernel, 1, NULL, &global, &local),
         RESPEC_CL_SUCCESS, "valid launch");
  int ran = 1;
  for (int i = 0; i < 4096; ++i)
    ran &= out[i] == 7;
  printf("after the errors: %s\n", ran ? "ok" : "FAILED");
  failures += !ran;
  respec_cl_release_kernel(kernel);
  free(out);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

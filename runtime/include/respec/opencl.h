/*===- respec/opencl.h - Launching OpenCL C kernels compiled by respec ----===*
 *
 * `respec host.c kernels.cl -o app` compiles the OpenCL C kernels of
 * kernels.cl for the CPU and links them into the program, which launches
 * them through this API. It follows OpenCL's own kernel calls
 * (clCreateKernel, clSetKernelArg, clEnqueueNDRangeKernel) without the
 * platform, context, program and queue objects: the kernels are already in
 * the program, buffers are ordinary host memory, and an enqueue runs the
 * whole NDRange before it returns.
 *
 * Status codes are OpenCL's values (RESPEC_CL_INVALID_KERNEL_NAME is
 * CL_INVALID_KERNEL_NAME, ...). Every failure is also printed to stderr as
 * one line naming the call.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RESPEC_OPENCL_H
#define RESPEC_OPENCL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  RESPEC_CL_SUCCESS = 0,
  RESPEC_CL_OUT_OF_RESOURCES = -5,
  RESPEC_CL_OUT_OF_HOST_MEMORY = -6,
  RESPEC_CL_INVALID_VALUE = -30,
  RESPEC_CL_INVALID_KERNEL_NAME = -46,
  RESPEC_CL_INVALID_KERNEL = -48,
  RESPEC_CL_INVALID_ARG_INDEX = -49,
  RESPEC_CL_INVALID_ARG_VALUE = -50,
  RESPEC_CL_INVALID_ARG_SIZE = -51,
  RESPEC_CL_INVALID_KERNEL_ARGS = -52,
  RESPEC_CL_INVALID_WORK_DIMENSION = -53,
  RESPEC_CL_INVALID_WORK_GROUP_SIZE = -54,
  RESPEC_CL_INVALID_GLOBAL_WORK_SIZE = -63,
};

typedef struct respec_cl_kernel respec_cl_kernel;

/** The kernel `name` of any OpenCL C source linked into the program, with
 *  no arguments set; null (and `*status`, if given, set) if there is none. */
respec_cl_kernel *respec_cl_create_kernel(const char *name, int *status);

void respec_cl_release_kernel(respec_cl_kernel *kernel);

/** Sets argument `index` as clSetKernelArg does: `size` bytes at `value`;
 *  for a `__local` pointer argument, `value` is null and `size` is the
 *  number of bytes of local memory each work-group gets. Buffers are host
 *  pointers: pass `&pointer` with `sizeof(pointer)`. */
int respec_cl_set_kernel_arg(respec_cl_kernel *kernel, unsigned index,
                             size_t size, const void *value);

/** Runs the kernel over `work_dim` (1 to 3) dimensions of `global_size`
 *  work-items in work-groups of `local_size` (null: respec picks) and
 *  returns when every work-item has finished. `global_offset` may be null.
 *  Each global size must be a multiple of the local size (OpenCL 1.2). */
int respec_cl_enqueue_ndrange(respec_cl_kernel *kernel, unsigned work_dim,
                              const size_t *global_offset,
                              const size_t *global_size,
                              const size_t *local_size);

/** Runs a batch: `batch` work-groups of `group_size` work-items along
 *  dimension 0, i.e. one work-group per problem of the batch. */
int respec_cl_enqueue_batch(respec_cl_kernel *kernel, size_t batch,
                            size_t group_size);

/** The name of a status code ("RESPEC_CL_INVALID_KERNEL_NAME"). */
const char *respec_cl_status_string(int status);

#ifdef __cplusplus
}
#endif

#endif /* RESPEC_OPENCL_H */

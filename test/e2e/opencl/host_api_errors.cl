// Misuse of the host API (respec/opencl.h) returns OpenCL's status codes and
// prints one line naming the call; nothing runs with bad arguments.
// RUN: %respec %s %S/Inputs/host_api_errors_host.c -o %t && %t 2>&1 | FileCheck %s
// CHECK: respec_cl_create_kernel: RESPEC_CL_INVALID_KERNEL_NAME: no OpenCL C kernel named 'missing'
// CHECK: respec_cl_set_kernel_arg: RESPEC_CL_INVALID_ARG_INDEX: kernel 'fill' has 3 parameters, index 3 is out of range
// CHECK: respec_cl_set_kernel_arg: RESPEC_CL_INVALID_ARG_SIZE: argument 1 of 'fill' takes 4 bytes, got 8
// CHECK: respec_cl_set_kernel_arg: RESPEC_CL_INVALID_ARG_VALUE: argument 2 of 'fill' is a __local pointer
// CHECK: respec_cl_set_kernel_arg: RESPEC_CL_INVALID_ARG_SIZE: argument 2 of 'fill' is a __local pointer of 0 bytes
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_INVALID_KERNEL_ARGS: argument 2 of 'fill' is not set
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_INVALID_WORK_DIMENSION: work_dim 4
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_INVALID_WORK_GROUP_SIZE: global size 100 of dimension 0 of 'fill' is not a multiple of the work-group size 64
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_INVALID_WORK_GROUP_SIZE: work-group size 2048 of dimension 0 of 'fill' exceeds 1024
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_INVALID_GLOBAL_WORK_SIZE: global size 0
// CHECK: respec_cl_enqueue_ndrange: RESPEC_CL_OUT_OF_RESOURCES: 'fill' needs {{[0-9]+}} bytes of local memory per work-group
// CHECK: untouched: ok
// CHECK: after the errors: ok
// CHECK: PASS

__kernel void fill(__global int *out, int value, __local int *scratch) {
  scratch[get_local_id(0)] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - get_local_id(0)];
}

// __local memory three ways: a static __local array of the kernel, and two
// __local pointer arguments sized by the host (one float, one int, so their
// offsets must not overlap), with barriers in a reduction loop; launched
// over a batch of work-groups of several sizes.
// RUN: %respec %s %S/Inputs/local_memory_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/local_memory_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: group size 8: ok
// CHECK: group size 64: ok
// CHECK: group size 256: ok
// CHECK: PASS

#define MAX_GROUP 256

__kernel void sum_and_max(__global const float *in, __global float *sums,
                          __global int *maxima, __local float *partial,
                          __local int *largest) {
  __local float staged[MAX_GROUP];
  size_t lid = get_local_id(0), size = get_local_size(0);
  float x = in[get_global_id(0)];
  staged[lid] = x;
  partial[lid] = x;
  largest[lid] = (int)x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = size / 2; stride > 0; stride /= 2) {
    if (lid < stride) {
      partial[lid] += partial[lid + stride];
      largest[lid] = max(largest[lid], largest[lid + stride]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The staged copy is intact: every work-item checks its neighbour's.
  size_t next = (lid + 1) % size;
  if (staged[next] != in[get_group_id(0) * size + next])
    largest[0] = -1000000;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    sums[get_group_id(0)] = partial[0];
    maxima[get_group_id(0)] = largest[0];
  }
}

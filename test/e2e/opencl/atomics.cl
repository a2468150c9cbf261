// OpenCL C 1.2 atomic functions (6.12.11) on 32-bit integers:
// atomic_add/sub/xchg/inc/dec/cmpxchg/min/max/and/or/xor on __global int
// and uint from every work-item of 8 work-groups of 64, checking the final
// values and, where they are determined, the old values returned (each
// ticket of atomic_inc exactly once, a chain of atomic_add results, ...);
// unsigned min/max and wrap-around; the same functions on __local memory
// within each work-group, followed by a barrier; atomic_xchg on __global
// and __local float; and a spin-free counter built on atomic_cmpxchg.
// RUN: %respec %s %S/Inputs/atomics_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/atomics_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: global int: ok
// CHECK: global uint: ok
// CHECK: global float xchg: ok
// CHECK: local: ok
// CHECK: PASS

// c: int counters, olds: 8 old values per work-item.
__kernel void global_int(volatile __global int *c, __global int *olds) {
  int gid = get_global_id(0);
  __global int *o = olds + 8 * gid;
  o[0] = atomic_add(&c[0], gid + 1);
  o[1] = atomic_sub(&c[1], 2);
  o[2] = atomic_inc(&c[2]);
  o[3] = atomic_dec(&c[3]);
  o[4] = atomic_xchg(&c[4], gid);
  // An increment by 3 through compare-and-swap.
  int seen = c[5], old;
  while ((old = atomic_cmpxchg(&c[5], seen, seen + 3)) != seen)
    seen = old;
  o[5] = seen;
  int v = (gid * 7919) % 1000 - 500;
  o[6] = atomic_min(&c[6], v);
  o[7] = atomic_max(&c[7], v);
  // A compare that fails leaves the value alone and returns it.
  atomic_cmpxchg(&c[8], 12345, gid);
}

// u: uint counters, olds: 4 old values per work-item.
__kernel void global_uint(volatile __global uint *u, __global uint *olds) {
  uint gid = get_global_id(0);
  __global uint *o = olds + 4 * gid;
  atomic_and(&u[0], ~(1u << (gid % 32)));
  atomic_or(&u[1], 1u << (gid % 32));
  atomic_xor(&u[2], gid * 2654435761u);
  o[0] = atomic_add(&u[3], 1u);  // starts near UINT_MAX: wraps around
  atomic_min(&u[4], gid + 0x80000000u); // unsigned comparisons
  atomic_max(&u[5], gid | 0x80000000u);
  o[1] = atomic_inc(&u[6]);
  o[2] = atomic_dec(&u[7]);      // starts at the number of work-items
  o[3] = atomic_sub(&u[8], 5u);  // from 0: wraps around
  atomic_xchg(&u[9], 7u);
}

__kernel void global_float(volatile __global float *f, __global float *olds) {
  size_t gid = get_global_id(0);
  olds[gid] = atomic_xchg(f, (float)gid + 0.5f);
}

// Per work-group: every work-item updates __local counters; after the
// barrier the first work-item copies them out. tickets: atomic_inc's
// returned value per work-item; fx: atomic_xchg on __local float.
__kernel void local_atomics(__global int *groups, __global int *tickets,
                            __global float *fx) {
  __local int c[8];
  __local uint u[4];
  __local float lf;
  int lid = get_local_id(0), size = get_local_size(0);
  if (lid == 0) {
    c[0] = 0, c[1] = 0, c[2] = 1000, c[3] = 0, c[4] = 1 << 30,
    c[5] = -(1 << 30), c[6] = -1, c[7] = 0;
    u[0] = 0xffffffffu, u[1] = 0, u[2] = 0, u[3] = 0;
    lf = -1.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&c[0], lid);
  tickets[get_global_id(0)] = atomic_inc(&c[1]);
  atomic_sub(&c[2], lid);
  atomic_dec(&c[3]);
  atomic_min(&c[4], (lid * 37) % size - 10);
  atomic_max(&c[5], (lid * 37) % size - 10);
  atomic_xchg(&c[6], lid);
  int seen = c[7], old;
  while ((old = atomic_cmpxchg(&c[7], seen, seen + lid)) != seen)
    seen = old;
  atomic_and(&u[0], ~(1u << (lid % 32)));
  atomic_or(&u[1], 1u << (lid % 32));
  atomic_xor(&u[2], (uint)lid * 40503u);
  atomic_max(&u[3], (uint)lid | 0x80000000u);
  fx[get_global_id(0)] = atomic_xchg(&lf, (float)lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    __global int *g = groups + 13 * get_group_id(0);
    for (int k = 0; k < 8; ++k)
      g[k] = c[k];
    for (int k = 0; k < 4; ++k)
      g[8 + k] = (int)u[k];
    g[12] = as_int(lf);
  }
}

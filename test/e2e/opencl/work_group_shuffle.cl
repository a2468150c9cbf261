// respec's work-group shuffle(value, lane): every work-item reads the value
// of work-item `lane` (modulo the work-group size) of its own work-group.
// Covers int, uint, long, ulong, float and double; group sizes from 4 to
// 128 including sizes that are not powers of two; lanes past the end;
// and a butterfly reduction, the register-cache idiom, in a loop.
// RUN: %respec %s %S/Inputs/work_group_shuffle_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/work_group_shuffle_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: rotate 4: ok
// CHECK: rotate 12: ok
// CHECK: rotate 32: ok
// CHECK: rotate 100: ok
// CHECK: butterfly 4: ok
// CHECK: butterfly 16: ok
// CHECK: butterfly 32: ok
// CHECK: butterfly 128: ok
// CHECK: PASS

// Each work-item reads from lane (lid * 5 + 3), which wraps around the
// group several times, for each scalar type.
__kernel void rotate(__global const long *in, __global long *out) {
  uint lid = get_local_id(0);
  uint lane = lid * 5 + 3;
  size_t gid = get_global_id(0);
  long x = in[gid];
  __global long *o = out + gid * 6;
  o[0] = shuffle((int)x, lane);
  o[1] = shuffle((uint)x, lane);
  o[2] = shuffle(x * 1000003, lane);
  o[3] = (long)shuffle((ulong)x << 20, lane);
  o[4] = (long)shuffle((float)x * 0.5f, lane);
  o[5] = (long)shuffle((double)x * 0.25, lane);
}

// Sum over the work-group (a power of two) with xor shuffles, keeping the
// partial sums in registers.
__kernel void butterfly(__global const double *in, __global double *out) {
  uint lid = get_local_id(0);
  double v = in[get_global_id(0)];
  for (uint mask = get_local_size(0) / 2; mask > 0; mask /= 2)
    v += shuffle(v, lid ^ mask);
  out[get_global_id(0)] = v;
}

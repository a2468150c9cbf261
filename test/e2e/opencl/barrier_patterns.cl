// Barrier patterns and kernel-interface features of OpenCL C 1.2:
// - a 2-D work-group (16x8) transposing a matrix through a __local tile,
//   staged by a helper (non-kernel) function that calls barrier;
// - barriers in nested loops (a reduction per round of an outer loop whose
//   trip count is a kernel argument) in a kernel with both a static
//   __local array and a __local pointer argument, plus mem_fence;
// - a barrier in a loop whose exit is decided from __local data (iterate
//   until every work-item of the group is done);
// - a stencil reading weights from program-scope __constant tables, with
//   read_mem_fence/write_mem_fence around the barrier and two __local
//   pointer arguments;
// - a kernel calling another kernel function;
// - structs passed by value (Params {float a; int b;} and a struct with a
//   double) and vector arguments by value (float4, float3, int2, double2).
// RUN: %respec %s %S/Inputs/barrier_patterns_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/barrier_patterns_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: transpose 16x8: ok
// CHECK: rounds of reductions: ok
// CHECK: loop until done: ok
// CHECK: constant stencil: ok
// CHECK: kernel calls kernel: ok
// CHECK: arguments by value: ok
// CHECK: PASS

#define TILE_X 16
#define TILE_Y 8

// Stores this work-item's element into the tile and waits for the group.
static void stage(__local float (*tile)[TILE_X + 1], float value) {
  tile[get_local_id(1)][get_local_id(0)] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
}

// in: height x width, out: width x height. Each 16x8 work-group reads a
// block of 8 rows and 16 columns and writes it as 16 rows of 8 columns,
// each work-item taking the output element of its linear local id.
__kernel void transpose(__global const float *in, __global float *out,
                        int width, int height) {
  __local float tile[TILE_Y][TILE_X + 1];
  size_t x = get_global_id(0), y = get_global_id(1);
  stage(tile, in[y * width + x]);
  size_t linear = get_local_id(1) * get_local_size(0) + get_local_id(0);
  size_t row = linear / TILE_Y, col = linear % TILE_Y; // in the output block
  size_t out_row = get_group_id(0) * TILE_X + row;
  size_t out_col = get_group_id(1) * TILE_Y + col;
  out[out_row * height + out_col] = tile[col][row];
}

// Sum over the work-group (a power of two) in scratch; every work-item
// gets the total. Barriers in a loop, in a helper function.
static int group_sum(__local int *scratch, int v) {
  size_t lid = get_local_id(0);
  scratch[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  int total = scratch[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return total;
}

// `rounds` rounds: each sums the group's values and updates every value
// from the total; the totals are kept in a static __local array.
#define MAX_ROUNDS 16
__kernel void rounds(__global const int *in, __global int *out,
                     __global int *totals, __local int *scratch,
                     int rounds) {
  __local int history[MAX_ROUNDS];
  size_t lid = get_local_id(0), group = get_group_id(0);
  int v = in[get_global_id(0)];
  for (int r = 0; r < rounds; ++r) {
    int total = group_sum(scratch, v);
    if (lid == 0)
      history[r] = total;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    v = (v * 3 + total + (int)lid) % 1000003;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = v;
  if (lid < (size_t)rounds)
    totals[group * rounds + lid] = history[lid];
}

// Each work-item halves its value until it is 0; the group loops until
// all of them are, counting the iterations.
__kernel void until_done(__global const uint *in, __global uint *iterations) {
  __local int busy;
  uint v = in[get_global_id(0)];
  uint count = 0;
  for (;;) {
    if (get_local_id(0) == 0)
      busy = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (v != 0)
      atomic_or(&busy, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!busy)
      break;
    v /= 2;
    ++count;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  iterations[get_global_id(0)] = count;
}

// A 5-point stencil with weights and offsets from __constant tables; the
// two elements on each side of the group come through __local arguments.
__constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant int offsets[5] = {-2, -1, 0, 1, 2};
__kernel void stencil(__global const float *in, __global float *out,
                      __local float *left, __local float *right) {
  __local float tile[64];
  int lid = get_local_id(0), size = get_local_size(0);
  int gid = get_global_id(0), n = get_global_size(0);
  tile[lid] = in[gid];
  if (lid < 2)
    left[lid] = gid - 2 >= 0 ? in[gid - 2] : 0.0f;
  if (lid >= size - 2)
    right[lid - (size - 2)] = gid + 2 < n ? in[gid + 2] : 0.0f;
  write_mem_fence(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = 0; k < 5; ++k) {
    int j = lid + offsets[k];
    float v = j < 0 ? left[j + 2] : j >= size ? right[j - size] : tile[j];
    s += weights[k] * v;
  }
  out[gid] = s;
}

// A kernel calling kernels.
__kernel void scale(__global float *data, float factor) {
  data[get_global_id(0)] *= factor;
}
__kernel void offset(__global float *data, float delta) {
  data[get_global_id(0)] += delta;
}
__kernel void scale_offset_scale(__global float *data, float factor,
                                 float delta) {
  scale(data, factor);
  offset(data, delta);
  scale(data, factor);
}

// Arguments by value.
typedef struct {
  float a;
  int b;
} Params;
typedef struct {
  float w[3];
  int n;
  double bias;
} Coeffs;
__kernel void by_value(__global float *out, Params p, float4 v, float3 t,
                       int2 iv, Coeffs c, double2 dv, char flag) {
  size_t i = get_global_id(0);
  __global float *o = out + 8 * i;
  o[0] = p.a * (float)i + (float)p.b;
  o[1] = v.x + v.y * 2.0f + v.z * 4.0f + v.w * 8.0f;
  o[2] = dot(t, (float3)(1.0f, 10.0f, 100.0f));
  o[3] = (float)(iv.x * (int)i - iv.y);
  o[4] = c.w[i % 3] * (float)c.n;
  o[5] = (float)(c.bias * (double)i);
  o[6] = (float)(dv.x - dv.y);
  o[7] = flag ? 1.0f : -1.0f;
}

// The warp primitives without a mask that CUDA 9 deprecated and CUDA 13's
// headers no longer declare (clang's still do): __shfl, __shfl_up,
// __shfl_down, __shfl_xor (int and float, with a width), __ballot, __any
// and __all, in code written before Volta. They run as their _sync forms
// over the warp: a shuffle reduction, a butterfly, a scan, a broadcast and
// votes, in full warps and in the partial last warp of a 48-thread block,
// in a kernel with __syncthreads (warps exchanged through memory) and in
// one without (interleaved lanes), also with every optimization off.
// Before 0.29.0 a compile error: `uses a warp-level primitive
// (llvm.nvvm.shfl.down.i32) that the CPU back end does not support here`.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec -O2 --cuda-path=/nonexistent %s -o %t.own && %t.own | FileCheck %s
// CHECK: interleaved PASSED
// CHECK: with barriers PASSED

#include <cstdio>
#include <cuda_runtime.h>

struct Results {
  int sum, butterfly, scan, broadcast, ballot, any, all;
  float fsum, fhalf;
};

__device__ void warpWork(int t, int value, Results *out) {
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down(sum, offset);
  int butterfly = value;
  for (int mask = 1; mask < 32; mask *= 2)
    butterfly = max(butterfly, __shfl_xor(butterfly, mask));
  int scan = value;
  for (int offset = 1; offset < 32; offset *= 2) {
    int other = __shfl_up(scan, offset);
    if ((t & 31) >= offset)
      scan += other;
  }
  float fsum = value * 0.5f;
  for (int offset = 16; offset > 0; offset /= 2)
    fsum += __shfl_down(fsum, offset);
  // Within segments of 16 lanes.
  float fhalf = __shfl(value * 0.25f, 3, 16);
  out[t].sum = sum;
  out[t].butterfly = butterfly;
  out[t].scan = scan;
  out[t].broadcast = __shfl(value, 5);
  out[t].ballot = __ballot(value % 3 == 0);
  out[t].any = __any(value == 7);
  out[t].all = __all(value < 40);
  out[t].fsum = fsum;
  out[t].fhalf = fhalf;
}

__global__ void interleaved(Results *out) {
  int t = threadIdx.x;
  warpWork(t, t % 32 + t / 32, out);
}

__global__ void withBarriers(const int *in, Results *out) {
  __shared__ int staged[64];
  int t = threadIdx.x;
  staged[t] = in[t];
  __syncthreads();
  warpWork(t, staged[blockDim.x - 1 - t], out);
}

static int check(const Results *got, const int *values, int threads,
                 const char *what) {
  int failures = 0;
  for (int t = 0; t < threads; ++t) {
    int base = t / 32 * 32, lanes = threads - base < 32 ? threads - base : 32;
    int lane = t % 32;
    // A lane past the end of a partial warp reads as 0 in a shuffle (as on
    // NVIDIA GPUs), its own value when the source is outside the warp.
    auto at = [&](int l) { return l < lanes ? values[base + l] : 0; };
    // The down-reduction lane by lane, as the GPU runs it: a source past
    // lane 31 gives the lane its own value.
    int sums[32];
    float fsums[32];
    for (int l = 0; l < 32; ++l) {
      sums[l] = at(l);
      fsums[l] = at(l) * 0.5f;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      int next[32];
      float fnext[32];
      for (int l = 0; l < 32; ++l) {
        bool inside = l + offset < 32;
        next[l] = sums[l] + (inside ? (l + offset < lanes ? sums[l + offset] : 0)
                                    : sums[l]);
        fnext[l] = fsums[l] + (inside ? (l + offset < lanes ? fsums[l + offset] : 0)
                                      : fsums[l]);
      }
      for (int l = 0; l < 32; ++l) {
        sums[l] = next[l];
        fsums[l] = fnext[l];
      }
    }
    int sum = sums[lane];
    int butterfly = 0;
    for (int l = 0; l < lanes; ++l)
      butterfly = values[base + l] > butterfly ? values[base + l] : butterfly;
    int scan = 0;
    for (int l = 0; l <= lane; ++l)
      scan += values[base + l];
    int ballot = 0, any = 0, all = 1;
    for (int l = 0; l < lanes; ++l) {
      ballot |= (values[base + l] % 3 == 0) << l;
      any |= values[base + l] == 7;
      all &= values[base + l] < 40;
    }
    float fhalf = at(lane / 16 * 16 + 3) * 0.25f;
    const Results &r = got[t];
    bool ok = r.sum == sum && r.scan == scan && r.broadcast == at(5) &&
              r.ballot == ballot && r.any == any && r.all == all &&
              r.fsum == fsums[lane] && r.fhalf == fhalf &&
              r.butterfly == butterfly;
    if (!ok && failures++ < 5)
      printf("%s thread %d: sum %d/%d scan %d/%d broadcast %d/%d ballot "
             "%x/%x any %d/%d all %d/%d fsum %g/%g fhalf %g/%g butterfly "
             "%d/%d\n",
             what, t, r.sum, sum, r.scan, scan, r.broadcast, at(5), r.ballot,
             ballot, r.any, any, r.all, all, r.fsum, fsums[lane], r.fhalf,
             fhalf, r.butterfly, butterfly);
  }
  printf("%s %s\n", what, failures ? "FAILED" : "PASSED");
  return failures;
}

int main() {
  const int threads = 48;
  Results *out;
  int *in;
  cudaMallocManaged(&out, 64 * sizeof(Results));
  cudaMallocManaged(&in, 64 * sizeof(int));
  int values[64];
  for (int t = 0; t < threads; ++t)
    values[t] = t % 32 + t / 32;
  interleaved<<<1, threads>>>(out);
  cudaDeviceSynchronize();
  int failures = check(out, values, threads, "interleaved");
  for (int t = 0; t < threads; ++t)
    in[t] = (t * 7) % 41;
  for (int t = 0; t < threads; ++t)
    values[t] = in[threads - 1 - t];
  withBarriers<<<1, threads>>>(in, out);
  cudaDeviceSynchronize();
  failures += check(out, values, threads, "with barriers");
  return failures != 0;
}

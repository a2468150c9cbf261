// Warp-level inline PTX written by the user: shfl.sync (with the predicate
// result of `d|p`), vote.sync.ballot, match.any.sync, redux.sync, activemask
// and the %laneid / %lanemask_lt special registers. respec translates them
// to the NVVM warp intrinsics its warp lowering runs as SIMD lanes.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>

constexpr int N = 128;

__global__ void warps(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int *o = out + i * 8;
  // Butterfly sum over the warp.
  int sum = v;
  for (int offset = 16; offset > 0; offset /= 2) {
    int other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                 : "=r"(other) : "r"(sum), "r"(offset));
    sum += other;
  }
  o[0] = sum;
  // Up-shift by 3 with the validity predicate: lanes 0-2 keep their value.
  int shifted, valid;
  asm volatile("{\n\t.reg .pred p;\n\t"
               "shfl.sync.up.b32 %0|p, %2, 3, 0, 0xffffffff;\n\t"
               "selp.s32 %1, 1, 0, p;\n\t}"
               : "=r"(shifted), "=r"(valid) : "r"(v));
  o[1] = shifted;
  o[2] = valid;
  unsigned ballot, lane, below;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %1, 500;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(ballot) : "r"(v));
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  o[3] = ballot;
  o[4] = __popc(ballot & below) + 100 * lane;
  unsigned peers;
  asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;"
               : "=r"(peers) : "r"(v % 4));
  o[5] = peers;
  int total;
  asm volatile("redux.sync.add.s32 %0, %1, 0xffffffff;"
               : "=r"(total) : "r"(v));
  o[6] = total;
}

// activemask in a kernel of its own: respec's warp lowering supports it
// where warps run as interleaved lanes.
__global__ void activeMask(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned active;
  asm volatile("activemask.b32 %0;" : "=r"(active));
  out[i * 8 + 7] = active;
}

int main() {
  int *in, *out;
  cudaMallocManaged(&in, N * 4);
  cudaMallocManaged(&out, N * 8 * 4);
  for (int i = 0; i < N; ++i)
    in[i] = (i * 389) % 1000;
  warps<<<N / 64, 64>>>(in, out);
  activeMask<<<N / 64, 64>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, long long got, long long want) {
    if (got != want && ++failures <= 10)
      printf("%s[%d]: got %lld want %lld\n", what, i, got, want);
  };
  for (int i = 0; i < N; ++i) {
    int warp = i / 32 * 32, lane = i % 32;
    int sum = 0;
    unsigned ballot = 0, peers = 0;
    for (int l = 0; l < 32; ++l) {
      sum += in[warp + l];
      ballot |= (in[warp + l] > 500 ? 1u : 0u) << l;
      peers |= (in[warp + l] % 4 == in[i] % 4 ? 1u : 0u) << l;
    }
    const int *o = out + i * 8;
    expect("shfl.bfly sum", i, o[0], sum);
    expect("shfl.up value", i, o[1], lane >= 3 ? in[i - 3] : in[i]);
    expect("shfl.up predicate", i, o[2], lane >= 3);
    expect("vote.ballot", i, (unsigned)o[3], ballot);
    expect("laneid/lanemask_lt", i, o[4],
           __builtin_popcount(ballot & ((1u << lane) - 1)) + 100 * lane);
    expect("match.any", i, (unsigned)o[5], peers);
    expect("redux.add", i, o[6], sum);
    expect("activemask", i, (unsigned)o[7], 0xffffffffu);
  }
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}

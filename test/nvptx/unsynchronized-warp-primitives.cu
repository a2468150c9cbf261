// The warp primitives without a mask (__shfl_down, __ballot, ...: clang's
// headers still define them) for NVIDIA GPUs, which since sm_70 have only
// the synchronized forms: each becomes its _sync form over __activemask(),
// the threads that ran it before Volta. Before 0.29.0 the compiler stopped
// with "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.shfl.up.i32".
//
// REQUIRES: cuda-toolkit
// RUN: %respec --target=nvptx --emit=ptx %s -o - | FileCheck %s
// CHECK-LABEL: .entry _Z6legacyPiPf(
// CHECK: activemask.b32 [[MASK:%r[0-9]+]];
// CHECK-NEXT: shfl.sync.down.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, [[MASK]];
// CHECK-DAG: shfl.sync.up.b32
// CHECK-DAG: shfl.sync.bfly.b32
// CHECK-DAG: shfl.sync.idx.b32
// CHECK-DAG: vote.sync.ballot.b32
// CHECK-DAG: vote.sync.any.pred
// CHECK-DAG: vote.sync.all.pred
// CHECK-NOT: shfl.{{up|down|bfly|idx}}.b32

__global__ void legacy(int *out, float *fout) {
  int v = out[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down(v, offset);
  v += __shfl_up(v, 1) + __shfl_xor(v, 2) + __shfl(v, 0);
  fout[threadIdx.x] = __shfl_down(fout[threadIdx.x], 1);
  out[threadIdx.x] = v + __ballot(v & 1) + __any(v == 3) + __all(v > 0);
}

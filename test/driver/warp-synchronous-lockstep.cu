// Implicitly warp-synchronous code (threads of a warp exchanging values
// through volatile shared memory with no synchronization, as the unrolled
// last-warp reductions of old CUDA samples do) runs in lockstep on the CPU:
// respec puts a __syncwarp() before each volatile access of the exchange
// that follows a store (or a store that follows loads), drops `volatile`
// from them, and warns about nothing. The same steps with __syncwarp()
// between them, and exchanges across a __syncthreads(), get no more
// synchronization than they have. Before 0.29.0: a warning and wrong
// results (test/e2e/warp/implicit_warp_synchronous.cu checks the results).
// RUN: %respec -O2 --emit=llvm -c %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=WARN --allow-empty
// RUN: FileCheck %s < %t.ll
// WARN-NOT: warning
// CHECK-LABEL: define {{.*}} @_Z14lastWarpReducePi(
// The accesses are no longer volatile: the synchronization orders them.
// CHECK: load i32
// CHECK-NEXT: load i32
// CHECK-NEXT: add
// CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// CHECK-NEXT: store i32
// CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
// CHECK-NEXT: load i32
// CHECK-NEXT: load i32
// CHECK-COUNT-9: {{^}}  call void @llvm.nvvm.bar.warp.sync(i32 -1)
// CHECK-NOT: call void @llvm.nvvm.bar.warp.sync
// The user's own __syncwarp() calls (tail calls) are all there is:
// CHECK-LABEL: define {{.*}} @_Z16syncedWarpReducePi(
// CHECK-NOT: {{^}}  call void @llvm.nvvm.bar.warp.sync
// CHECK-LABEL: define {{.*}} @_Z21neighbourAfterBarrierPi(
// CHECK-NOT: call void @llvm.nvvm.bar.warp.sync
// CHECK: ret void
//
// The GPU target keeps its warps: nothing added there, no warning.
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WARN --allow-empty

#include <cuda_runtime.h>

__device__ void warpReduce(volatile int *s, int t) {
  s[t] += s[t + 32];
  s[t] += s[t + 16];
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void lastWarpReduce(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x < 32)
    warpReduce(s, threadIdx.x);
  if (threadIdx.x == 0)
    out[0] = s[0];
}

__global__ void syncedWarpReduce(int *out) {
  __shared__ int s[64];
  volatile int *v = s;
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x < 32) {
    int t = threadIdx.x;
    for (int offset = 32; offset > 0; offset /= 2) {
      int other = v[t + offset];
      __syncwarp();
      v[t] += other;
      __syncwarp();
    }
  }
  if (threadIdx.x == 0)
    out[1] = s[0];
}

__global__ void neighbourAfterBarrier(int *out) {
  volatile __shared__ int s[65];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[2 + threadIdx.x] = s[threadIdx.x + 1];
}

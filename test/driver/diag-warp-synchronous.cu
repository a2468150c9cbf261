// Implicitly warp-synchronous code (threads of a warp exchanging values
// through volatile shared memory with no synchronization, as the unrolled
// last-warp reductions of old CUDA samples do) gives wrong results on the
// CPU, where respec runs a block's threads one after the other between
// barriers: respec warns at the first read of another thread's element. The
// same steps with __syncwarp() between them, and exchanges across a
// __syncthreads(), get no warning.
// RUN: %respec -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: diag-warp-synchronous.cu:[[@LINE+11]]:{{[0-9]+}}: warning: kernel 'lastWarpReduce(int*)' reads shared memory that another thread wrote, with no synchronization in between (implicitly warp-synchronous code, such as the unrolled volatile last-warp reduction); respec runs the threads of a block one after the other between barriers, so the read sees the value from before the other thread's write: put __syncwarp() between the steps
// CHECK-NOT: warning
//
// The GPU target keeps its warps: no warning there.
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=GPU --allow-empty
// GPU-NOT: warning

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

// A thread that waits in a loop for another thread of its block to change
// a value in shared memory never sees the change on the CPU, where respec
// runs the threads of a block one after the other between barriers: respec
// warns at the waiting load. Spin locks (they write; an atomic operation in
// the loop counts as the thread's own progress), waits with a barrier in
// the loop and waits on global memory (another block may be the one to
// write it, and blocks do run concurrently) get no warning.
// RUN: %respec -O2 -c %s -o %t.o 2>&1 | FileCheck %s
// CHECK: diag-spin-wait.cu:[[@LINE+21]]:{{[0-9]+}}: warning: kernel 'producerConsumer(int*)' waits in a loop for a value in shared memory that another thread of the block must change; respec runs the threads of a block one after the other between barriers, so on the CPU this loop never ends unless the waiting thread changed the value itself (wait with __syncthreads() instead)
// CHECK: diag-spin-wait.cu:[[@LINE+33]]:{{[0-9]+}}: warning: kernel 'countPoll(int*)' waits in a loop
// CHECK-NOT: warning
//
// The GPU runs a block's threads concurrently: no warning there.
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=GPU --allow-empty
// GPU-NOT: warning

#include <cuda_runtime.h>

__global__ void producerConsumer(int *out) {
  volatile __shared__ int ready;
  __shared__ int value;
  if (threadIdx.x == 0)
    ready = 0;
  __syncthreads();
  if (threadIdx.x == 32) {
    value = 42;
    __threadfence_block();
    ready = 1;
  } else if (threadIdx.x == 0) {
    while (ready == 0) {
    }
    out[0] = value;
  }
}

__global__ void countPoll(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  if (threadIdx.x == 0) {
    while (*(volatile int *)&count < (int)blockDim.x) {
    }
    out[1] = count;
  }
}

__global__ void spinLock(int *out) {
  __shared__ int lock;
  if (threadIdx.x == 0)
    lock = 0;
  __syncthreads();
  while (atomicCAS(&lock, 0, 1) != 0) {
  }
  out[2] += 1;
  atomicExch(&lock, 0);
}

__global__ void waitWithBarrier(int *out) {
  volatile __shared__ int round;
  if (threadIdx.x == 0)
    round = 0;
  __syncthreads();
  while (round < 4) {
    __syncthreads();
    if (threadIdx.x == 0)
      round = round + 1;
    __syncthreads();
  }
  out[3] = round;
}

__global__ void waitForOtherBlock(volatile int *flag, int *out) {
  if (blockIdx.x == 1 && threadIdx.x == 0)
    *flag = 1;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    out[4] = 1;
  }
}

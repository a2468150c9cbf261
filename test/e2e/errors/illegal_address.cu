// A kernel that writes through a wild pointer: a GPU reports
// cudaErrorIllegalAddress; on the CPU the process stops with the fault, but
// first the runtime names the kernel and the address. Also with
// asynchronous launches (the fault is on a worker thread) and at 3 OpenMP
// threads. A program's own fault outside kernels is not blamed on one, and
// a fault handler the program installed still runs.
// RUN: %respec -O2 %s -o %t
// RUN: not --crash %t kernel > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=KERNEL < %t.out
// RUN: env RESPEC_ASYNC_LAUNCH=1 OMP_NUM_THREADS=3 not --crash %t kernel > %t.async 2>&1
// RUN: FileCheck %s --check-prefix=KERNEL < %t.async
// RUN: not --crash %t host > %t.host 2>&1
// RUN: FileCheck %s --check-prefix=HOST < %t.host
// RUN: not %t handler > %t.handler 2>&1
// RUN: FileCheck %s --check-prefix=HANDLER < %t.handler
// KERNEL: before the launch
// KERNEL: respec: kernel 'scatter(int*, long)' accessed memory it may not (address 0x{{[0-9a-f]+}}): an illegal memory access was encountered (cudaErrorIllegalAddress on a GPU); the program stops
// KERNEL-NOT: after the launch
// HOST: launched once
// HOST-NOT: respec: kernel
// HANDLER: program's handler ran
// HANDLER-NOT: respec: kernel

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void scatter(int *p, long stride) {
  p[threadIdx.x * stride] = (int)threadIdx.x;
}

static void programHandler(int) {
  const char text[] = "program's handler ran\n";
  (void)!write(STDERR_FILENO, text, sizeof(text) - 1);
  _exit(3);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  if (!strcmp(mode, "kernel")) {
    printf("before the launch\n");
    fflush(stdout);
    scatter<<<2, 32>>>(p, 1L << 40);
    cudaDeviceSynchronize();
    printf("after the launch\n");
    return 0;
  }
  // A good launch first, then faults outside any kernel.
  scatter<<<1, 32>>>(p, 1);
  cudaDeviceSynchronize();
  printf("launched once\n");
  fflush(stdout);
  if (!strcmp(mode, "handler"))
    signal(SIGSEGV, programHandler);
  volatile int *wild = (volatile int *)(uintptr_t)16;
  *wild = 1;
  return 0;
}

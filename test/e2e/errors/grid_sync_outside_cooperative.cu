// A kernel that synchronizes its grid (cooperative groups' grid.sync())
// must be launched with cudaLaunchCooperativeKernel: launched with <<<>>>
// its grid group is not valid and grid.sync() traps, as on a GPU. respec
// stops the program and says what the launch lacked. The same kernel
// launched cooperatively, and a kernel that only asks is_valid() in an
// ordinary launch, run.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t
// RUN: %t cooperative | FileCheck %s --check-prefix=GOOD
// RUN: not --crash %t ordinary > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=BAD < %t.out
// GOOD: is_valid in an ordinary launch: 0
// GOOD: cooperative: 64
// BAD: respec: a kernel executed __trap() (PTX trap): unspecified launch failure
// BAD-NEXT: respec: note: a kernel that synchronizes its grid (cooperative groups' this_grid().sync()) was launched without cudaLaunchCooperativeKernel, where grid.sync() traps
// BAD-NOT: finished

#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void twoPhases(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] = 1;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int sum = 0;
    for (unsigned long long i = 0; i < grid.size(); ++i)
      sum += data[i];
    data[0] = sum;
  }
}

__global__ void validity(int *out) { *out = cg::this_grid().is_valid(); }

int main(int argc, char **argv) {
  int *data;
  cudaMalloc(&data, 64 * sizeof(int));
  if (argc > 1 && !std::strcmp(argv[1], "cooperative")) {
    validity<<<1, 1>>>(data);
    int valid = -1;
    cudaMemcpy(&valid, data, sizeof valid, cudaMemcpyDeviceToHost);
    std::printf("is_valid in an ordinary launch: %d\n", valid);
    void *args[] = {&data};
    cudaLaunchCooperativeKernel((void *)twoPhases, 2, 32, args, 0, 0);
    int sum = 0;
    cudaMemcpy(&sum, data, sizeof sum, cudaMemcpyDeviceToHost);
    std::printf("cooperative: %d\n", sum);
    return 0;
  }
  twoPhases<<<2, 32>>>(data);
  cudaDeviceSynchronize();
  std::printf("finished\n");
  return 0;
}

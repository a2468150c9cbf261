// Cooperative groups' grid barrier for the CPU: the headers read the grid
// workspace's address from %envreg1 (high half) and %envreg2 (low half),
// which respec translates into a call of the runtime's
// __respec_grid_workspace; the barrier's polling load (ld.acquire.gpu) is
// followed by __respec_acquire_poll, which yields the core while a
// cooperative launch runs more blocks than cores. The kernel's launch
// function is marked as synchronizing its grid, for the CPU and for GPUs
// (where the PTX, which --target=nvptx keeps, reads %envreg1/2).
// REQUIRES: cuda-toolkit
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// RUN: %respec --emit=parallel-ir %s -o - | FileCheck %s --check-prefix=PAR
// RUN: %respec --target=nvptx --emit=llvm %s -o - | FileCheck %s --check-prefix=GPU
// RUN: %respec --target=nvptx --emit=parallel-ir %s -o - | FileCheck %s --check-prefix=PAR

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// CHECK-LABEL: define {{.*}}@_Z8twoPhasePi(
// CHECK: call ptr @__respec_grid_workspace()
// CHECK: atomicrmw add ptr %{{.*}}, i32 %{{.*}} release
// CHECK: load atomic i32, ptr %{{.*}} acquire
// CHECK-NEXT: call void @__respec_acquire_poll()
// CHECK-DAG: declare ptr @__respec_grid_workspace() #[[WS:[0-9]+]]
// CHECK-DAG: declare void @__respec_acquire_poll() #[[POLL:[0-9]+]]
// CHECK-DAG: attributes #[[WS]] = { nounwind willreturn memory(none) }
// CHECK-DAG: attributes #[[POLL]] = { nounwind willreturn memory(inaccessiblemem: readwrite) }
// PAR: llvm.func @__respec_launch._Z8twoPhasePi({{.*}}respec.syncs_grid
// PAR: llvm.func @__respec_launch._Z5planePi(
// PAR-NOT: respec.syncs_grid
// PAR: llvm.func @__respec_launch._Z7stridedPfl(
// PAR-NOT: respec.syncs_grid
// GPU: mov.u32 $0, %envreg2;
// GPU: mov.u32 $0, %envreg1;
// GPU: atom.add.release.gpu.u32
__global__ void twoPhase(int *data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] += 1;
  grid.sync();
  data[grid.thread_rank()] += data[(grid.thread_rank() + 1) % grid.size()];
}

__global__ void plane(int *data) { data[threadIdx.x] = 0; }

// this_grid() for the grid's size and the thread's rank only: the
// workspace is read but not used, so the kernel does not synchronize its
// grid (it keeps the schedule, fusion and coarsening of any kernel).
__global__ void strided(float *x, long n) {
  cg::grid_group grid = cg::this_grid();
  for (long i = grid.thread_rank(); i < n; i += grid.size())
    x[i] *= 2.0f;
}

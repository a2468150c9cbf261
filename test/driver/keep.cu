// --keep writes the intermediate files next to the -o output.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec --keep -c %s -o %t.dir/keep.o
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES-DAG: keep.o
// FILES-DAG: keep.device.ll
// FILES-DAG: keep.parallel.mlir
// FILES-DAG: keep.cpu.mlir
// FILES-DAG: keep.cpu.ll
// FILES-DAG: keep.cpu-unoptimized.ll
// RUN: FileCheck %s --check-prefix=DEVICE < %t.dir/keep.device.ll
// DEVICE: target triple = "nvptx64-nvidia-cuda"
// DEVICE: define {{.*}}ptx_kernel void @_Z6squarePi(
// RUN: FileCheck %s --check-prefix=PARALLEL < %t.dir/keep.parallel.mlir
// PARALLEL: llvm.func @__respec_launch._Z6squarePi(
// PARALLEL: {respec.parallel_level = "block"}
// PARALLEL: {respec.parallel_level = "grid"}
// The parallel IR after the CPU optimizations: no barrier left, the grid
// loop not yet an OpenMP loop.
// RUN: FileCheck %s --check-prefix=CPUMLIR < %t.dir/keep.cpu.mlir
// CPUMLIR: llvm.func @__respec_launch._Z6squarePi(
// CPUMLIR-NOT: respec.barrier
// CPUMLIR-NOT: omp.
// CPUMLIR: respec.parallel_level = "grid"}
// RUN: FileCheck %s --check-prefix=CPU < %t.dir/keep.cpu.ll
// CPU-NOT: target triple = "nvptx
// CPU-DAG: define {{.*}}@__respec_launch._Z6squarePi(
// CPU-DAG: @__respec_module_table
// CPU-DAG: define {{.*}}i32 @main(
// The device code before LLVM's optimizations: the thread loop, still a
// loop with respec's loop metadata, not yet inlined into anything.
// RUN: FileCheck %s --check-prefix=UNOPT < %t.dir/keep.cpu-unoptimized.ll
// UNOPT-NOT: target triple = "nvptx
// UNOPT: define {{.*}}@__respec_launch._Z6squarePi(
// UNOPT: !llvm.loop
// UNOPT-NOT: define {{.*}}i32 @main(
// Without --keep, nothing but the object is written.
// RUN: rm -rf %t.dir2 && mkdir -p %t.dir2
// RUN: %respec -c %s -o %t.dir2/keep.o
// RUN: ls %t.dir2 | count 1

#include <cuda_runtime.h>

__global__ void square(int *x) { x[threadIdx.x] *= x[threadIdx.x]; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  square<<<1, 32>>>(d);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

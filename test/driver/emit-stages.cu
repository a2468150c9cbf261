// --emit stops after a stage and writes the device code.
// RUN: %respec --emit=mlir %s -o - | FileCheck %s --check-prefix=MLIR
// RUN: %respec --emit=parallel-ir %s -o - | FileCheck %s --check-prefix=PIR
// RUN: %respec --emit=llvm %s -o - | FileCheck %s --check-prefix=LLVM

// The imported device module: NVVM special registers, NVPTX address spaces.
// MLIR: llvm.mlir.global internal {{.*}}@_ZZ5stagePfiE4tile() {addr_space = 3 : i32
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @_Z5stagePfi(
// MLIR-DAG: nvvm.read.ptx.sreg.ctaid.x : i32
// MLIR-DAG: nvvm.read.ptx.sreg.ntid.x : i32
// MLIR-DAG: nvvm.read.ptx.sreg.tid.x : i32
// MLIR: llvm.call {{.*}}@__nv_sinf(

// The parallel IR: launch function with a grid loop around a block loop.
// PIR-LABEL: llvm.func internal {{.*}}@__respec_thread._Z5stagePfi(
// PIR-NOT: nvvm.read.ptx.sreg
// PIR-LABEL: llvm.func @__respec_launch._Z5stagePfi(
// PIR-SAME: respec.kernel_name = "_Z5stagePfi"
// PIR-SAME: respec.static_shared_bytes = 16
// PIR: scf.parallel
// PIR: llvm.call @__respec_shared_memory
// PIR: scf.parallel
// PIR: llvm.call @__respec_thread._Z5stagePfi(
// PIR: } {respec.parallel_level = "block"}
// PIR: } {respec.parallel_level = "grid"}

// The device LLVM IR as clang produced it: NVPTX triple, ptx_kernel,
// special-register intrinsics, the shared array in addrspace(3).
// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: @_ZZ5stagePfiE4tile = internal {{.*}}addrspace(3) global [4 x float]
// LLVM: define {{.*}}ptx_kernel void @_Z5stagePfi(
// LLVM: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// LLVM: call {{.*}}i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVM: call {{.*}}float @__nv_sinf(

// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec --emit=parallel-ir %s -o %t.dir/out.mlir
// RUN: FileCheck %s --check-prefix=PIR < %t.dir/out.mlir
// --emit takes one CUDA source.
// RUN: not %respec --emit=mlir %s %s -o %t.dir/two.mlir 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: respec: error:

#include <cuda_runtime.h>

__global__ void stage(float *x, int n) {
  __shared__ float tile[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[i % 4] = sinf(x[i]);
    x[i] = tile[(i + 1) % 4];
  }
}

int main() {
  float *d;
  cudaMalloc(&d, 64 * sizeof(float));
  stage<<<2, 32>>>(d, 64);
  return 0;
}

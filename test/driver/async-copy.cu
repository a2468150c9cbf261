// cp.async for the CPU: a shared pointer converted to a shared-window
// address (__cvta_generic_to_shared, as the pipeline primitives do) is its
// distance from the block's shared memory (__respec_shared_window, which
// raising replaces by the block's allocation); the copy is a memcpy at once,
// with a memset for the bytes past src-size; commit and wait leave nothing
// behind. __isShared/__isGlobal ask the runtime.
// REQUIRES: cuda-toolkit
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// RUN: %respec --emit=parallel-ir %s -o - | FileCheck %s --check-prefix=PAR

#include <cuda_pipeline.h>

// CHECK-LABEL: define {{.*}}@_Z8copyTilePKfPf(
// CHECK: %[[WINDOW:.*]] = call ptr @__respec_shared_window()
// CHECK: %[[BASE:.*]] = ptrtoint ptr %[[WINDOW]] to i64
// CHECK: %[[OFFSET:.*]] = sub i64 %{{.*}}, %[[BASE]]
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %{{.*}}, ptr align 4 %{{.*}}, i64 4, i1 false)
// CHECK: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %[[ZEROED:.*]], ptr align 4 %{{.*}}, i64 0, i1 false)
// CHECK: call void @llvm.memset.p0.i64(ptr align 1 %[[ZEROED]], i8 0, i64 4, i1 false)
// CHECK-NOT: asm
// CHECK: call i32 @__respec_address_space(ptr %{{.*}})
// CHECK: ret void

// PAR-NOT: __respec_shared_window
// PAR: llvm.func @__respec_launch._Z8copyTilePKfPf(
// PAR-NOT: __respec_shared_window
__global__ void copyTile(const float *in, float *out) {
  __shared__ float tile[64];
  // The last thread copies nothing: its element is zero-filled.
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], 4,
                          threadIdx.x == 63 ? 4 : 0);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x] + __isGlobal(in);
}

// Texture and surface accesses for the CPU: clang's headers implement them
// as inline PTX (tex, suld, sust), which respec translates into calls of
// the runtime's entry points (abi.h) with the coordinates in the order the
// geometry gives them (x, y, z, layer); tex1Dfetch reads linear textures of
// 32-bit channels through the texture's header, the runtime only for other
// textures. --target=nvptx keeps the PTX.
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// RUN: %respec --target=nvptx --emit=llvm %s -o - | FileCheck %s --check-prefix=GPU

#include <cuda_runtime.h>

// CHECK-LABEL: define {{.*}}@_Z5fetchyPf(i64
// CHECK: load i32, {{.*}}!invariant.load
// CHECK: call <4 x i32> @__respec_tex_fetch(i64 %0, i32 %{{.*}}, i32 0, i32 0, i32 0)
// GPU: tex.1d.v4.f32.s32
__global__ void fetch(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}

// CHECK-LABEL: define {{.*}}@_Z6sampleyP6float4(
// CHECK: call <4 x i32> @__respec_tex_sample(i64 %0, float %{{.*}}, float 1.500000e+00, float 0.000000e+00, i32 0)
// GPU: tex.2d.v4.f32.f32
__global__ void sample(cudaTextureObject_t t, float4 *out) {
  out[threadIdx.x] = tex2D<float4>(t, threadIdx.x + 0.5f, 1.5f);
}

// The layer comes first in PTX's a2d coordinates.
// CHECK-LABEL: define {{.*}}@_Z7layeredyPfi(
// CHECK: call <4 x i32> @__respec_tex_sample(i64 %0, float %{{.*}}, float 2.000000e+00, float 0.000000e+00, i32 %2)
// GPU: tex.a2d.v4.f32.f32
__global__ void layered(cudaTextureObject_t t, float *out, int layer) {
  out[threadIdx.x] = tex2DLayered<float>(t, threadIdx.x, 2.0f, layer);
}

// Two bytes at x bytes, with the clamp (1) and zero (2) boundary modes.
// CHECK-LABEL: define {{.*}}@_Z7surfaceyi(
// CHECK: call <4 x i32> @__respec_surf_load(i64 %0, i32 %{{.*}}, i32 %1, i32 0, i32 0, i32 2, i32 1)
// CHECK: call void @__respec_surf_store(i64 %0, i32 %{{.*}}, i32 %{{.*}}, i32 0, i32 0, i32 2, i32 2, <4 x i32>
// GPU: suld.b.2d.v2.b8.clamp
// GPU: sust.b.2d.v2.b8.zero
__global__ void surface(cudaSurfaceObject_t s, int y) {
  uchar2 v = surf2Dread<uchar2>(s, threadIdx.x * 2, y, cudaBoundaryModeClamp);
  surf2Dwrite(make_uchar2(v.y, v.x), s, threadIdx.x * 2, y + 1,
              cudaBoundaryModeZero);
}

// CHECK: declare <4 x i32> @__respec_tex_fetch(i64, i32, i32, i32, i32) [[READ:#[0-9]+]]
// CHECK: attributes [[READ]] = { {{.*}}memory(read){{.*}} }

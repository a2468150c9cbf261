// CUDA 11's texture references for NVIDIA GPUs: PTX has no .texref any
// more that CUDA 12 and later bind, so each texture<> variable is a 64-bit
// global holding a texture object, and fetches read through it like
// texture-object fetches. cudaBindTexture creates the object with the
// driver from the reference's settings (read mode included) and stores it
// in the variable.
//
// REQUIRES: cuda-toolkit, ptxas, fake-cuda-driver
// RUN: %respec --target=nvptx %s -o %t
// RUN: %respec --target=nvptx --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// RUN: rm -f %t.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.log %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.log
// PTX-NOT: .texref
// PTX-DAG: .global .align 8 .u64 bytes;
// PTX-DAG: .global .align 8 .u64 values;
// PTX: ld.global.{{[bu]}}64 %rd{{[0-9]+}}, [values];
// PTX: tex.1d.v4.f32.s32 {{.*}}[%rd{{[0-9]+}}, {
// OUT: bound
// CHECK: texture [[VALUES:[0-9]+]] linear format=0x20 channels=1 bytes=256 address=1,1,1 filter=0 flags=0x0
// CHECK: texture {{[0-9]+}} linear format=0x1 channels=1 bytes=64 address=1,1,1 filter=0 flags=0x0
// CHECK: launch _Z4readPfi grid=1,1,1 block=64,1,1
// CHECK: destroy texture [[VALUES]]

#include <cstdio>

texture<float, 1, cudaReadModeElementType> values;
texture<unsigned char, 1, cudaReadModeNormalizedFloat> bytes;

__global__ void read(float *out, int n) {
  int i = threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch(values, i) + tex1Dfetch(bytes, i);
}

int main() {
  float *data, *out;
  unsigned char *small;
  cudaMalloc(&data, 64 * sizeof(float));
  cudaMalloc(&small, 64);
  cudaMalloc(&out, 64 * sizeof(float));
  if (cudaBindTexture(nullptr, values, data, 64 * sizeof(float)) ||
      cudaBindTexture(nullptr, bytes, small, 64))
    return 1;
  printf("bound\n");
  read<<<1, 64>>>(out, 64);
  cudaUnbindTexture(values);
  return cudaDeviceSynchronize() != cudaSuccess;
}

// Kernel parameters passed by value as structs reach a GPU kernel as the
// struct itself, in PTX's parameter space, and the host hands the driver the
// address of the launch's copy of the struct, whose bytes the driver copies.
// Before 0.11.0 the kernel received the host's address of the struct and
// read host memory on the GPU: an illegal address, or, where the GPU can
// reach host memory, whatever the host's stack held when the kernel ran
// (found on an H200: hotspot's coefficients, silently wrong results).
//
// REQUIRES: cuda-toolkit, ptxas, fake-cuda-driver
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx --check-prefix=PTX
// RUN: %respec --target=nvptx %s -o %t
// RUN: rm -f %t.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.log %t
// RUN: FileCheck %s --input-file %t.log --check-prefix=LOG
//
// The struct is a parameter of its own size and alignment; the kernel loads
// its fields from the parameter space, also through an index that depends
// on the thread (an address inside the struct computed in the kernel).
// PTX-LABEL: .entry _Z5applyPf6Coeffsi(
// PTX-NOT: .entry
// PTX: .param .align 8 .b8 _Z5applyPf6Coeffsi_param_{{[0-9]+}}[16]
// PTX-LABEL: .entry _Z4pickPi5Tablei(
// PTX: .param .align 4 .b8 _Z4pickPi5Tablei_param_{{[0-9]+}}[32]
// PTX: ld.param.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}
//
// The driver receives the struct's bytes: 7, 2.0f, 1.0 (little endian), and
// the table 10, 11, ..., 17.
// LOG: launch _Z5applyPf6Coeffsi grid=1,1,1 block=64,1,1 shared=0 params={{.*}}0700000000000040000000000000f03f
// LOG: launch _Z4pickPi5Tablei grid=1,1,1 block=64,1,1 shared=0 params={{.*}}0a0000000b0000000c0000000d0000000e0000000f0000001000000011000000

#include <cuda_runtime.h>

struct Coeffs {
  int shift;
  float scale;
  double offset;
};

struct Table {
  int v[8];
};

__global__ void apply(float *x, Coeffs c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = c.scale * x[i] + float(c.offset) + float(i >> c.shift);
}

__global__ void pick(int *out, Table t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = t.v[i % 8];
}

int main() {
  float *x;
  int *out;
  cudaMalloc(&x, 64 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(int));
  apply<<<1, 64>>>(x, Coeffs{7, 2.0f, 1.0}, 64);
  Table t;
  for (int k = 0; k < 8; ++k)
    t.v[k] = 10 + k;
  pick<<<1, 64>>>(out, t, 64);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(out);
  return 0;
}

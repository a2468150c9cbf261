// A program built for NVIDIA GPUs: the kernels go into the executable as
// PTX, the host launches them through the runtime's CUDA driver back end.
// Without a GPU the program runs against the test double of the driver
// (libfakecuda.so), which records each kernel launch: name, geometry,
// dynamic shared memory and the bytes of each parameter. The kernels
// themselves cannot run there, so this test checks what the host passes.
//
// REQUIRES: cuda-toolkit, ptxas, fake-cuda-driver
// RUN: %respec --target=nvptx %s -o %t
// RUN: rm -f %t.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.log %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.log --check-prefix=LOG
//
// The program carries ptxas' cubin for sm_80 and the PTX: the double
// refuses the cubin (as a GPU of another architecture would) and the
// runtime falls back to the PTX. The kernel names are PTX entries; a float
// 2.0 is 00000040, n = 1000 is e8030000 (little endian); the dynamic shared
// memory is the launch's.
// LOG: cubin refused
// LOG-NEXT: launch _Z5scalePffi grid=4,1,1 block=256,1,1 shared=0 params={{.*}},00000040,e8030000,{{.*}}
// LOG-NEXT: launch _Z7reversePfPKfi grid=8,1,1 block=128,1,1 shared=512 params=
// LOG-NEXT: launch _Z5scalePffi grid=1,1,1 block=32,1,1 shared=0 params={{.*}},0000803f,07000000,{{.*}}
// LOG-NOT: launch
//
// OUT: symbol round trip: 1 2 3 4
// OUT: copy round trip: ok
// OUT: synchronize: no error
// OUT: bad launch: invalid configuration argument
//
// `__constant__` variables live in PTX's constant space and kernels load
// them (the host writes them after loading the module; before 0.9.0 their
// zero initializer was folded into the kernels).
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --input-file %t.ptx --check-prefix=CONST
// CONST: .visible .const .align 4 .b8 bias[16];
// CONST-LABEL: .entry _Z5scalePffi(
// CONST: ld.const.b32 [[BIAS:%r[0-9]+]]
// CONST: fma.rn.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, [[BIAS]];
//
// Block coarsening by 3: each launch runs the coarsened kernel on whole
// groups of 3 blocks (each with 3 blocks' shared memory) and the epilogue
// kernel on the remaining blocks; a part without blocks is not launched
// (scale<<<1, 32>>> has no group of 3).
// RUN: %respec --target=nvptx --coarsen=block=3 %s -o %t.coarse
// RUN: rm -f %t.coarse.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.coarse.log %t.coarse | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.coarse.log --check-prefix=COARSE
// COARSE: launch _Z5scalePffi grid=1,1,1 block=256,1,1 shared=0 params=
// COARSE-NEXT: launch _Z5scalePffi_respec1 grid=1,1,1 block=256,1,1 shared=0 params=
// COARSE-NEXT: launch _Z7reversePfPKfi grid=2,1,1 block=128,1,1 shared=1536 params=
// COARSE-NEXT: launch _Z7reversePfPKfi_respec1 grid=2,1,1 block=128,1,1 shared=512 params=
// COARSE-NEXT: launch _Z5scalePffi_respec1 grid=1,1,1 block=32,1,1 shared=0 params=
// COARSE-NOT: launch
//
// Without a driver the program gets CUDA's error and respec says why.
// RUN: env RESPEC_CUDA_DRIVER=%t.no-such-driver.so not %t 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER-DAG: respec: this program was built for NVIDIA GPUs (--target=nvptx) but the CUDA driver ({{.*}}no-such-driver.so) could not be loaded
// NODRIVER-DAG: cudaMalloc: driver version is insufficient for the runtime version
//
// A driver that sees no GPU: cudaErrorNoDevice.
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_DEVICES=0 not %t 2>&1 | FileCheck %s --check-prefix=NODEVICE
// NODEVICE-DAG: respec: this program was built for NVIDIA GPUs (--target=nvptx) but the CUDA driver found no NVIDIA GPU
// NODEVICE-DAG: cudaMalloc: no CUDA-capable device is detected

#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__constant__ float bias[4];

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = a * x[i] + bias[i % 4];
}

__global__ void reverse(float *out, const float *in, int n) {
  extern __shared__ float tile[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  tile[t] = base + t < n ? in[base + t] : 0.0f;
  __syncthreads();
  if (base + t < n)
    out[base + t] = tile[blockDim.x - 1 - t];
}

int main() {
  const int n = 1000;
  float *d = nullptr;
  cudaError_t status = cudaMalloc(&d, n * sizeof(float));
  if (status != cudaSuccess) {
    std::printf("cudaMalloc: %s\n", cudaGetErrorString(status));
    return 1;
  }
  float host[4] = {1, 2, 3, 4}, back[4] = {};
  cudaMemcpyToSymbol(bias, host, sizeof host);
  cudaMemcpyFromSymbol(back, bias, sizeof back);
  std::printf("symbol round trip: %g %g %g %g\n", back[0], back[1], back[2],
              back[3]);

  static float values[n], copy[n];
  for (int i = 0; i < n; ++i)
    values[i] = float(i);
  cudaMemcpy(d, values, sizeof values, cudaMemcpyHostToDevice);
  cudaMemcpy(copy, d, sizeof copy, cudaMemcpyDeviceToHost);
  std::printf("copy round trip: %s\n",
              std::memcmp(values, copy, sizeof copy) == 0 ? "ok" : "wrong");

  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  reverse<<<(n + 127) / 128, 128, 128 * sizeof(float)>>>(d, d, n);
  scale<<<1, 32>>>(d, 1.0f, 7);
  std::printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  scale<<<1, 2048>>>(d, 1.0f, n);
  std::printf("bad launch: %s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d);
  return 0;
}

// Kernel versions in a program built for NVIDIA GPUs, run against the test
// double of the CUDA driver (see gpu-program.cu).
//
// REQUIRES: cuda-toolkit, fake-cuda-driver
//
// --tune=profile: launches of one kernel with one geometry cycle through
// the versions (block and thread coarsening: thread=2 halves the block,
// block=2 halves the grid; an epilogue without blocks is not launched).
// The first launch only warms up; the other four (v1, v2, v0, v1) are timed
// (the clock waits for the launch's stream) and recorded under the GPU's
// name.
// RUN: %respec --target=nvptx --tune=profile --tune-candidates="block=1,thread=1;block=2,thread=1;block=1,thread=2" %s -o %t.profile
// RUN: rm -f %t.log %t.db
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.log RESPEC_TUNING_DB=%t.db %t.profile | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.log --check-prefix=PROFILE
// RUN: FileCheck %s --input-file %t.db --check-prefix=DB
// OUT: synchronize: no error
// PROFILE: launch _Z4axpyPfPKffi_v0 grid=256,1,1 block=256,1,1
// PROFILE-NEXT: launch _Z4axpyPfPKffi_v1 grid=128,1,1 block=256,1,1
// PROFILE-NEXT: launch _Z4axpyPfPKffi_v2 grid=256,1,1 block=128,1,1
// PROFILE-NEXT: launch _Z4axpyPfPKffi_v0 grid=256,1,1 block=256,1,1
// DB-DAG: gpu:respec fake GPU{{	}}_Z4axpyPfPKffi{{	}}256,1,1,256,1,1{{	}}block=1,thread=1{{	}}1{{	}}
// DB-DAG: gpu:respec fake GPU{{	}}_Z4axpyPfPKffi{{	}}256,1,1,256,1,1{{	}}block=2,thread=1{{	}}2{{	}}
// DB-DAG: gpu:respec fake GPU{{	}}_Z4axpyPfPKffi{{	}}256,1,1,256,1,1{{	}}block=1,thread=2{{	}}1{{	}}
//
// --tune=use: one version per kernel, the fastest in the database, which
// keeps the CUDA name when it is the only one. The database below makes
// block=2 the winner.
// RUN: printf 'gpu:any GPU\t_Z4axpyPfPKffi\t256,1,1,256,1,1\tblock=1,thread=1\t3\t3000\ngpu:any GPU\t_Z4axpyPfPKffi\t256,1,1,256,1,1\tblock=2,thread=1\t3\t1500\ncpu:host\t_Z4axpyPfPKffi\t256,1,1,256,1,1\tblock=1,thread=2\t3\t10\n' > %t.use.db
// RUN: %respec --target=nvptx --tune=use=%t.use.db %s -o %t.use
// RUN: rm -f %t.use.log
// RUN: env RESPEC_CUDA_DRIVER=%fakecuda RESPEC_FAKE_CUDA_LOG=%t.use.log %t.use | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file %t.use.log --check-prefix=USE
// USE: launch _Z4axpyPfPKffi grid=128,1,1 block=256,1,1
// USE-NOT: block=1,thread=2
// USE-NOT: grid=256

#include <cstdio>
#include <cuda_runtime.h>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[i];
}

int main() {
  const int n = 1 << 16;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  for (int r = 0; r < 5; ++r)
    axpy<<<n / 256, 256>>>(y, x, 2.0f, n);
  std::printf("synchronize: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}

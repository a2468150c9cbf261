// REQUIRES: ptxas
// --tune=auto for NVIDIA GPUs: every kernel is built in several coarsened
// versions (PTX entries <kernel>_v<k>), ptxas reports each one's
// resources, and versions that cannot be good on the chosen GPU are
// dropped before the PTX is written. Here the block uses 100 KB of shared
// memory: the uncoarsened version fits an A100 block (at most 163 KB with
// the opt-in), block coarsening by 2 or more does not.
//
// RUN: %respec --target=nvptx --tune=auto --tune-candidates="block=1;block=2;block=4;thread=2" --emit=ptx --resource-usage %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: not %respec --target=nvptx --tune=profile --emit=ptx %s -o %t.x 2>&1 | FileCheck %s --check-prefix=PROFILE

// CHECK: respec: kernel versions for sm_80 (A100), occupancy with 256-thread blocks:
// CHECK-DAG: _Z5stagePfi block=1,thread=1: {{[0-9]+}} registers, 0 bytes spilled, 102400 bytes shared, occupancy {{[0-9.]+}}: kept
// CHECK-DAG: _Z5stagePfi block=2,thread=1: {{.*}} 204800 bytes shared, {{.*}}: pruned (shared memory over the device's {{[0-9]+}} bytes per block)
// CHECK-DAG: _Z5stagePfi block=4,thread=1: {{.*}}: pruned (shared memory over
// CHECK-DAG: _Z5stagePfi block=1,thread=2: {{.*}} 102400 bytes shared

// PTX-DAG: .entry _Z5stagePfi_v0(
// PTX-DAG: .entry _Z5stagePfi_v3(
// PTX-NOT: _v1(
// PTX-NOT: _v2(

// PROFILE: respec: error: --tune=profile with --emit=ptx has no program to time the versions

__global__ void stage(float *data, int n) {
  __shared__ float buffer[25600];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = threadIdx.x; k < 25600; k += blockDim.x)
    buffer[k] = i < n ? data[i] * k : 0.0f;
  __syncthreads();
  if (i < n)
    data[i] = buffer[(threadIdx.x * 7) % 25600];
}

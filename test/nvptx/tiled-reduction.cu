// REQUIRES: ptxas
// The NVPTX back end turns each kernel's grid loop into a PTX entry with
// the kernel's CUDA name: block and thread ids from %ctaid / %tid, the block
// barrier as bar.sync, __syncthreads_count as bar.red.popc, the
// __shared__ array as a .shared variable (accessed with shared-space
// instructions after LLVM infers the address space), and libdevice's
// expf linked in. ptxas accepts it for sm_80 and sm_90 and reports the
// kernel's resources.
//
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %respec --target=nvptx -arch=sm_90 --emit=ptx %s -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: %respec --target=nvptx --gpu-arch=sm_90 --emit=cubin --resource-usage %s -o %t.cubin 2>&1 | FileCheck %s --check-prefix=RES
// RUN: test -s %t.cubin

// PTX: .target sm_80
// PTX: .visible .entry _Z9blockSumsPKfPfPii(
// PTX-DAG: %ctaid.x
// PTX-DAG: %tid.x
// PTX-DAG: .shared .align 64 .b8 __respec_shared__Z9blockSumsPKfPfPii[1024]
// PTX-DAG: st.shared.{{[bf]}}32
// PTX-DAG: bar.sync
// PTX-DAG: bar.red.popc.u32
// PTX-DAG: ex2.approx

// SM90: .target sm_90

// RES: Compiling entry function '_Z9blockSumsPKfPfPii' for 'sm_90'
// RES: spill stores
// RES: Used {{[0-9]+}} registers, used 1 barriers, 1024 bytes smem

__global__ void blockSums(const float *in, float *sums, int *positives,
                          int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? expf(in[i]) : 0.0f;
  tile[threadIdx.x] = v;
  int count = __syncthreads_count(v > 1.0f);
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      tile[threadIdx.x] += tile[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = tile[0];
    positives[blockIdx.x] = count;
  }
}

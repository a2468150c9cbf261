// REQUIRES: ptxas
// Coarsening on the GPU. Thread coarsening's run-time choice (does 2 divide
// blockDim.x?) is made on the host: the grid loop is unswitched into a
// coarsened kernel, which keeps the CUDA name, and the original one
// (_respec1). Block coarsening by 3 gives each coarsened block three
// blocks' shared memory (3 x 1 KiB, static) and adds epilogue kernels for
// the remainder blocks, which keep 1 KiB.
//
// RUN: %respec --target=nvptx --coarsen=thread=2 --emit=ptx %s -o %t.t.ptx
// RUN: FileCheck %s --check-prefix=THREAD < %t.t.ptx
// RUN: %respec --target=nvptx --coarsen-kernel=scale:block=3 --emit=cubin --resource-usage %s -o %t.cubin 2>&1 | FileCheck %s --check-prefix=BLOCK

// THREAD: .entry _Z5scalePfi(
// THREAD: .entry _Z5scalePfi_respec1(
// THREAD-NOT: .entry

// BLOCK-DAG: Compiling entry function '_Z5scalePfi' for 'sm_80'
// BLOCK-DAG: used 1 barriers, 3072 bytes smem
// BLOCK-DAG: Compiling entry function '_Z5scalePfi_respec1' for 'sm_80'
// BLOCK-DAG: used 1 barriers, 1024 bytes smem

__global__ void scale(float *data, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? data[i] : 0.0f;
  __syncthreads();
  float neighbour = tile[(threadIdx.x + 1) % blockDim.x];
  if (i < n)
    data[i] = 0.5f * (tile[threadIdx.x] + neighbour);
}

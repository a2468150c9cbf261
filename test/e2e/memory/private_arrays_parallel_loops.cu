// Per-thread local arrays and the thread loops respec declares parallel
// (LLVM parallel-loop metadata). On the CPU a thread's local array can be
// one stack slot reused by every thread of the block; its accesses must
// not be treated as independent between threads, or a vectorized thread
// loop reads another lane's table. (1) A barrier-free kernel whose thread
// function (inlined by LLVM) fills a table and reads it at a data-dependent
// index: with every access declared parallel this failed (out[0] = 15)
// until DropPrivateAccessGroupsPass took the table's accesses out; now
// the loop is not declared parallel at all, its call taking the thread
// index. (2) The same with the table's address in a pointer chosen at run
// time. (3) A kernel with a barrier whose table is filled and read at an
// index the same for all threads (barrier lowering gives each thread its
// own slice). (4) A table used on one side of a barrier at a
// data-dependent index. (5) Coarsened blocks, whose thread loops touch
// many arrays.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec -O3 --disable-opt=parallel-accesses %s -o %t.nopar && %t.nopar | FileCheck %s
// RUN: %respec -O3 --coarsen=block=4,thread=2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

__global__ void tableLookup(const int *select, float *out, int n) {
  float table[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i)
    table[i] = (float)(t * (i + 1));
  if (t < n)
    out[t] = table[select[t] & 7];
}

__global__ void tableThroughPointer(const int *select, float *out, int n) {
  float even[8], odd[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i) {
    even[i] = (float)(t + i);
    odd[i] = (float)(t - i);
  }
  float *table = (select[t < n ? t : 0] & 8) ? odd : even;
  if (t < n)
    out[t] = table[select[t] & 7];
}

__global__ void tableUniformIndex(int pick, float *out, int n) {
  __shared__ float picked[128];
  float table[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i)
    table[i] = (float)(t * (i + 1));
  picked[threadIdx.x] = table[pick & 7];
  __syncthreads();
  if (t < n)
    out[t] = picked[threadIdx.x];
}

__global__ void tableBeforeBarrier(const int *select, float *out, int n) {
  __shared__ float picked[128];
  float table[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < 8; ++i)
    table[i] = (float)(3 * t + i);
  picked[threadIdx.x] = t < n ? table[select[t] & 7] : 0.0f;
  __syncthreads();
  if (t < n)
    out[t] = picked[(threadIdx.x + 1) % blockDim.x];
}

static bool check(const char *name, const float *got, const float *want,
                  int n) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      printf("%s: out[%d] = %g, expected %g\n", name, i, got[i], want[i]);
      return false;
    }
  return true;
}

int main() {
  const int n = 1000, block = 128, grid = (n + block - 1) / block;
  int *select;
  float *out;
  cudaMallocManaged(&select, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    select[i] = (i * 7 + i / 3) & 15;
  static float want[n];
  bool ok = true;

  tableLookup<<<grid, block>>>(select, out, n);
  cudaDeviceSynchronize();
  for (int t = 0; t < n; ++t)
    want[t] = (float)(t * ((select[t] & 7) + 1));
  ok &= check("tableLookup", out, want, n);

  tableThroughPointer<<<grid, block>>>(select, out, n);
  cudaDeviceSynchronize();
  for (int t = 0; t < n; ++t) {
    int i = select[t] & 7;
    want[t] = (select[t] & 8) ? (float)(t - i) : (float)(t + i);
  }
  ok &= check("tableThroughPointer", out, want, n);

  for (int pick = 2; pick < 4; ++pick) {
    tableUniformIndex<<<grid, block>>>(pick, out, n);
    cudaDeviceSynchronize();
    for (int t = 0; t < n; ++t)
      want[t] = (float)(t * (pick + 1));
    ok &= check("tableUniformIndex", out, want, n);
  }

  tableBeforeBarrier<<<grid, block>>>(select, out, n);
  cudaDeviceSynchronize();
  for (int t = 0; t < n; ++t) {
    int base = t / block * block, next = base + (t - base + 1) % block;
    want[t] = next < n ? (float)(3 * next + (select[next] & 7)) : 0.0f;
  }
  ok &= check("tableBeforeBarrier", out, want, n);

  cudaFree(select);
  cudaFree(out);
  printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}

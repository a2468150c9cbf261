// Inline PTX that CCCL's CUB and Thrust kernels use: exit (CUB's
// ThreadExit), bmsk and prefetch. Checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: exit PASSED
// CHECK: bmsk PASSED

#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ void threadExit() { asm volatile("exit;"); }

// Threads past `n` leave early through `exit`; the others write after a
// prefetch of their element.
__global__ void exitEarly(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    threadExit();
  asm volatile("prefetch.global.L2 [%0];" : : "l"(out + i) : "memory");
  out[i] = 3 * i;
}

__global__ void masks(const unsigned *a, const unsigned *b, unsigned *clamp,
                      unsigned *wrap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned c, w;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(c) : "r"(a[i]), "r"(b[i]));
  asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(w) : "r"(a[i]), "r"(b[i]));
  clamp[i] = c;
  wrap[i] = w;
}

static unsigned hostMask(unsigned a, unsigned b, bool wrap) {
  if (wrap) {
    a &= 31;
    b &= 31;
  } else {
    a = a < 32 ? a : 32;
    b = b < 32 ? b : 32;
  }
  unsigned long long ones = (1ull << b) - 1;
  return (unsigned)(ones << a);
}

int main() {
  const int n = 1000, cap = 1024;
  int *out;
  cudaMalloc(&out, cap * sizeof(int));
  cudaMemset(out, 0xff, cap * sizeof(int));
  exitEarly<<<cap / 128, 128>>>(out, n);
  int host[cap];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < cap; ++i)
    ok &= host[i] == (i < n ? 3 * i : -1);
  printf("exit %s\n", ok ? "PASSED" : "FAILED");

  unsigned ha[n], hb[n], hc[n], hw[n];
  for (int i = 0; i < n; ++i) {
    ha[i] = (i * 7) % 40;
    hb[i] = (i * 13) % 45;
  }
  unsigned *da, *db, *dc, *dw;
  cudaMalloc(&da, sizeof ha);
  cudaMalloc(&db, sizeof hb);
  cudaMalloc(&dc, sizeof hc);
  cudaMalloc(&dw, sizeof hw);
  cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
  masks<<<(n + 127) / 128, 128>>>(da, db, dc, dw, n);
  cudaMemcpy(hc, dc, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost);
  bool masksOk = true;
  for (int i = 0; i < n; ++i)
    masksOk &= hc[i] == hostMask(ha[i], hb[i], false) &&
               hw[i] == hostMask(ha[i], hb[i], true);
  printf("bmsk %s\n", masksOk ? "PASSED" : "FAILED");

  return ok && masksOk ? 0 : 1;
}

// Atomics on __shared__ memory, which the CPU back end turns into plain
// loads and stores (one OS thread runs a whole block): every kind of
// atomic, a compare-and-swap loop (float maximum), atomicInc (kept atomic),
// returned old values (a ticket per thread) and a shared pointer chosen at
// run time. Each block's results are checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=shared-atomics %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O1 --coarsen=block=2,thread=2 %s -o %t.c && %t.c | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define BLOCK 96
#define BLOCKS 7
#define RESULTS 12

__device__ float atomicMaxFloat(float *address, float value) {
  int *bits = reinterpret_cast<int *>(address);
  int old = *bits, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value)
      break;
    old = atomicCAS(bits, assumed, __float_as_int(value));
  } while (old != assumed);
  return __int_as_float(old);
}

__global__ void sharedAtomics(const int *in, int *out, int *tickets,
                              float *fmax) {
  __shared__ int s[RESULTS];
  __shared__ unsigned u[4];
  __shared__ float f[2];
  __shared__ int spare[2];
  int t = threadIdx.x;
  if (t < RESULTS)
    s[t] = t == 2 ? 1 << 30 : (t == 3 ? -(1 << 30) : (t == 4 ? -1 : 0));
  if (t < 4)
    u[t] = t == 0 ? 0xFFFFFFFFu : 0u;
  if (t < 2) {
    f[t] = t == 0 ? 0.0f : -1e30f;
    spare[t] = 0;
  }
  __syncthreads();
  int v = in[blockIdx.x * BLOCK + t];
  tickets[blockIdx.x * BLOCK + t] = atomicAdd(&s[0], 1);
  atomicSub(&s[1], v);
  atomicMin(&s[2], v);
  atomicMax(&s[3], v);
  atomicAnd(&s[4], ~(1 << (t % 31)));
  atomicOr(&s[5], 1 << (v & 15));
  atomicXor(&s[6], v);
  if (t == BLOCK / 2)
    atomicExch(&s[7], v);
  atomicMin(&u[0], (unsigned)v + 5u);
  atomicMax(&u[1], (unsigned)v);
  atomicInc(&u[2], 40u);
  atomicAdd(&f[0], (float)(v % 8));
  atomicMaxFloat(&f[1], (float)v * 0.5f);
  int *target = (v & 1) ? &spare[1] : &spare[0];
  atomicAdd(target, 1);
  __syncthreads();
  if (t == 0) {
    int *o = out + blockIdx.x * RESULTS;
    for (int k = 0; k < 8; ++k)
      o[k] = s[k];
    o[8] = (int)u[0];
    o[9] = (int)u[1];
    o[10] = (int)u[2];
    o[11] = spare[1] * 1000 + spare[0];
    fmax[2 * blockIdx.x] = f[0];
    fmax[2 * blockIdx.x + 1] = f[1];
  }
}

int main() {
  const int n = BLOCK * BLOCKS;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 7919 + 13) % 1000 - 300;
  int *dIn, *dOut, *dTickets;
  float *dF;
  cudaMalloc(&dIn, n * sizeof(int));
  cudaMalloc(&dOut, BLOCKS * RESULTS * sizeof(int));
  cudaMalloc(&dTickets, n * sizeof(int));
  cudaMalloc(&dF, 2 * BLOCKS * sizeof(float));
  cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  sharedAtomics<<<BLOCKS, BLOCK>>>(dIn, dOut, dTickets, dF);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED: launch\n");
    return 1;
  }
  std::vector<int> out(BLOCKS * RESULTS), tickets(n);
  std::vector<float> f(2 * BLOCKS);
  cudaMemcpy(out.data(), dOut, out.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(tickets.data(), dTickets, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(f.data(), dF, f.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int failures = 0;
  for (int b = 0; b < BLOCKS; ++b) {
    int expect[RESULTS] = {BLOCK, 0, 1 << 30, -(1 << 30), -1, 0, 0, 0};
    unsigned umin = 0xFFFFFFFFu, umax = 0, inc = 0;
    float sum = 0, fm = -1e30f;
    int odd = 0, even = 0;
    std::vector<bool> seen(BLOCK, false);
    for (int t = 0; t < BLOCK; ++t) {
      int v = in[b * BLOCK + t];
      expect[1] -= v;
      expect[2] = v < expect[2] ? v : expect[2];
      expect[3] = v > expect[3] ? v : expect[3];
      expect[4] &= ~(1 << (t % 31));
      expect[5] |= 1 << (v & 15);
      expect[6] ^= v;
      if (t == BLOCK / 2)
        expect[7] = v;
      umin = (unsigned)v + 5u < umin ? (unsigned)v + 5u : umin;
      umax = (unsigned)v > umax ? (unsigned)v : umax;
      inc = inc >= 40u ? 0u : inc + 1u;
      sum += (float)(v % 8);
      fm = (float)v * 0.5f > fm ? (float)v * 0.5f : fm;
      ((v & 1) ? odd : even) += 1;
      int ticket = tickets[b * BLOCK + t];
      if (ticket < 0 || ticket >= BLOCK || seen[ticket]) {
        printf("block %d thread %d: ticket %d repeated or out of range\n", b,
               t, ticket);
        ++failures;
      } else {
        seen[ticket] = true;
      }
    }
    expect[8] = (int)umin;
    expect[9] = (int)umax;
    expect[10] = (int)inc;
    expect[11] = odd * 1000 + even;
    for (int k = 0; k < RESULTS; ++k)
      if (out[b * RESULTS + k] != expect[k]) {
        printf("block %d result %d: %d, expected %d\n", b, k,
               out[b * RESULTS + k], expect[k]);
        ++failures;
      }
    // The float sum is exact: small integers.
    if (f[2 * b] != sum || f[2 * b + 1] != fm) {
      printf("block %d floats: %g %g, expected %g %g\n", b, f[2 * b],
             f[2 * b + 1], sum, fm);
      ++failures;
    }
  }
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dTickets);
  cudaFree(dF);
  if (failures) {
    printf("FAILED: %d mismatches\n", failures);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

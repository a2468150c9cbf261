// Common warp-level idioms of real CUDA code, checked against the host:
// a bitonic sort of the warp's 32 keys with __shfl_xor_sync; warp-aggregated
// atomics (a ballot elects a leader, which reserves space for the warp with
// one atomicAdd and broadcasts the base with __shfl_sync, each lane adding
// its rank among the voters: the __popc of the lower ballot bits); stream
// compaction inside the warp; an argmax (__reduce_max_sync, then a ballot
// of the lanes holding the maximum); and per-bit population counts
// (__popc of ballots). 4 blocks of 128 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define BLOCKS 4
#define THREADS 128
#define N (BLOCKS * THREADS)
#define NR 5

__global__ void idioms(const int *in, int *out, int *compact, int *counter) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, base = gid - lane;
  int v = in[gid];
  int *r = out + gid * NR;

  // Bitonic sort, ascending by lane.
  int x = v;
  for (int k = 2; k <= 32; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int partner = __shfl_xor_sync(FULL, x, j);
      bool ascending = (lane & k) == 0, lower = (lane & j) == 0;
      x = lower == ascending ? min(x, partner) : max(x, partner);
    }
  r[0] = x;

  // Warp-aggregated atomicAdd: a unique slot for each lane with v odd.
  int slot = -1;
  unsigned odd = __ballot_sync(FULL, v & 1);
  if (v & 1) {
    unsigned voters = __ballot_sync(odd, 1); // == odd
    int leader = __ffs(voters) - 1, first = 0;
    if (lane == leader)
      first = atomicAdd(counter, __popc(voters));
    first = __shfl_sync(voters, first, leader);
    slot = first + __popc(voters & ((1u << lane) - 1));
  }
  r[1] = slot;

  // Stream compaction of the values divisible by 3, in lane order.
  unsigned keep = __ballot_sync(FULL, v % 3 == 0);
  if (v % 3 == 0)
    compact[base + __popc(keep & ((1u << lane) - 1))] = v;
  r[2] = __popc(keep);

  // Argmax: the lowest lane holding the warp's maximum.
  int best = __reduce_max_sync(FULL, v);
  r[3] = __ffs(__ballot_sync(FULL, v == best)) - 1;

  // How many lanes have bit b set, for the low 4 bits, 8 bits per count.
  int packed = 0;
  for (int b = 0; b < 4; ++b)
    packed |= __popc(__ballot_sync(FULL, (v >> b) & 1)) << (8 * b);
  r[4] = packed;
}

int main() {
  static int h[N], out[N * NR], compact[N];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 7919 + 13) % 1009 - (i % 64 == 5 ? 2000 : 0);
  h[37] = h[45] = 5000; // a tie for the maximum of warp 1
  int *dIn, *dOut, *dCompact, *dCounter, counter = 0;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dCompact, sizeof compact);
  cudaMalloc(&dCounter, sizeof(int));
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(dCompact, 0xff, sizeof compact);
  cudaMemcpy(dCounter, &counter, sizeof(int), cudaMemcpyHostToDevice);
  idioms<<<BLOCKS, THREADS>>>(dIn, dOut, dCompact, dCounter);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(compact, dCompact, sizeof compact, cudaMemcpyDeviceToHost);
  cudaMemcpy(&counter, dCounter, sizeof(int), cudaMemcpyDeviceToHost);

  int errors = 0, odd = 0;
  static bool slotSeen[N];
  for (int base = 0; base < N; base += 32) {
    const int *v = h + base;
    int sorted[32];
    std::copy(v, v + 32, sorted);
    std::sort(sorted, sorted + 32);
    int kept = 0, best = v[0], arg = 0, warpFirstSlot = -1, rank = 0;
    for (int l = 0; l < 32; ++l) {
      kept += v[l] % 3 == 0;
      if (v[l] > best) {
        best = v[l];
        arg = l;
      }
    }
    int packed = 0;
    for (int b = 0; b < 4; ++b) {
      int c = 0;
      for (int l = 0; l < 32; ++l)
        c += (v[l] >> b) & 1;
      packed |= c << (8 * b);
    }
    int k = 0;
    for (int l = 0; l < 32; ++l) {
      const int *r = out + (base + l) * NR;
      int want[NR] = {sorted[l], -1, kept, arg, packed};
      bool check[NR] = {true, false, true, true, true};
      if (v[l] & 1) {
        ++odd;
        // Slots of a warp are consecutive, in lane order.
        if (warpFirstSlot < 0)
          warpFirstSlot = r[1];
        want[1] = warpFirstSlot + rank++;
        check[1] = true;
        if (r[1] >= 0 && r[1] < N) {
          if (slotSeen[r[1]] && ++errors <= 12)
            printf("slot %d given twice\n", r[1]);
          slotSeen[r[1]] = true;
        }
      } else {
        check[1] = true;
      }
      for (int c = 0; c < NR; ++c)
        if (check[c] && r[c] != want[c] && ++errors <= 12)
          printf("case %d thread %d: got %d, expected %d\n", c, base + l, r[c],
                 want[c]);
      if (v[l] % 3 == 0) {
        if (compact[base + k] != v[l] && ++errors <= 12)
          printf("compaction warp %d item %d: got %d, expected %d\n",
                 base / 32, k, compact[base + k], v[l]);
        ++k;
      }
    }
  }
  if (counter != odd && ++errors <= 12)
    printf("counter: got %d, expected %d\n", counter, odd);
  for (int s = 0; s < odd; ++s)
    if (!slotSeen[s] && ++errors <= 12)
      printf("slot %d never given\n", s);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

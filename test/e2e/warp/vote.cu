// Warp votes: __ballot_sync, __any_sync, __all_sync and __uni_sync for 11
// masks (full, one lane, halves, alternate lanes, irregular ones) times 7
// predicates (always, never, one lane, odd lanes, data-dependent, a
// non-zero value other than 1, and one that is true in the whole mask
// for some warps). Only the lanes of the mask execute the vote (a divergent
// branch inside a loop); a lane outside the mask keeps its old value. Then
// votes in both sides of an if/else with complementary masks, in a switch,
// a ballot used as the mask of a leader broadcast, and a loop whose
// condition is a vote. 3 blocks of 64 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define FULL 0xffffffffu
#define NMASK 11
#define NPRED 7
#define NEXTRA 9
#define PER (NMASK * NPRED * 4 + NEXTRA)
#define SENT 0x5eed
#define BLOCKS 3
#define THREADS 64
#define N (BLOCKS * THREADS)

static const unsigned hMasks[NMASK] = {
    0xffffffffu, 0x00000001u, 0x80000000u, 0x0000ffffu, 0xffff0000u, 0x55555555u,
    0xaaaaaaaau, 0x12345678u, 0x80000001u, 0xf0f0f0f0u, 0x7fffffffu};

__device__ __host__ int predicate(int p, int lane, int v, int m) {
  switch (p) {
  case 0: return 1;
  case 1: return 0;
  case 2: return lane == (m * 7 + 3) % 32;
  case 3: return lane & 1;
  case 4: return v % 3 == 0;
  case 5: return v & 0x40; // 0 or 64
  default: return v >= 1000;
  }
}

__global__ void votes(const int *in, const unsigned *masks, int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[gid];
  int *o = out + gid * PER;
  // One loop over (mask, predicate) pairs (a loop nest compiles much more
  // slowly with --disable-opt=all).
  for (int mp = 0; mp < NMASK * NPRED; ++mp) {
    int m = mp / NPRED, p = mp % NPRED;
    unsigned mask = masks[m];
    int *r = o + mp * 4;
    int b = SENT, any = SENT, all = SENT, uni = SENT;
    if (mask >> lane & 1) {
      int pred = predicate(p, lane, v, m);
      b = (int)__ballot_sync(mask, pred);
      any = __any_sync(mask, pred);
      all = __all_sync(mask, pred);
      uni = __uni_sync(mask, pred);
    }
    r[0] = b;
    r[1] = any;
    r[2] = all;
    r[3] = uni;
  }
  int *x = o + NMASK * NPRED * 4;
  // Complementary masks in the two sides of a branch.
  if (lane < 12) {
    x[0] = (int)__ballot_sync(0x00000fffu, v % 2);
    x[1] = __all_sync(0x00000fffu, v % 2);
  } else {
    x[0] = (int)__ballot_sync(0xfffff000u, v % 5 == 1);
    x[1] = __any_sync(0xfffff000u, v % 5 == 1);
  }
  // A switch: one vote per group of lanes.
  switch (lane % 4) {
  case 0: x[2] = (int)__ballot_sync(0x11111111u, v > 50); break;
  case 1: x[2] = __any_sync(0x22222222u, v > 95); break;
  case 2: x[2] = __all_sync(0x44444444u, v >= 0); break;
  default: x[2] = __uni_sync(0x88888888u, v > 50); break;
  }
  // A ballot as the mask of the next primitive: the lanes with the
  // predicate get the value of the first of them, and their rank.
  unsigned who = __ballot_sync(FULL, v % 4 == 1);
  x[3] = (int)who;
  x[4] = SENT;
  x[5] = SENT;
  if (v % 4 == 1) {
    x[4] = __shfl_sync(who, v, __ffs(who) - 1);
    x[5] = __popc(who & ((1u << lane) - 1));
  }
  // A loop whose trip count is a vote: every lane iterates as long as the
  // lane with the largest count.
  int left = v % 9, iterations = 0;
  while (__any_sync(FULL, left > 0)) {
    --left;
    ++iterations;
  }
  x[6] = iterations;
  // __all_sync as a loop condition, the lanes changing their predicates.
  int s = v % 7, rounds = 0;
  while (!__all_sync(FULL, s == 0)) {
    if (s > 0)
      --s;
    ++rounds;
  }
  x[7] = rounds;
  x[8] = (int)__ballot_sync(FULL, 0) + __popc(__ballot_sync(FULL, 1)) * 1000;
}

int main() {
  static int h[N], out[N * PER];
  for (int i = 0; i < N; ++i)
    h[i] = (i * 37 + 11) % 101;
  for (int i = 96; i < 128; ++i) // block 1, warp 1: predicate 6 true everywhere
    h[i] = 1000 + i;
  int *dIn, *dOut;
  unsigned *dMasks;
  cudaMalloc(&dIn, sizeof h);
  cudaMalloc(&dOut, sizeof out);
  cudaMalloc(&dMasks, sizeof hMasks);
  cudaMemcpy(dIn, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(dMasks, hMasks, sizeof hMasks, cudaMemcpyHostToDevice);
  votes<<<BLOCKS, THREADS>>>(dIn, dMasks, dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);

  int errors = 0;
  static const char *names[4] = {"ballot", "any", "all", "uni"};
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, base = gid - lane;
    const int *v = h + base, *o = out + gid * PER;
    for (int m = 0; m < NMASK; ++m) {
      unsigned mask = hMasks[m];
      for (int p = 0; p < NPRED; ++p) {
        int want[4] = {SENT, SENT, SENT, SENT};
        if (mask >> lane & 1) {
          unsigned b = 0;
          for (int l = 0; l < 32; ++l)
            if ((mask >> l & 1) && predicate(p, l, v[l], m))
              b |= 1u << l;
          want[0] = (int)b;
          want[1] = b != 0;
          want[2] = b == mask;
          want[3] = b == 0 || b == mask;
        }
        for (int k = 0; k < 4; ++k)
          if (o[(m * NPRED + p) * 4 + k] != want[k] && ++errors <= 12)
            printf("%s mask %08x predicate %d thread %d: got %d, expected %d\n",
                   names[k], mask, p, gid, o[(m * NPRED + p) * 4 + k], want[k]);
      }
    }
    const int *x = o + NMASK * NPRED * 4;
    int want[NEXTRA];
    unsigned b = 0;
    if (lane < 12) {
      for (int l = 0; l < 12; ++l)
        b |= (unsigned)(v[l] % 2) << l;
      want[0] = (int)b;
      want[1] = b == 0xfffu;
    } else {
      for (int l = 12; l < 32; ++l)
        b |= (unsigned)(v[l] % 5 == 1) << l;
      want[0] = (int)b;
      want[1] = b != 0;
    }
    b = 0;
    for (int l = lane % 4; l < 32; l += 4) {
      int pr[4] = {v[l] > 50, v[l] > 95, v[l] >= 0, v[l] > 50};
      b |= (unsigned)pr[lane % 4] << l;
    }
    unsigned group = 0x11111111u << (lane % 4);
    switch (lane % 4) {
    case 0: want[2] = (int)b; break;
    case 1: want[2] = b != 0; break;
    case 2: want[2] = b == group; break;
    default: want[2] = b == 0 || b == group; break;
    }
    unsigned who = 0;
    int maxLeft = 0, maxS = 0;
    for (int l = 0; l < 32; ++l) {
      who |= (unsigned)(v[l] % 4 == 1) << l;
      maxLeft = v[l] % 9 > maxLeft ? v[l] % 9 : maxLeft;
      maxS = v[l] % 7 > maxS ? v[l] % 7 : maxS;
    }
    want[3] = (int)who;
    want[4] = SENT;
    want[5] = SENT;
    if (v[lane] % 4 == 1) {
      int first = 0;
      while (!(who >> first & 1))
        ++first;
      want[4] = v[first];
      want[5] = __builtin_popcount(who & ((1u << lane) - 1));
    }
    want[6] = maxLeft;
    want[7] = maxS;
    want[8] = 32000;
    for (int k = 0; k < NEXTRA; ++k)
      if (x[k] != want[k] && ++errors <= 12)
        printf("extra case %d thread %d: got %d, expected %d\n", k, gid, x[k],
               want[k]);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

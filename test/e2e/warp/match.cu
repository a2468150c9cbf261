// __match_any_sync and __match_all_sync (with its predicate) for int,
// unsigned, long long, unsigned long long, float and double values and for
// float bit patterns (__float_as_uint: +0.0 and -0.0 differ): 6 masks
// (full, a half, even lanes, an irregular one, a single lane, and
// per-lane masks naming the lane's own group of 8) times 7 ways to assign
// values (all equal, two or three classes, all distinct, equal only in the
// mask). Only the lanes of the mask execute. The 64-bit values differ only
// in their high half or only in their low half, so both halves must be
// compared. The toolkit's cuda headers provide the typed overloads.
// 2 blocks of 64 threads.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// REQUIRES: cuda-toolkit
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#define NMASK 6
#define NKIND 7
#define PER (NMASK * NKIND * 3)
#define SENT 0x5eed
#define BLOCKS 2
#define THREADS 64
#define N (BLOCKS * THREADS)

__host__ __device__ unsigned maskOf(int m, int lane) {
  switch (m) {
  case 0: return 0xffffffffu;
  case 1: return 0x0000ffffu;
  case 2: return 0x55555555u;
  case 3: return 0xf00f00f0u;
  case 4: return 0x00000100u;
  default: return 0xffu << (lane & ~7);
  }
}

// The class of lane `l` of warp `w`: equal classes, equal values.
__host__ __device__ int keyOf(int kind, int l, int w) {
  switch (kind) {
  case 0: return 0;
  case 1: return l % 2;
  case 2: return l % 3;
  case 3: return (l * 5 + w * 3 + l / 4) % 5;
  case 4: return l;
  case 5: return l < 16 ? 0 : l;
  default: return l % 2 ? l : 7;
  }
}


__host__ __device__ int valueOf(int, int key) { return key * -1000003 + 5; }
__host__ __device__ unsigned valueOf(unsigned, int key) {
  return 0x80000000u + key * 977u;
}
__host__ __device__ long long valueOf(long long, int key) {
  // Only the high halves differ.
  return (long long)(((unsigned long long)(key - 2) << 32) | 0x89abcdefull);
}
__host__ __device__ unsigned long long valueOf(unsigned long long, int key) {
  // Only the low halves differ.
  return 0xdeadbeef00000000ull | (unsigned)(key * 3 + 1);
}
__host__ __device__ float valueOf(float, int key) { return key * 0.75f - 2.0f; }
__host__ __device__ double valueOf(double, int key) {
  // 1 + key * 2^-40: only the low halves differ.
  return 1.0 + key * (1.0 / 1099511627776.0);
}

template <typename T> __global__ void match(int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, w = gid / 32;
  int *o = out + gid * PER;
  for (int mk = 0; mk < NMASK * NKIND; ++mk) {
    int m = mk / NKIND, kind = mk % NKIND;
    unsigned mask = maskOf(m, lane);
    int any = SENT, all = SENT, pred = SENT;
    if (mask >> lane & 1) {
      T value = valueOf(T(), keyOf(kind, lane, w));
      any = (int)__match_any_sync(mask, value);
      all = (int)__match_all_sync(mask, value, &pred);
    }
    o[mk * 3 + 0] = any;
    o[mk * 3 + 1] = all;
    o[mk * 3 + 2] = pred;
  }
}

// Float bit patterns: class 0 is +0.0f, class 1 is -0.0f.
__global__ void matchBits(int *out) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, w = gid / 32;
  int *o = out + gid * PER;
  for (int mk = 0; mk < NMASK * NKIND; ++mk) {
    int m = mk / NKIND, kind = mk % NKIND;
    unsigned mask = maskOf(m, lane);
    int any = SENT, all = SENT, pred = SENT;
    if (mask >> lane & 1) {
      int key = keyOf(kind, lane, w);
      float f = key == 0 ? 0.0f : key == 1 ? -0.0f : key * 0.5f;
      any = (int)__match_any_sync(mask, __float_as_uint(f));
      all = (int)__match_all_sync(mask, __float_as_uint(f), &pred);
    }
    o[mk * 3 + 0] = any;
    o[mk * 3 + 1] = all;
    o[mk * 3 + 2] = pred;
  }
}

static int errors = 0;

static void check(const char *type, const int *out) {
  for (int gid = 0; gid < N; ++gid) {
    int lane = gid % 32, w = gid / 32;
    for (int mk = 0; mk < NMASK * NKIND; ++mk) {
      int m = mk / NKIND, kind = mk % NKIND;
      unsigned mask = maskOf(m, lane);
      int want[3] = {SENT, SENT, SENT};
      if (mask >> lane & 1) {
        // Equal classes hold equal values for every type tested.
        unsigned same = 0;
        for (int l = 0; l < 32; ++l)
          if ((mask >> l & 1) && keyOf(kind, l, w) == keyOf(kind, lane, w))
            same |= 1u << l;
        want[0] = (int)same;
        want[1] = same == mask ? (int)mask : 0;
        want[2] = same == mask;
      }
      static const char *names[3] = {"match_any", "match_all", "match_all pred"};
      for (int k = 0; k < 3; ++k) {
        int got = out[gid * PER + mk * 3 + k];
        // pred is a truth value: any non-zero value means true.
        if (k == 2 && want[k] != SENT)
          got = got != 0;
        if (got != want[k] && ++errors <= 12)
          printf("%s %s mask %08x values %d thread %d: got %#x, expected %#x\n",
                 type, names[k], mask, kind, gid, got, want[k]);
      }
    }
  }
}

template <typename T> static void run(const char *type, int *dOut) {
  static int out[N * PER];
  // The values of distinct classes differ for every type.
  for (int a = 0; a < 32; ++a)
    for (int b = 0; b < a; ++b)
      if (valueOf(T(), a) == valueOf(T(), b)) {
        printf("test error: %s classes %d and %d collide\n", type, a, b);
        ++errors;
      }
  cudaMemset(dOut, 0, sizeof out);
  match<T><<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  check(type, out);
}

int main() {
  static int out[N * PER];
  int *dOut;
  cudaMalloc(&dOut, sizeof out);
  run<int>("int", dOut);
  run<unsigned>("unsigned", dOut);
  run<long long>("long long", dOut);
  run<unsigned long long>("unsigned long long", dOut);
  run<float>("float", dOut);
  run<double>("double", dOut);
  cudaMemset(dOut, 0, sizeof out);
  matchBits<<<BLOCKS, THREADS>>>(dOut);
  cudaMemcpy(out, dOut, sizeof out, cudaMemcpyDeviceToHost);
  check("float bits", out);
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

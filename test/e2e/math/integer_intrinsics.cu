// Integer intrinsics: __popc, __popcll, __clz, __clzll, __ffs, __ffsll,
// __brev, __brevll, __mul24, __umul24, __mulhi, __umulhi, __mul64hi,
// __umul64hi, __sad, __byte_perm, and the min/max/abs overloads, checked
// bit-exactly against portable host implementations.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O2 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=2 -O2 %s -o %t.c1x2 && %t.c1x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

typedef unsigned long long u64;

enum {
  POPC, POPCLL, CLZ, CLZLL, FFS, FFSLL, BREV, BREVLL_LO, BREVLL_HI, MUL24,
  UMUL24, MULHI, UMULHI, MUL64HI_LO, MUL64HI_HI, UMUL64HI_LO, UMUL64HI_HI,
  SAD, BYTE_PERM, IMIN, IMAX, UMIN, UMAX, LLMIN, LLMAX, IABS, NUM_RESULTS
};
static const char *kNames[NUM_RESULTS] = {
    "__popc",   "__popcll",   "__clz",       "__clzll",     "__ffs",
    "__ffsll",  "__brev",     "__brevll.lo", "__brevll.hi", "__mul24",
    "__umul24", "__mulhi",    "__umulhi",    "__mul64hi.lo", "__mul64hi.hi",
    "__umul64hi.lo", "__umul64hi.hi", "__sad", "__byte_perm", "min(int)",
    "max(int)", "min(unsigned)", "max(unsigned)", "min(long long)",
    "max(long long)", "abs"};

__host__ __device__ u64 mix64(u64 x) {
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Every few inputs are zero or all-ones to hit the edge cases.
__host__ __device__ u64 inputA(int i) {
  if (i % 97 == 0) return 0;
  if (i % 89 == 0) return ~0ull;
  return mix64(i) >> (i % 40);
}
__host__ __device__ u64 inputB(int i) { return mix64(i + 1000003); }

__global__ void intrinsics(unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  u64 a = inputA(i), b = inputB(i);
  unsigned a32 = (unsigned)a, b32 = (unsigned)b;
  unsigned *o = out + (size_t)i * NUM_RESULTS;
  o[POPC] = __popc(a32);
  o[POPCLL] = __popcll(a);
  o[CLZ] = __clz((int)a32);
  o[CLZLL] = __clzll((long long)a);
  o[FFS] = __ffs((int)a32);
  o[FFSLL] = __ffsll((long long)a);
  o[BREV] = __brev(a32);
  u64 r = __brevll(a);
  o[BREVLL_LO] = (unsigned)r;
  o[BREVLL_HI] = (unsigned)(r >> 32);
  // 24-bit operands as real code uses them: values that fit in 24 bits.
  o[MUL24] = (unsigned)__mul24((int)(a32 << 8) >> 8, (int)(b32 << 8) >> 8);
  o[UMUL24] = __umul24(a32 & 0xffffffu, b32 & 0xffffffu);
  o[MULHI] = (unsigned)__mulhi((int)a32, (int)b32);
  o[UMULHI] = __umulhi(a32, b32);
  long long sh = __mul64hi((long long)a, (long long)b);
  o[MUL64HI_LO] = (unsigned)sh;
  o[MUL64HI_HI] = (unsigned)((u64)sh >> 32);
  u64 uh = __umul64hi(a, b);
  o[UMUL64HI_LO] = (unsigned)uh;
  o[UMUL64HI_HI] = (unsigned)(uh >> 32);
  o[SAD] = __sad((int)a32, (int)b32, 12345u);
  o[BYTE_PERM] = __byte_perm(a32, b32, (unsigned)(i * 0x1357) & 0x7777);
  o[IMIN] = (unsigned)min((int)a32, (int)b32);
  o[IMAX] = (unsigned)max((int)a32, (int)b32);
  o[UMIN] = min(a32, b32);
  o[UMAX] = max(a32, b32);
  o[LLMIN] = (unsigned)(min((long long)a, (long long)b) >> 17);
  o[LLMAX] = (unsigned)(max((long long)a, (long long)b) >> 17);
  o[IABS] = (unsigned)abs((int)a32 == (int)0x80000000 ? 0 : (int)a32);
}

// ----- portable host reference implementations -----
static unsigned popc64(u64 x) { unsigned c = 0; for (; x; x &= x - 1) ++c; return c; }
static unsigned clz64(u64 x, int bits) {
  unsigned c = 0;
  for (int k = bits - 1; k >= 0 && !((x >> k) & 1); --k) ++c;
  return c;
}
static unsigned ffs64(u64 x) {
  for (int k = 0; k < 64; ++k) if ((x >> k) & 1) return k + 1;
  return 0;
}
static u64 brev(u64 x, int bits) {
  u64 r = 0;
  for (int k = 0; k < bits; ++k) if ((x >> k) & 1) r |= 1ull << (bits - 1 - k);
  return r;
}
static u64 umulhi64(u64 a, u64 b) {
  u64 al = (unsigned)a, ah = a >> 32, bl = (unsigned)b, bh = b >> 32;
  u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  u64 mid = (ll >> 32) + (unsigned)lh + (unsigned)hl;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static int sext24(unsigned x) { return (int)(x << 8) >> 8; }
static unsigned bytePerm(unsigned x, unsigned y, unsigned s) {
  u64 v = ((u64)y << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    unsigned sel = (s >> (4 * k)) & 7;
    r |= (unsigned)((v >> (8 * sel)) & 0xff) << (8 * k);
  }
  return r;
}

int main() {
  const int n = 100000;
  unsigned *d;
  CUDA_CHECK(cudaMalloc(&d, (size_t)n * NUM_RESULTS * sizeof(unsigned)));
  intrinsics<<<(n + 255) / 256, 256>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  unsigned *h = (unsigned *)malloc((size_t)n * NUM_RESULTS * sizeof(unsigned));
  CUDA_CHECK(cudaMemcpy(h, d, (size_t)n * NUM_RESULTS * sizeof(unsigned),
                        cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    u64 a = inputA(i), b = inputB(i);
    unsigned a32 = (unsigned)a, b32 = (unsigned)b;
    int sa = (int)a32, sb = (int)b32;
    long long la = (long long)a, lb = (long long)b;
    unsigned e[NUM_RESULTS];
    e[POPC] = popc64(a32);
    e[POPCLL] = popc64(a);
    e[CLZ] = clz64(a32, 32);
    e[CLZLL] = clz64(a, 64);
    e[FFS] = ffs64(a32);
    e[FFSLL] = ffs64(a);
    e[BREV] = (unsigned)brev(a32, 32);
    e[BREVLL_LO] = (unsigned)brev(a, 64);
    e[BREVLL_HI] = (unsigned)(brev(a, 64) >> 32);
    e[MUL24] = (unsigned)((long long)sext24(a32) * (long long)sext24(b32));
    e[UMUL24] = (unsigned)((u64)(a32 & 0xffffff) * (u64)(b32 & 0xffffff));
    e[MULHI] = (unsigned)(((long long)sa * (long long)sb) >> 32);
    e[UMULHI] = (unsigned)(((u64)a32 * (u64)b32) >> 32);
    // signed high half = unsigned high half minus corrections
    u64 hs = umulhi64(a, b) - (la < 0 ? b : 0) - (lb < 0 ? a : 0);
    e[MUL64HI_LO] = (unsigned)hs;
    e[MUL64HI_HI] = (unsigned)(hs >> 32);
    e[UMUL64HI_LO] = (unsigned)umulhi64(a, b);
    e[UMUL64HI_HI] = (unsigned)(umulhi64(a, b) >> 32);
    e[SAD] = (sa > sb ? (unsigned)sa - (unsigned)sb : (unsigned)sb - (unsigned)sa) + 12345u;
    e[BYTE_PERM] = bytePerm(a32, b32, (unsigned)(i * 0x1357) & 0x7777);
    e[IMIN] = (unsigned)(sa < sb ? sa : sb);
    e[IMAX] = (unsigned)(sa > sb ? sa : sb);
    e[UMIN] = a32 < b32 ? a32 : b32;
    e[UMAX] = a32 > b32 ? a32 : b32;
    e[LLMIN] = (unsigned)((la < lb ? la : lb) >> 17);
    e[LLMAX] = (unsigned)((la > lb ? la : lb) >> 17);
    e[IABS] = (unsigned)(sa == (int)0x80000000 ? 0 : (sa < 0 ? -sa : sa));
    for (int k = 0; k < NUM_RESULTS; ++k)
      if (h[(size_t)i * NUM_RESULTS + k] != e[k]) {
        printf("%s mismatch at %d (a=0x%llx, b=0x%llx): got 0x%x, expected "
               "0x%x\n",
               kNames[k], i, a, b, h[(size_t)i * NUM_RESULTS + k], e[k]);
        printf("FAILED\n");
        return 1;
      }
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  printf("PASSED\n");
  return 0;
}

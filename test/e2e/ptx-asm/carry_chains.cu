// Multi-word arithmetic with the carry flag in inline PTX (bignum and
// elliptic-curve kernels): 128-bit additions and subtractions as chains of
// add.cc/addc and sub.cc/subc on 32-bit words, a 64-bit-word chain, and a
// 64 x 64 -> 128-bit product from 32-bit words with mad.lo.cc/madc.hi.cc
// and mad.hi.cc/madc.lo, checked against unsigned __int128 on the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx
// CHECK: add128 ok
// CHECK: sub128 ok
// CHECK: add64x2 ok
// CHECK: mul64 ok
// CHECK: PASSED

#include <cstdint>
#include <cstdio>

struct U128 {
  uint32_t w[4]; // least significant word first
};

__global__ void add128(const U128 *x, const U128 *y, U128 *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  U128 a = x[i], b = y[i], r;
  asm("add.cc.u32 %0, %4, %8;\n\t"
      "addc.cc.u32 %1, %5, %9;\n\t"
      "addc.cc.u32 %2, %6, %10;\n\t"
      "addc.u32 %3, %7, %11;"
      : "=r"(r.w[0]), "=r"(r.w[1]), "=r"(r.w[2]), "=r"(r.w[3])
      : "r"(a.w[0]), "r"(a.w[1]), "r"(a.w[2]), "r"(a.w[3]), "r"(b.w[0]),
        "r"(b.w[1]), "r"(b.w[2]), "r"(b.w[3]));
  out[i] = r;
}

__global__ void sub128(const U128 *x, const U128 *y, U128 *out,
                       uint32_t *borrow) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  U128 a = x[i], b = y[i], r;
  uint32_t last;
  asm("sub.cc.u32 %0, %5, %9;\n\t"
      "subc.cc.u32 %1, %6, %10;\n\t"
      "subc.cc.u32 %2, %7, %11;\n\t"
      "subc.cc.u32 %3, %8, %12;\n\t"
      "subc.u32 %4, 0, 0;"
      : "=r"(r.w[0]), "=r"(r.w[1]), "=r"(r.w[2]), "=r"(r.w[3]), "=r"(last)
      : "r"(a.w[0]), "r"(a.w[1]), "r"(a.w[2]), "r"(a.w[3]), "r"(b.w[0]),
        "r"(b.w[1]), "r"(b.w[2]), "r"(b.w[3]));
  out[i] = r;
  borrow[i] = last; // 0xffffffff when a < b
}

__global__ void add64x2(const uint64_t *x, const uint64_t *y, uint64_t *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t lo, hi;
  asm("add.cc.u64 %0, %2, %4;\n\t"
      "addc.u64 %1, %3, %5;"
      : "=l"(lo), "=l"(hi)
      : "l"(x[2 * i]), "l"(x[2 * i + 1]), "l"(y[2 * i]), "l"(y[2 * i + 1]));
  out[2 * i] = lo;
  out[2 * i + 1] = hi;
}

// (a1:a0) * (b1:b0) in 32-bit words, the partial products summed with
// carries as in multi-precision libraries.
__global__ void mul64(const uint64_t *x, const uint64_t *y, U128 *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a0 = uint32_t(x[i]), a1 = uint32_t(x[i] >> 32);
  uint32_t b0 = uint32_t(y[i]), b1 = uint32_t(y[i] >> 32);
  U128 r;
  asm("{\n\t"
      ".reg .u32 t1, t2;\n\t"
      "mul.lo.u32 %0, %4, %6;\n\t"
      "mul.hi.u32 %1, %4, %6;\n\t"
      "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
      "madc.hi.u32 %2, %5, %6, 0;\n\t"
      "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
      "madc.hi.cc.u32 %2, %4, %7, %2;\n\t"
      "addc.u32 %3, 0, 0;\n\t"
      "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
      "madc.hi.u32 %3, %5, %7, %3;\n\t"
      "}"
      : "=r"(r.w[0]), "=r"(r.w[1]), "=r"(r.w[2]), "=r"(r.w[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
  out[i] = r;
}

static unsigned __int128 join(const U128 &v) {
  unsigned __int128 r = 0;
  for (int k = 3; k >= 0; --k)
    r = (r << 32) | v.w[k];
  return r;
}

static U128 split(unsigned __int128 v) {
  U128 r;
  for (int k = 0; k < 4; ++k)
    r.w[k] = uint32_t(v >> (32 * k));
  return r;
}

int main() {
  const int n = 256;
  U128 *x, *y, *out;
  uint32_t *borrow;
  uint64_t *p, *q, *o;
  cudaMallocManaged(&x, n * sizeof(U128));
  cudaMallocManaged(&y, n * sizeof(U128));
  cudaMallocManaged(&out, n * sizeof(U128));
  cudaMallocManaged(&borrow, n * sizeof(uint32_t));
  cudaMallocManaged(&p, 2 * n * sizeof(uint64_t));
  cudaMallocManaged(&q, 2 * n * sizeof(uint64_t));
  cudaMallocManaged(&o, 2 * n * sizeof(uint64_t));
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  for (int i = 0; i < n; ++i) {
    // Words of all ones and zeros make carries ripple through every word.
    unsigned __int128 a = (unsigned __int128)next() << 64 | next();
    unsigned __int128 b = (unsigned __int128)next() << 64 | next();
    if (i % 4 == 1)
      a = ~(unsigned __int128)0 - (i / 4);
    if (i % 4 == 2)
      b = 0;
    x[i] = split(a);
    y[i] = split(b);
    p[2 * i] = next();
    p[2 * i + 1] = next();
    q[2 * i] = i % 3 ? next() : ~0ull;
    q[2 * i + 1] = next();
  }
  int bad = 0, wrong = 0;
  add128<<<n / 64, 64>>>(x, y, out);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i)
    wrong += join(out[i]) != join(x[i]) + join(y[i]);
  printf("add128 %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;

  wrong = 0;
  sub128<<<n / 64, 64>>>(x, y, out, borrow);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i)
    wrong += join(out[i]) != join(x[i]) - join(y[i]) ||
             borrow[i] != (join(x[i]) < join(y[i]) ? 0xffffffffu : 0u);
  printf("sub128 %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;

  wrong = 0;
  add64x2<<<n / 64, 64>>>(p, q, o);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) {
    unsigned __int128 a = (unsigned __int128)p[2 * i + 1] << 64 | p[2 * i];
    unsigned __int128 b = (unsigned __int128)q[2 * i + 1] << 64 | q[2 * i];
    unsigned __int128 s = a + b;
    wrong += o[2 * i] != uint64_t(s) || o[2 * i + 1] != uint64_t(s >> 64);
  }
  printf("add64x2 %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;

  wrong = 0;
  mul64<<<n / 64, 64>>>(p, q, out);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i)
    wrong += join(out[i]) != (unsigned __int128)p[i] * q[i];
  printf("mul64 %s\n", wrong ? "FAILED" : "ok");
  bad += wrong;
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}

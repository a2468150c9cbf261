// Less common PTX in user asm, as benchmarks and libraries write it:
// %smid (which SM runs the block: on the CPU the core, below %nsmid),
// %globaltimer_lo/_hi, slct, copysign (b with a's sign), testp, mul24 and
// mad24, and `trap;` (as __trap(): the program stops with a message).
// Each result is checked against the PTX ISA's definition on the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: not --crash %t trap > %t.trap 2>&1
// RUN: FileCheck %s --check-prefix=TRAP < %t.trap
// CHECK: PASSED
// TRAP: respec: a kernel executed __trap() (PTX trap): unspecified launch failure

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

static int failures = 0;
#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond) && failures++ < 10) {                                         \
      printf("check failed at line %d: %s: ", __LINE__, #cond);               \
      printf(__VA_ARGS__);                                                    \
      printf("\n");                                                           \
    }                                                                         \
  } while (0)

__global__ void smids(unsigned *smid, unsigned *nsmid, unsigned long long *t) {
  unsigned s, n, lo, hi;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(n));
  asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
  if (threadIdx.x == 0) {
    smid[blockIdx.x] = s;
    nsmid[blockIdx.x] = n;
    t[blockIdx.x] = ((unsigned long long)hi << 32) | lo;
  }
}

__global__ void arithmetic(const int *xi, const float *xf, int *oi,
                           float *of, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int a = xi[i], b = xi[(i + 1) % n];
  float f = xf[i], g = xf[(i + 3) % n];
  int r;
  float h;
  asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(a - b));
  oi[8 * i + 0] = r;
  asm("slct.s32.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "f"(f));
  oi[8 * i + 1] = r;
  asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  oi[8 * i + 2] = r;
  asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  oi[8 * i + 3] = r;
  asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  oi[8 * i + 4] = r;
  asm("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(a));
  oi[8 * i + 5] = r;
  asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.s32 %0, 1, 0, p; }"
      : "=r"(r)
      : "f"(f));
  int classes = r;
  asm("{ .reg .pred p; testp.notanumber.f32 p, %1; selp.s32 %0, 2, 0, p; }"
      : "=r"(r)
      : "f"(f));
  classes |= r;
  asm("{ .reg .pred p; testp.subnormal.f32 p, %1; selp.s32 %0, 4, 0, p; }"
      : "=r"(r)
      : "f"(f));
  classes |= r;
  asm("{ .reg .pred p; testp.infinite.f32 p, %1; selp.s32 %0, 8, 0, p; }"
      : "=r"(r)
      : "f"(f));
  oi[8 * i + 6] = classes | r;
  asm("copysign.f32 %0, %1, %2;" : "=f"(h) : "f"(g), "f"(f));
  of[2 * i] = h;
  asm("slct.f32.s32 %0, %1, %2, %3;" : "=f"(h) : "f"(f), "f"(g), "r"(b));
  of[2 * i + 1] = h;
}

__global__ void trapIfNegative(int *o, int n) {
  if (n < 0)
    asm volatile("trap;");
  o[threadIdx.x] = n;
}

static int mul24(int a, int b, bool isSigned, bool high) {
  long long x = isSigned ? (long long)((a << 8) >> 8) : (long long)(a & 0xffffff);
  long long y = isSigned ? (long long)((b << 8) >> 8) : (long long)(b & 0xffffff);
  long long p = x * y;
  return (int)(unsigned)(high ? ((unsigned long long)p >> 16) : (unsigned long long)p);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "trap")) {
    int *o;
    cudaMallocManaged(&o, 32 * sizeof(int));
    trapIfNegative<<<1, 32>>>(o, 5);
    cudaDeviceSynchronize();
    trapIfNegative<<<1, 32>>>(o, -1);
    cudaDeviceSynchronize();
    printf("not reached\n");
    return 0;
  }
  {
    const int blocks = 64;
    unsigned *smid, *nsmid;
    unsigned long long *t;
    cudaMallocManaged(&smid, blocks * sizeof(unsigned));
    cudaMallocManaged(&nsmid, blocks * sizeof(unsigned));
    cudaMallocManaged(&t, blocks * sizeof(unsigned long long));
    smids<<<blocks, 64>>>(smid, nsmid, t);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "smid");
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    for (int i = 0; i < blocks; ++i) {
      CHECK(nsmid[i] == (unsigned)prop.multiProcessorCount, "%u", nsmid[i]);
      CHECK(smid[i] < nsmid[i], "block %d on SM %u of %u", i, smid[i],
            nsmid[i]);
      CHECK(t[i] > 1000000000ull, "timer %llu", t[i]);
    }
  }
  {
    const int n = 64;
    int *xi, *oi;
    float *xf, *of;
    cudaMallocManaged(&xi, n * sizeof(int));
    cudaMallocManaged(&xf, n * sizeof(float));
    cudaMallocManaged(&oi, 8 * n * sizeof(int));
    cudaMallocManaged(&of, 2 * n * sizeof(float));
    for (int i = 0; i < n; ++i) {
      xi[i] = (i * 2654435761u) ^ (i << 20);
      xf[i] = (i % 5 - 2) * 1.5f;
    }
    xf[3] = NAN;
    xf[5] = INFINITY;
    xf[7] = -0.0f;
    xf[9] = 1e-40f;
    arithmetic<<<2, 32>>>(xi, xf, oi, of, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "arithmetic");
    for (int i = 0; i < n; ++i) {
      int a = xi[i], b = xi[(i + 1) % n];
      float f = xf[i], g = xf[(i + 3) % n];
      CHECK(oi[8 * i] == (a - b >= 0 ? a : b), "slct.s32 %d", i);
      CHECK(oi[8 * i + 1] == (f >= 0.0f ? a : b), "slct f32 selector %d", i);
      CHECK(oi[8 * i + 2] == mul24(a, b, true, false), "mul24.lo %d", i);
      CHECK(oi[8 * i + 3] == mul24(a, b, true, true), "mul24.hi.s32 %d", i);
      CHECK(oi[8 * i + 4] == mul24(a, b, false, true), "mul24.hi.u32 %d", i);
      CHECK(oi[8 * i + 5] == (int)((unsigned)mul24(a, b, false, false) + (unsigned)a),
            "mad24 %d", i);
      int classes = (std::isfinite(f) ? 1 : 0) | (std::isnan(f) ? 2 : 0) |
                    (std::fpclassify(f) == FP_SUBNORMAL ? 4 : 0) |
                    (std::isinf(f) ? 8 : 0);
      CHECK(oi[8 * i + 6] == classes, "testp %d: %d, expected %d", i,
            oi[8 * i + 6], classes);
      float c = std::copysign(f, g); // f with the sign of g (a)
      CHECK(memcmp(&of[2 * i], &c, 4) == 0, "copysign %d", i);
      float s = b >= 0 ? f : g;
      CHECK(memcmp(&of[2 * i + 1], &s, 4) == 0, "slct.f32 %d", i);
    }
  }
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}

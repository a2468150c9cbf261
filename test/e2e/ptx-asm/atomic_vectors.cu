// Atomic vector loads and stores in inline PTX (ld.relaxed/.acquire and
// st.relaxed/.release with .v2/.v4, 32 to 128 bits in all), the form CUB's
// decoupled look-back uses for a tile's {status, value} pair: each is one
// atomic access of the whole vector. Blocks publish {ready, value} pairs
// that later blocks spin on (lower-numbered blocks only, which respec runs
// first on each core); a torn read would show a ready flag with a stale
// value. Also checks the element order (lowest register at the lowest
// address) and sign/zero handling of .s16/.u16 elements.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O2 --grid-schedule=static %s -o %t.static && %t.static | FileCheck %s
// RUN: %respec --emit=llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-LABEL: define {{.*}}@_Z5order
// IR: load atomic i128, ptr %{{.*}} monotonic, align 16
// IR: store atomic i128 %{{.*}}, ptr %{{.*}} release, align 16
// IR: load atomic i64, ptr %{{.*}} acquire, align 8
// IR: store atomic i64 %{{.*}}, ptr %{{.*}} monotonic, align 8
// IR: load atomic i64, ptr %{{.*}} monotonic, align 8
// IR-LABEL: define {{.*}}@_Z7chain32
// IR: load atomic i64, ptr %{{.*}} monotonic, align 8
// IR: store atomic i64 %{{.*}}, ptr %{{.*}} release, align 8
// IR-LABEL: define {{.*}}@_Z7chain64
// IR: load atomic i128, ptr %{{.*}} acquire, align 16
// IR: store atomic i128 %{{.*}}, ptr %{{.*}} monotonic, align 16
// CHECK: order PASSED
// CHECK: chain32 PASSED
// CHECK: chain64 PASSED
// CHECK: chain16 PASSED

#include <cstdio>
#include <cstring>

__device__ uint2 loadRelaxed(const uint2 *p) {
  uint2 v;
  asm volatile("ld.relaxed.gpu.v2.u32 {%0, %1}, [%2];"
               : "=r"(v.x), "=r"(v.y)
               : "l"(p)
               : "memory");
  return v;
}

__device__ void storeRelease(uint2 *p, uint2 v) {
  asm volatile("st.release.gpu.v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v.x),
               "r"(v.y)
               : "memory");
}

__device__ ulonglong2 loadAcquire(const ulonglong2 *p) {
  ulonglong2 v;
  asm volatile("ld.acquire.gpu.v2.u64 {%0, %1}, [%2];"
               : "=l"(v.x), "=l"(v.y)
               : "l"(p)
               : "memory");
  return v;
}

__device__ void storeRelaxed(ulonglong2 *p, ulonglong2 v) {
  asm volatile("st.relaxed.gpu.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(v.x),
               "l"(v.y)
               : "memory");
}

__device__ uint4 loadRelaxed4(const uint4 *p) {
  uint4 v;
  asm volatile("ld.relaxed.gpu.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
  return v;
}

__device__ void storeRelease4(uint4 *p, uint4 v) {
  asm volatile("st.release.gpu.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p),
               "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// Element order, .f32 elements, and .s16 elements sign-extended into
// 32-bit registers.
__global__ void order(const uint4 *in, uint4 *out, const float2 *fin,
                      float2 *fout, const short4 *sin, int *sout) {
  uint4 v = loadRelaxed4(in);
  storeRelease4(out, make_uint4(v.w, v.z, v.y, v.x));
  float a, b;
  asm volatile("ld.acquire.gpu.v2.f32 {%0, %1}, [%2];"
               : "=f"(a), "=f"(b)
               : "l"(fin)
               : "memory");
  asm volatile("st.relaxed.gpu.v2.f32 [%0], {%1, %2};" ::"l"(fout), "f"(b),
               "f"(a)
               : "memory");
  int s0, s1, s2, s3;
  asm volatile("ld.relaxed.gpu.v4.s16 {%0, %1, %2, %3}, [%4];"
               : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
               : "l"(sin)
               : "memory");
  sout[0] = s0;
  sout[1] = s1;
  sout[2] = s2;
  sout[3] = s3;
}

// Block b waits for block b-1's pair {1, prefix}, then publishes
// {1, prefix + b + 1}: a chained scan of the block numbers.
__global__ void chain32(uint2 *pairs, unsigned *result) {
  unsigned b = blockIdx.x;
  if (threadIdx.x != 0)
    return;
  unsigned prefix = 0;
  if (b > 0) {
    uint2 seen;
    do {
      seen = loadRelaxed(&pairs[b - 1]);
    } while (seen.x == 0);
    prefix = seen.y;
  }
  storeRelease(&pairs[b], make_uint2(1u, prefix + b + 1));
  result[b] = prefix;
}

__global__ void chain64(ulonglong2 *pairs, unsigned long long *result) {
  unsigned long long b = blockIdx.x;
  if (threadIdx.x != 0)
    return;
  unsigned long long prefix = 0;
  if (b > 0) {
    ulonglong2 seen;
    do {
      seen = loadAcquire(&pairs[b - 1]);
    } while (seen.x == 0);
    prefix = seen.y;
  }
  // Values above 2^32 so that both halves of each element matter.
  storeRelaxed(&pairs[b], make_ulonglong2(1ull, prefix + (b + 1) * 0x100000001ull));
  result[b] = prefix;
}

__global__ void chain16(ushort4 *pairs, unsigned *result) {
  unsigned b = blockIdx.x;
  if (threadIdx.x != 0)
    return;
  unsigned short prefix = 0;
  if (b > 0) {
    unsigned short ready, value, pad0, pad1;
    do {
      asm volatile("ld.relaxed.gpu.v4.u16 {%0, %1, %2, %3}, [%4];"
                   : "=h"(ready), "=h"(value), "=h"(pad0), "=h"(pad1)
                   : "l"(&pairs[b - 1])
                   : "memory");
    } while (ready == 0);
    prefix = value;
  }
  unsigned short next = (unsigned short)(prefix + 3), one = 1, zero = 0;
  asm volatile("st.release.gpu.v4.u16 [%0], {%1, %2, %3, %4};" ::"l"(
                   &pairs[b]),
               "h"(one), "h"(next), "h"(zero), "h"(zero)
               : "memory");
  result[b] = prefix;
}

int main() {
  uint4 *in, *out;
  float2 *fin, *fout;
  short4 *sin;
  int *sout;
  cudaMallocManaged(&in, sizeof(uint4));
  cudaMallocManaged(&out, sizeof(uint4));
  cudaMallocManaged(&fin, sizeof(float2));
  cudaMallocManaged(&fout, sizeof(float2));
  cudaMallocManaged(&sin, sizeof(short4));
  cudaMallocManaged(&sout, 4 * sizeof(int));
  *in = make_uint4(1, 2, 3, 0xffffffffu);
  *fin = make_float2(1.5f, -2.25f);
  *sin = make_short4(-1, 2, -32768, 32767);
  order<<<1, 1>>>(in, out, fin, fout, sin, sout);
  cudaDeviceSynchronize();
  bool ok = out->x == 0xffffffffu && out->y == 3 && out->z == 2 &&
            out->w == 1 && fout->x == -2.25f && fout->y == 1.5f &&
            sout[0] == -1 && sout[1] == 2 && sout[2] == -32768 &&
            sout[3] == 32767;
  printf("order %s\n", ok ? "PASSED" : "FAILED");

  const int blocks = 2000;
  uint2 *pairs32;
  unsigned *result32;
  cudaMalloc(&pairs32, blocks * sizeof(uint2));
  cudaMemset(pairs32, 0, blocks * sizeof(uint2));
  cudaMallocManaged(&result32, blocks * sizeof(unsigned));
  chain32<<<blocks, 64>>>(pairs32, result32);
  cudaDeviceSynchronize();
  ok = true;
  for (unsigned b = 0; b < blocks; ++b)
    ok &= result32[b] == b * (b + 1) / 2;
  printf("chain32 %s\n", ok ? "PASSED" : "FAILED");

  ulonglong2 *pairs64;
  unsigned long long *result64;
  cudaMalloc(&pairs64, blocks * sizeof(ulonglong2));
  cudaMemset(pairs64, 0, blocks * sizeof(ulonglong2));
  cudaMallocManaged(&result64, blocks * sizeof(unsigned long long));
  chain64<<<blocks, 32>>>(pairs64, result64);
  cudaDeviceSynchronize();
  ok = true;
  for (unsigned long long b = 0; b < blocks; ++b)
    ok &= result64[b] == b * (b + 1) / 2 * 0x100000001ull;
  printf("chain64 %s\n", ok ? "PASSED" : "FAILED");

  ushort4 *pairs16;
  unsigned *result16;
  cudaMalloc(&pairs16, blocks * sizeof(ushort4));
  cudaMemset(pairs16, 0, blocks * sizeof(ushort4));
  cudaMallocManaged(&result16, blocks * sizeof(unsigned));
  chain16<<<blocks, 32>>>(pairs16, result16);
  cudaDeviceSynchronize();
  ok = true;
  for (unsigned b = 0; b < blocks; ++b)
    ok &= result16[b] == (unsigned short)(3 * b);
  printf("chain16 %s\n", ok ? "PASSED" : "FAILED");
  return 0;
}

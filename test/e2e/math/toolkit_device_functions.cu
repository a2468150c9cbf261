// Device functions of the CUDA toolkit's headers that clang's CUDA headers
// leave out: the cache-hint loads and stores __ldca, __ldlu, __stcg, __stcs
// and __stwb on scalars and vector types, __tanhf, and __fns (the n-th set
// bit of a mask, PTX fns), each checked against the host (__fns over every
// base and offset of a set of masks).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --cuda-path=%t.none %s -o %t.own && %t.own | FileCheck %s
// RUN: %respec --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --target=nvptx --emit=ptx %s -o %t.ptx
// CHECK: cache hints ok
// CHECK: tanhf ok
// CHECK: fns ok
// CHECK: PASSED

#include <cmath>
#include <cstdio>

__global__ void hints(const float *f, const int *i, const float4 *v,
                      const double *d, float *fo, int *io, float4 *vo,
                      double *dout, unsigned long long *u) {
  unsigned t = threadIdx.x;
  __stcs(&fo[t], __ldca(&f[t]) + 1.0f);
  __stcg(&io[t], __ldlu(&i[t]) * 2);
  float4 x = __ldca(&v[t]);
  x.w += 3.0f;
  __stwb(&vo[t], x);
  __stcs(&dout[t], __ldlu(&d[t]) * 0.5);
  __stcg(&u[t], 7); // the value converts to the pointer's type
}

__global__ void tanhs(const float *x, float *y) {
  unsigned t = threadIdx.x;
  y[t] = __tanhf(x[t]);
}

__global__ void fns(const unsigned *masks, unsigned *out) {
  unsigned m = blockIdx.x, base = threadIdx.x;
  for (int offset = -33; offset <= 33; ++offset)
    out[(m * 32 + base) * 67 + (offset + 33)] = __fns(masks[m], base, offset);
}

static unsigned hostFns(unsigned mask, unsigned base, int offset) {
  if (offset == 0)
    return (mask >> base) & 1 ? base : 0xffffffffu;
  int remaining = offset > 0 ? offset : -offset;
  for (int p = int(base); p >= 0 && p < 32; p += offset > 0 ? 1 : -1)
    if ((mask >> p) & 1 && --remaining == 0)
      return unsigned(p);
  return 0xffffffffu;
}

int main() {
  const int n = 64;
  float *f, *fo, *x, *y;
  int *i, *io;
  float4 *v, *vo;
  double *d, *dout;
  unsigned long long *u;
  cudaMallocManaged(&f, n * sizeof(float));
  cudaMallocManaged(&fo, n * sizeof(float));
  cudaMallocManaged(&i, n * sizeof(int));
  cudaMallocManaged(&io, n * sizeof(int));
  cudaMallocManaged(&v, n * sizeof(float4));
  cudaMallocManaged(&vo, n * sizeof(float4));
  cudaMallocManaged(&d, n * sizeof(double));
  cudaMallocManaged(&dout, n * sizeof(double));
  cudaMallocManaged(&u, n * sizeof(unsigned long long));
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int k = 0; k < n; ++k) {
    f[k] = k * 0.25f;
    i[k] = k - 7;
    v[k] = make_float4(k, k + 1, k + 2, k + 3);
    d[k] = k * 3.0;
    x[k] = (k - 32) * 0.125f;
  }
  hints<<<1, n>>>(f, i, v, d, fo, io, vo, dout, u);
  tanhs<<<1, n>>>(x, y);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int k = 0; k < n; ++k)
    bad += fo[k] != f[k] + 1.0f || io[k] != i[k] * 2 || vo[k].x != v[k].x ||
           vo[k].w != v[k].w + 3.0f || dout[k] != d[k] * 0.5 || u[k] != 7;
  printf("cache hints %s\n", bad ? "FAILED" : "ok");
  int badTanh = 0;
  for (int k = 0; k < n; ++k)
    badTanh += std::fabs(y[k] - std::tanh(x[k])) > 1e-3f;
  printf("tanhf %s\n", badTanh ? "FAILED" : "ok");
  bad += badTanh;

  const unsigned hostMasks[] = {0u,          0xffffffffu, 0x80000001u,
                                0x12345678u, 0xf0f0f0f0u, 1u << 17,
                                0x55555555u, 0xdeadbeefu};
  const int masks = sizeof(hostMasks) / sizeof(hostMasks[0]);
  unsigned *m, *out;
  cudaMallocManaged(&m, sizeof(hostMasks));
  cudaMallocManaged(&out, masks * 32 * 67 * sizeof(unsigned));
  for (int k = 0; k < masks; ++k)
    m[k] = hostMasks[k];
  fns<<<masks, 32>>>(m, out);
  cudaDeviceSynchronize();
  int badFns = 0;
  for (int k = 0; k < masks; ++k)
    for (unsigned base = 0; base < 32; ++base)
      for (int offset = -33; offset <= 33; ++offset) {
        unsigned got = out[(k * 32 + base) * 67 + (offset + 33)];
        unsigned want = hostFns(hostMasks[k], base, offset);
        if (got != want && badFns++ < 5)
          printf("__fns(%#x, %u, %d) = %#x, expected %#x\n", hostMasks[k],
                 base, offset, got, want);
      }
  printf("fns %s\n", badFns ? "FAILED" : "ok");
  bad += badFns;
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}

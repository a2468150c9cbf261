// Fast single-precision intrinsics (__expf, __logf, __sinf, __cosf,
// __fdividef, __powf, __saturatef) in a softmax-like kernel. These are
// approximate by design, so the tolerances follow the CUDA programming
// guide's error bounds with generous margins.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O3 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O3 %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

struct FastOut {
  float e, l, s, c, q, p, sat;
};

__global__ void fastMath(const float *x, FastOut *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i];
  FastOut o;
  o.e = __expf(a);                     // a in [-10, 10]
  o.l = __logf(a + 10.5f);             // argument in [0.5, 20.5]
  o.s = __sinf(a * 0.3f);              // |argument| <= 3 < pi
  o.c = __cosf(a * 0.3f);
  o.q = __fdividef(a, a * a + 1.0f);
  o.p = __powf(a + 10.5f, 0.75f);
  o.sat = __saturatef(a * 0.1f);
  out[i] = o;
}

static bool close(const char *name, int i, double got, double exp, double rel,
                  double abs) {
  if (fabs(got - exp) <= rel * fabs(exp) + abs)
    return true;
  printf("%s mismatch at %d: got %.9g, expected %.9g\n", name, i, got, exp);
  return false;
}

int main() {
  const int n = 200001;
  float *hx = (float *)malloc(n * sizeof(float));
  FastOut *res = (FastOut *)malloc(n * sizeof(FastOut));
  for (int i = 0; i < n; ++i)
    hx[i] = -10.0f + 20.0f * (float)i / (float)(n - 1);
  float *dx;
  FastOut *dout;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(FastOut)));
  CUDA_CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  fastMath<<<(n + 127) / 128, 128>>>(dx, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dout, n * sizeof(FastOut), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    double a = hx[i];
    double t = (double)(hx[i] * 0.3f);
    double sat = (double)(hx[i] * 0.1f);
    sat = sat < 0.0 ? 0.0 : (sat > 1.0 ? 1.0 : sat);
    bool ok = close("__expf", i, res[i].e, exp(a), 1e-4, 0.0) &&
              close("__logf", i, res[i].l, log(a + 10.5), 0.0, 1e-5) &&
              close("__sinf", i, res[i].s, sin(t), 0.0, 1e-5) &&
              close("__cosf", i, res[i].c, cos(t), 0.0, 1e-5) &&
              close("__fdividef", i, res[i].q, a / (a * a + 1.0), 1e-5, 1e-7) &&
              close("__powf", i, res[i].p, pow(a + 10.5, 0.75), 1e-4, 1e-6) &&
              close("__saturatef", i, res[i].sat, sat, 0.0, 0.0);
    if (!ok) {
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dout));
  free(hx);
  free(res);
  printf("PASSED\n");
  return 0;
}

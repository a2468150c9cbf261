// Single-precision math library functions on the device (sinf, cosf, expf,
// logf, powf, sqrtf, rsqrtf, fabsf, fminf, fmaxf, floorf, ceilf, fmaf,
// tanhf, erff) against the double-precision host results. Exactly rounded
// operations (sqrtf, fabsf, fminf, fmaxf, floorf, ceilf, fmaf) are checked
// exactly; the others within a few ulp.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O2 %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
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

enum {
  SIN, COS, EXP, LOG, POW, SQRT, RSQRT, FABS, FMIN, FMAX, FLOOR, CEIL, FMA,
  TANH, ERF, NUM_FUNCS
};
static const char *kNames[NUM_FUNCS] = {
    "sinf",  "cosf",  "expf",   "logf",  "powf", "sqrtf", "rsqrtf", "fabsf",
    "fminf", "fmaxf", "floorf", "ceilf", "fmaf", "tanhf", "erff"};

__global__ void evalMath(const float *x, const float *y, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = x[i], b = y[i];
  float *o = out + (size_t)i * NUM_FUNCS;
  o[SIN] = sinf(a);
  o[COS] = cosf(a);
  o[EXP] = expf(a * 0.1f);
  o[LOG] = logf(b);
  o[POW] = powf(b, a * 0.05f);
  o[SQRT] = sqrtf(b);
  o[RSQRT] = rsqrtf(b);
  o[FABS] = fabsf(a);
  o[FMIN] = fminf(a, b);
  o[FMAX] = fmaxf(a, b);
  o[FLOOR] = floorf(a);
  o[CEIL] = ceilf(a);
  o[FMA] = fmaf(a, b, -a);
  o[TANH] = tanhf(a * 0.2f);
  o[ERF] = erff(a * 0.1f);
}

// Allowed error in units of the float epsilon relative to |expected| (or an
// absolute floor near zero); 0 means exact.
static double tolerance(int f) {
  switch (f) {
  case SQRT: case FABS: case FMIN: case FMAX: case FLOOR: case CEIL: case FMA:
    return 0.0;
  case POW:
    return 16.0;
  default:
    return 8.0;
  }
}

int main() {
  const int n = 100000;
  float *hx = (float *)malloc(n * sizeof(float));
  float *hy = (float *)malloc(n * sizeof(float));
  float *res = (float *)malloc((size_t)n * NUM_FUNCS * sizeof(float));
  for (int i = 0; i < n; ++i) {
    hx[i] = -50.0f + 100.0f * (float)i / (float)n;     // [-50, 50)
    hy[i] = 0.001f + 1000.0f * (float)(i % 977) / 977.0f; // (0, 1000]
  }
  float *dx, *dy, *dout;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dout, (size_t)n * NUM_FUNCS * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
  evalMath<<<(n + 255) / 256, 256>>>(dx, dy, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dout, (size_t)n * NUM_FUNCS * sizeof(float),
                        cudaMemcpyDeviceToHost));

  const double eps = 1.1920929e-7;
  for (int i = 0; i < n; ++i) {
    double a = hx[i], b = hy[i];
    double e[NUM_FUNCS];
    e[SIN] = sin(a);
    e[COS] = cos(a);
    e[EXP] = exp((double)(hx[i] * 0.1f));
    e[LOG] = log(b);
    e[POW] = pow(b, (double)(hx[i] * 0.05f));
    e[SQRT] = (float)sqrt(b);
    e[RSQRT] = 1.0 / sqrt(b);
    e[FABS] = fabs(a);
    e[FMIN] = a < b ? a : b;
    e[FMAX] = a > b ? a : b;
    e[FLOOR] = floor(a);
    e[CEIL] = ceil(a);
    e[FMA] = fmaf(hx[i], hy[i], -hx[i]); // correctly rounded on the host
    e[TANH] = tanh((double)(hx[i] * 0.2f));
    e[ERF] = erf((double)(hx[i] * 0.1f));
    for (int f = 0; f < NUM_FUNCS; ++f) {
      double got = res[(size_t)i * NUM_FUNCS + f];
      double tol = tolerance(f) * eps * (fabs(e[f]) > 1e-3 ? fabs(e[f]) : 1e-3);
      if (fabs(got - e[f]) > tol) {
        printf("%s mismatch at %d (x=%.9g, y=%.9g): got %.9g, expected %.9g\n",
               kNames[f], i, a, b, got, e[f]);
        printf("FAILED\n");
        return 1;
      }
    }
  }
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  CUDA_CHECK(cudaFree(dout));
  free(hx);
  free(hy);
  free(res);
  printf("PASSED\n");
  return 0;
}

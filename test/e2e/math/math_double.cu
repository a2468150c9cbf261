// Double-precision math functions on the device (sin, cos, exp, log, pow,
// sqrt, rsqrt, fabs, fmin, fmax, floor, ceil, fma, tanh, erf, atan2, cbrt,
// hypot) against the host libm. Correctly rounded operations are exact;
// the rest must agree to a few ulp.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=1,thread=4 -O1 %s -o %t.c1x4 && %t.c1x4 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O1 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
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
  TANH, ERF, ATAN2, CBRT, HYPOT, NUM_FUNCS
};
static const char *kNames[NUM_FUNCS] = {
    "sin",  "cos",  "exp",   "log",  "pow", "sqrt", "rsqrt", "fabs",  "fmin",
    "fmax", "floor", "ceil", "fma", "tanh", "erf", "atan2", "cbrt", "hypot"};

__global__ void evalMath(const double *x, const double *y, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[i], b = y[i];
  double *o = out + (size_t)i * NUM_FUNCS;
  o[SIN] = sin(a);
  o[COS] = cos(a);
  o[EXP] = exp(a * 0.1);
  o[LOG] = log(b);
  o[POW] = pow(b, a * 0.05);
  o[SQRT] = sqrt(b);
  o[RSQRT] = rsqrt(b);
  o[FABS] = fabs(a);
  o[FMIN] = fmin(a, b);
  o[FMAX] = fmax(a, b);
  o[FLOOR] = floor(a);
  o[CEIL] = ceil(a);
  o[FMA] = fma(a, b, -a);
  o[TANH] = tanh(a * 0.2);
  o[ERF] = erf(a * 0.1);
  o[ATAN2] = atan2(a, b - 500.0);
  o[CBRT] = cbrt(a);
  o[HYPOT] = hypot(a, b);
}

static double tolerance(int f) {
  switch (f) {
  case SQRT: case FABS: case FMIN: case FMAX: case FLOOR: case CEIL: case FMA:
    return 0.0;
  default:
    return 8.0;
  }
}

int main() {
  const int n = 60000;
  double *hx = (double *)malloc(n * sizeof(double));
  double *hy = (double *)malloc(n * sizeof(double));
  double *res = (double *)malloc((size_t)n * NUM_FUNCS * sizeof(double));
  for (int i = 0; i < n; ++i) {
    hx[i] = -50.0 + 100.0 * (double)i / (double)n;
    hy[i] = 0.001 + 1000.0 * (double)(i % 977) / 977.0;
  }
  double *dx, *dy, *dout;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dout, (size_t)n * NUM_FUNCS * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(dx, hx, n * sizeof(double), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, hy, n * sizeof(double), cudaMemcpyHostToDevice));
  evalMath<<<(n + 255) / 256, 256>>>(dx, dy, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dout, (size_t)n * NUM_FUNCS * sizeof(double),
                        cudaMemcpyDeviceToHost));

  const double eps = 2.220446049250313e-16;
  for (int i = 0; i < n; ++i) {
    double a = hx[i], b = hy[i];
    double e[NUM_FUNCS];
    e[SIN] = sin(a);
    e[COS] = cos(a);
    e[EXP] = exp(a * 0.1);
    e[LOG] = log(b);
    e[POW] = pow(b, a * 0.05);
    e[SQRT] = sqrt(b);
    e[RSQRT] = 1.0 / sqrt(b);
    e[FABS] = fabs(a);
    e[FMIN] = fmin(a, b);
    e[FMAX] = fmax(a, b);
    e[FLOOR] = floor(a);
    e[CEIL] = ceil(a);
    e[FMA] = fma(a, b, -a);
    e[TANH] = tanh(a * 0.2);
    e[ERF] = erf(a * 0.1);
    e[ATAN2] = atan2(a, b - 500.0);
    e[CBRT] = cbrt(a);
    e[HYPOT] = hypot(a, b);
    for (int f = 0; f < NUM_FUNCS; ++f) {
      double got = res[(size_t)i * NUM_FUNCS + f];
      double tol = tolerance(f) * eps * (fabs(e[f]) > 1e-3 ? fabs(e[f]) : 1e-3);
      if (fabs(got - e[f]) > tol) {
        printf("%s mismatch at %d (x=%.17g, y=%.17g): got %.17g, expected "
               "%.17g\n",
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

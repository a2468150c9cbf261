// Batched LU factorization (Doolittle, no pivoting) of small diagonally
// dominant matrices, one block per matrix, the matrix in shared memory, and
// a loop over the pivot k with barriers inside it. Two kernels: a 2-D block
// of n x n threads (one element each, two barriers per pivot) for n = 8, 13,
// 24, 32; and a 1-D block of n threads (one row each, one barrier per pivot)
// for n = 64 and 96. The host runs the same algorithm; results are compared
// with a relative tolerance, and L * U is checked against A.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O2 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
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

// Deterministic pseudo-random numbers (same sequence on every platform).
static unsigned lcgState = 12345u;
static unsigned lcg() {
  lcgState = lcgState * 1664525u + 1013904223u;
  return lcgState >> 8;
}
#include <cmath>

#define MAXN2D 32
#define MAXN1D 96

__global__ void lu2d(float *mats, int n) {
  __shared__ float a[MAXN2D][MAXN2D + 1];
  float *m = mats + blockIdx.x * n * n;
  int r = threadIdx.y, c = threadIdx.x;
  a[r][c] = m[r * n + c];
  __syncthreads();
  for (int k = 0; k < n - 1; ++k) {
    if (r > k && c == k)
      a[r][k] /= a[k][k]; // multipliers (column k of L)
    __syncthreads();
    if (r > k && c > k)
      a[r][c] -= a[r][k] * a[k][c];
    __syncthreads();
  }
  m[r * n + c] = a[r][c];
}

__global__ void lu1d(float *mats, int n) {
  __shared__ float a[MAXN1D][MAXN1D + 1];
  float *m = mats + blockIdx.x * n * n;
  int r = threadIdx.x;
  for (int c = 0; c < n; ++c)
    a[r][c] = m[r * n + c];
  __syncthreads();
  for (int k = 0; k < n - 1; ++k) {
    if (r > k) {
      float l = a[r][k] / a[k][k];
      a[r][k] = l;
      for (int c = k + 1; c < n; ++c)
        a[r][c] -= l * a[k][c];
    }
    __syncthreads();
  }
  for (int c = 0; c < n; ++c)
    m[r * n + c] = a[r][c];
}

static void hostLU(float *a, int n) {
  for (int k = 0; k < n - 1; ++k)
    for (int r = k + 1; r < n; ++r) {
      a[r * n + k] /= a[k * n + k];
      for (int c = k + 1; c < n; ++c)
        a[r * n + c] -= a[r * n + k] * a[k * n + c];
    }
}

static int check(int n, int batch, bool twoD) {
  size_t total = (size_t)batch * n * n;
  float *h = (float *)malloc(total * sizeof(float));
  float *ref = (float *)malloc(total * sizeof(float));
  float *got = (float *)malloc(total * sizeof(float));
  for (size_t i = 0; i < total; ++i) {
    int r = (int)((i / n) % n), c = (int)(i % n);
    float v = (float)((int)(lcg() % 2001) - 1000) / 1000.0f;
    h[i] = r == c ? v + 2.0f * n : v;
  }
  for (size_t i = 0; i < total; ++i)
    ref[i] = h[i];
  for (int b = 0; b < batch; ++b)
    hostLU(ref + (size_t)b * n * n, n);
  float *d;
  CUDA_CHECK(cudaMalloc(&d, total * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d, h, total * sizeof(float), cudaMemcpyHostToDevice));
  if (twoD)
    lu2d<<<batch, dim3(n, n)>>>(d, n);
  else
    lu1d<<<batch, n>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(got, d, total * sizeof(float), cudaMemcpyDeviceToHost));
  int errors = 0;
  for (size_t i = 0; i < total; ++i)
    if (!(fabsf(got[i] - ref[i]) <= 1e-4f * (1.0f + fabsf(ref[i]))) &&
        ++errors <= 5)
      printf("%s n %d: matrix %zu element (%zu,%zu) = %.7g, expected %.7g\n",
             twoD ? "lu2d" : "lu1d", n, i / (n * n), (i / n) % n, i % n,
             got[i], ref[i]);
  // L * U must give back A.
  for (int b = 0; b < batch; ++b) {
    const float *lu = got + (size_t)b * n * n;
    const float *a = h + (size_t)b * n * n;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        double s = 0;
        for (int k = 0; k <= (r < c ? r : c); ++k)
          s += (k == r ? 1.0 : (double)lu[r * n + k]) * (double)lu[k * n + c];
        if (!(fabs(s - a[r * n + c]) <= 1e-3 * (1.0 + fabs(a[r * n + c]))) &&
            ++errors <= 5)
          printf("%s n %d: (L*U)[%d][%d] of matrix %d = %.7g, A = %.7g\n",
                 twoD ? "lu2d" : "lu1d", n, r, c, b, s, a[r * n + c]);
      }
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  free(ref);
  free(got);
  return errors;
}

int main() {
  int errors = 0;
  errors += check(8, 40, true);
  errors += check(13, 20, true);
  errors += check(24, 12, true);
  errors += check(32, 6, true);
  errors += check(64, 6, false);
  errors += check(96, 4, false);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Many per-thread values computed before a barrier and used after it (some
// live across three barriers, some updated between barriers): int, unsigned,
// float, double, 64-bit integers, a pointer to global memory, a pointer into
// shared memory, a small struct (int, float, short, char), bool, char and
// short. Each thread writes every value out; the host recomputes them.
// Block sizes 256 and 100, several blocks.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=1 -O2 %s -o %t.c2x1 && %t.c2x1 | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
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

struct Small {
  int a;
  float b;
  short c;
  char d;
};

#define NI 10
#define ND 4

__global__ void liveAcross(const int *in, const double *din, long long *outI,
                           double *outD, int *scratch) {
  __shared__ int s[256];
  __shared__ double sd[256];
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  int i32 = in[g] * 3 + tid;
  unsigned u32 = 0x9E3779B9u * (unsigned)g;
  float f = (float)tid * 0.5f + 1.0f;
  double d = din[g] * 0.25;
  long long i64 = ((long long)g << 33) | tid;
  unsigned long long u64 = 0xFFFFFFFF00000000ull + (unsigned long long)g;
  const int *p = in + g;
  int *ps = &scratch[g];
  int *psh = &s[(tid + 1) % n];
  Small st = {tid - 5, (float)tid * 0.25f, (short)(tid * 3), (char)(tid & 0x7f)};
  bool flag = (in[g] & 1) != 0;
  char ch = (char)(g % 100);
  short sh = (short)(-tid);
  s[tid] = i32;
  sd[tid] = d;
  __syncthreads();
  int n1 = *psh;
  double dn = sd[(tid + n - 1) % n];
  i32 += n1;
  f += 1.5f;
  st.a += n1 & 7;
  *ps = n1;
  __syncthreads();
  s[tid] = (int)(u64 & 0xFF) + (flag ? 1000 : 0);
  __syncthreads();
  int n2 = s[n - 1 - tid];
  long long *oi = outI + (long long)g * NI;
  double *od = outD + (long long)g * ND;
  oi[0] = i32;
  oi[1] = u32;
  oi[2] = i64 + n2;
  oi[3] = (long long)u64;
  oi[4] = *p + (ps - scratch) + *ps;
  oi[5] = st.a + st.c + st.d;
  oi[6] = flag + ch + sh;
  oi[7] = n2;
  oi[8] = *psh;
  oi[9] = (long long)(psh - s);
  od[0] = f;
  od[1] = d + dn;
  od[2] = st.b;
  od[3] = (double)f * d;
}

static int check(int bs, int blocks) {
  int n = bs * blocks;
  int *h = (int *)malloc(n * sizeof(int));
  double *hd = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    h[i] = (int)(lcg() % 100000) - 50000;
    hd[i] = (double)(lcg() % 100000) * 0.5;
  }
  int *d, *dScratch;
  double *dd, *dOutD;
  long long *dOutI;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dScratch, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&dd, n * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dOutD, n * ND * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&dOutI, n * NI * sizeof(long long)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dd, hd, n * sizeof(double), cudaMemcpyHostToDevice));
  liveAcross<<<blocks, bs>>>(d, dd, dOutI, dOutD, dScratch);
  CUDA_CHECK(cudaGetLastError());
  long long *gi = (long long *)malloc(n * NI * sizeof(long long));
  double *gd = (double *)malloc(n * ND * sizeof(double));
  CUDA_CHECK(cudaMemcpy(gi, dOutI, n * NI * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(gd, dOutD, n * ND * sizeof(double),
                        cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int g = 0; g < n; ++g) {
    int b = g / bs, tid = g % bs;
    (void)b;
    int nb = b * bs + (tid + 1) % bs;   // neighbour for *psh
    int mir = b * bs + bs - 1 - tid;    // mirror for n2
    int i32 = h[g] * 3 + tid;
    int n1 = h[nb] * 3 + (tid + 1) % bs;
    unsigned u32 = 0x9E3779B9u * (unsigned)g;
    unsigned long long u64 = 0xFFFFFFFF00000000ull + (unsigned long long)g;
    unsigned long long u64m = 0xFFFFFFFF00000000ull + (unsigned long long)mir;
    int n2 = (int)(u64m & 0xFF) + ((h[mir] & 1) ? 1000 : 0);
    int psh2 = (int)((0xFFFFFFFF00000000ull + (unsigned long long)nb) & 0xFF) +
               ((h[nb] & 1) ? 1000 : 0);
    long long i64 = ((long long)g << 33) | tid;
    Small st = {tid - 5, (float)tid * 0.25f, (short)(tid * 3),
                (char)(tid & 0x7f)};
    st.a += n1 & 7;
    bool flag = (h[g] & 1) != 0;
    char ch = (char)(g % 100);
    short sh = (short)(-tid);
    float f = (float)tid * 0.5f + 1.0f + 1.5f;
    double d = hd[g] * 0.25;
    double dn = hd[b * bs + (tid + bs - 1) % bs] * 0.25;
    long long wantI[NI] = {i32 + n1,
                           (long long)u32,
                           i64 + n2,
                           (long long)u64,
                           (long long)h[g] + g + n1,
                           st.a + st.c + st.d,
                           flag + ch + sh,
                           n2,
                           psh2,
                           (tid + 1) % bs};
    double wantD[ND] = {f, d + dn, st.b, (double)f * d};
    for (int k = 0; k < NI; ++k)
      if (gi[g * NI + k] != wantI[k] && ++errors <= 5)
        printf("block size %d: thread %d int value %d = %lld, expected %lld\n",
               bs, g, k, gi[g * NI + k], wantI[k]);
    for (int k = 0; k < ND; ++k)
      if (gd[g * ND + k] != wantD[k] && ++errors <= 5)
        printf("block size %d: thread %d fp value %d = %.17g, expected "
               "%.17g\n",
               bs, g, k, gd[g * ND + k], wantD[k]);
  }
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFree(dScratch));
  CUDA_CHECK(cudaFree(dd));
  CUDA_CHECK(cudaFree(dOutD));
  CUDA_CHECK(cudaFree(dOutI));
  free(h);
  free(hd);
  free(gi);
  free(gd);
  return errors;
}

int main() {
  int errors = 0;
  errors += check(256, 9);
  errors += check(100, 5);
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

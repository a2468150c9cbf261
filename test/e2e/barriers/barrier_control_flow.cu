// Barriers in less common (but block-uniform) control flow: a barrier as the
// first and as the last statement of a kernel, two consecutive barriers, a
// for (;;) loop left with break on a flag read from shared memory after a
// barrier, a loop whose body is skipped with continue on a uniform condition
// before its barrier, a switch on a kernel argument with barriers in the
// cases, a __shared__ array of structs, and a 48 KiB static __shared__ array.
// Block sizes 128 and 200 (and 1024 for the large array).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=2 -O2 %s -o %t.c7x2 && %t.c7x2 | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
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

struct Pair {
  int key;
  float val;
  short tag;
};

__global__ void controlFlow(const int *in, int *out, int sel) {
  __syncthreads(); // first statement
  __shared__ int s[1024];
  __shared__ Pair pairs[1024];
  __shared__ int done;
  int tid = threadIdx.x, n = blockDim.x, g = blockIdx.x * n + tid;
  int v = in[g];
  if (tid == 0)
    done = 0;
  s[tid] = v;
  pairs[tid].key = v * 2;
  pairs[tid].val = (float)tid * 0.5f;
  pairs[tid].tag = (short)(tid % 7);
  __syncthreads();
  __syncthreads(); // consecutive barriers
  int acc = pairs[(tid + 1) % n].key + (int)(pairs[n - 1 - tid].val * 2.0f) +
            pairs[(tid + 2) % n].tag;
  int rounds = 0;
  for (;;) {
    int left = s[(tid + n - 1) % n];
    __syncthreads();
    s[tid] = (s[tid] + left) % 1009;
    ++rounds;
    if (tid == 0 && (s[0] % 5 == 0 || rounds == 40 + (int)blockIdx.x))
      done = rounds;
    __syncthreads();
    if (done)
      break;
  }
  for (int i = 0; i < 8; ++i) {
    if (i % 3 == 1 || i == sel)
      continue;
    int r = s[(tid + i) % n];
    __syncthreads();
    s[tid] = (r * 3 + i) % 10007;
    __syncthreads();
  }
  switch (sel) {
  case 0: {
    int r = s[n - 1 - tid];
    __syncthreads();
    s[tid] = r;
    break;
  }
  case 1:
    s[tid] += 1;
    break;
  default: {
    int r = s[(tid + 5) % n];
    __syncthreads();
    s[tid] = r - 1;
    __syncthreads();
    s[tid] += s[tid] & 1;
    break;
  }
  }
  out[g * 3] = acc;
  out[g * 3 + 1] = done;
  __syncthreads();
  out[g * 3 + 2] = s[(tid + 1) % n];
  __syncthreads(); // last statement
}

#define BIG (48 * 1024 / 4)

__global__ void bigShared(const float *in, float *out) {
  __shared__ float big[BIG];
  int tid = threadIdx.x, n = blockDim.x;
  for (int i = tid; i < BIG; i += n)
    big[i] = in[blockIdx.x * BIG + i];
  __syncthreads();
  for (int i = tid; i < BIG; i += n)
    out[blockIdx.x * BIG + i] = big[BIG - 1 - i] + big[(i + 4096) % BIG];
}

static void hostControlFlow(const int *in, int *out, int n, int bx, int sel) {
  int *s = (int *)malloc(n * sizeof(int));
  int *t = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) {
    s[i] = in[i];
    int k = (i + 1) % n, m = n - 1 - i, q = (i + 2) % n;
    out[i * 3] = in[k] * 2 + (int)((float)m * 0.5f * 2.0f) + q % 7;
  }
  int rounds = 0, done = 0;
  for (;;) {
    for (int i = 0; i < n; ++i)
      t[i] = (s[i] + s[(i + n - 1) % n]) % 1009;
    for (int i = 0; i < n; ++i)
      s[i] = t[i];
    ++rounds;
    if (s[0] % 5 == 0 || rounds == 40 + bx)
      done = rounds;
    if (done)
      break;
  }
  for (int k = 0; k < 8; ++k) {
    if (k % 3 == 1 || k == sel)
      continue;
    for (int i = 0; i < n; ++i)
      t[i] = (s[(i + k) % n] * 3 + k) % 10007;
    for (int i = 0; i < n; ++i)
      s[i] = t[i];
  }
  if (sel == 0) {
    for (int i = 0; i < n; ++i)
      t[i] = s[n - 1 - i];
    for (int i = 0; i < n; ++i)
      s[i] = t[i];
  } else if (sel == 1) {
    for (int i = 0; i < n; ++i)
      s[i] += 1;
  } else {
    for (int i = 0; i < n; ++i)
      t[i] = s[(i + 5) % n] - 1;
    for (int i = 0; i < n; ++i)
      s[i] = t[i] + (t[i] & 1);
  }
  for (int i = 0; i < n; ++i) {
    out[i * 3 + 1] = done;
    out[i * 3 + 2] = s[(i + 1) % n];
  }
  free(s);
  free(t);
}

int main() {
  int errors = 0;
  const int blockSizes[] = {128, 200};
  const int blocks = 5;
  for (int bs : blockSizes) {
    int n = bs * blocks;
    int *h = (int *)malloc(n * sizeof(int));
    int *got = (int *)malloc(3 * n * sizeof(int));
    int *want = (int *)malloc(3 * n * sizeof(int));
    for (int i = 0; i < n; ++i)
      h[i] = (int)(lcg() % 1000);
    int *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dOut, 3 * n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int sel = 0; sel < 3; ++sel) {
      controlFlow<<<blocks, bs>>>(d, dOut, sel);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(got, dOut, 3 * n * sizeof(int),
                            cudaMemcpyDeviceToHost));
      for (int b = 0; b < blocks; ++b)
        hostControlFlow(h + b * bs, want + 3 * b * bs, bs, b, sel);
      for (int i = 0; i < 3 * n; ++i)
        if (got[i] != want[i] && ++errors <= 5)
          printf("controlFlow block %d sel %d: thread %d value %d = %d, "
                 "expected %d\n",
                 bs, sel, i / 3, i % 3, got[i], want[i]);
    }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
    free(want);
  }
  {
    const int blocks2 = 3, n = blocks2 * BIG;
    float *h = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[i] = (float)(lcg() % 100000);
    float *d, *dOut;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dOut, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    bigShared<<<blocks2, 1024>>>(d, dOut);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(got, dOut, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks2; ++b)
      for (int i = 0; i < BIG; ++i) {
        const float *x = h + b * BIG;
        float w = x[BIG - 1 - i] + x[(i + 4096) % BIG];
        if (got[b * BIG + i] != w && ++errors <= 5)
          printf("bigShared: block %d element %d = %g, expected %g\n", b, i,
                 got[b * BIG + i], w);
      }
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(dOut));
    free(h);
    free(got);
  }
  if (errors) {
    printf("%d mismatches\nFAILED\n", errors);
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

// Barriers in more shapes of control flow: a switch on blockIdx % 3 with
// barriers in two cases, a loop that ends when a shared flag set by thread 0
// says so (uniform in practice, but read from memory), a device function
// with barriers that returns a struct and is called in a loop that updates
// a dynamically indexed local array, and a 16x16 2-D block transpose.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// 1. switch on a uniform value with barriers in the cases
__global__ void sw(const int *in, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  int r;
  switch (blockIdx.x % 3) {
  case 0: { int v = s[(t + 1) % 128]; __syncthreads(); s[t] = v * 2; __syncthreads(); r = s[127 - t]; break; }
  case 1: { int v = s[(t + 5) % 128]; __syncthreads(); s[t] = v + 1; __syncthreads(); r = s[t]; break; }
  default: r = s[t] - 7; break;
  }
  out[blockIdx.x * 128 + t] = r;
}

// 2. loop until a shared flag says stop (uniform in practice, loads in the analysis)
__global__ void flagLoop(int *out, int limit) {
  __shared__ int done, acc[64];
  int t = threadIdx.x;
  if (t == 0) done = 0;
  acc[t] = 0;
  __syncthreads();
  int iter = 0;
  for (;;) {
    if (done) break;
    acc[t] += t + iter;
    __syncthreads();
    if (t == 0 && acc[63] > limit) done = 1;
    ++iter;
    __syncthreads();
  }
  out[blockIdx.x * 64 + t] = acc[t] * 1000 + iter;
}

// 3. device function with barrier returning a struct, local array dynamic index
struct Pair { int a, b; };
__device__ Pair exchange(int *s, int v, int k) {
  int t = threadIdx.x;
  s[t] = v;
  __syncthreads();
  Pair p{s[(t + k) % blockDim.x], s[(t + 2 * k) % blockDim.x]};
  __syncthreads();
  return p;
}
__global__ void structs(const int *in, int *out, int rounds) {
  __shared__ int s[256];
  int local[8];
  int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) local[i] = in[t] + i;
  for (int r = 0; r < rounds; ++r) {
    Pair p = exchange(s, local[r % 8], r + 1);
    local[(r + t) % 8] += p.a - p.b;
  }
  int sum = 0;
  for (int i = 0; i < 8; ++i) sum += local[i] * (i + 1);
  out[t] = sum;
}

// 4. 2-D block transpose through shared memory, both dims
__global__ void tr2(const float *in, float *out, int n) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x; y = blockIdx.x * 16 + threadIdx.y;
  if (x < n && y < n) out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  int errors = 0;
  { // sw
    const int B = 6, N = B * 128;
    int h[N], o[N], *d, *dout;
    for (int i = 0; i < N; ++i) h[i] = (i * 37) % 101;
    cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    sw<<<B, 128>>>(d, dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    for (int b = 0; b < B; ++b) for (int t = 0; t < 128; ++t) {
      const int *s = h + b * 128; int want;
      if (b % 3 == 0) want = s[(127 - t + 1) % 128] * 2;
      else if (b % 3 == 1) want = s[(t + 5) % 128] + 1;
      else want = s[t] - 7;
      if (o[b * 128 + t] != want && ++errors < 5) printf("sw b%d t%d %d != %d\n", b, t, o[b*128+t], want);
    }
  }
  { // flagLoop
    int o[2 * 64], *dout; cudaMalloc(&dout, sizeof o);
    flagLoop<<<2, 64>>>(dout, 500);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    int acc[64] = {0}; int iter = 0; bool done = false;
    for (;;) { if (done) break; for (int t = 0; t < 64; ++t) acc[t] += t + iter; if (acc[63] > 500) done = true; ++iter; }
    for (int b = 0; b < 2; ++b) for (int t = 0; t < 64; ++t) if (o[b*64+t] != acc[t]*1000+iter && ++errors < 5) printf("flag t%d %d != %d\n", t, o[b*64+t], acc[t]*1000+iter);
  }
  { // structs
    const int T = 96, R = 11; int h[T], o[T], *d, *dout;
    for (int i = 0; i < T; ++i) h[i] = i * 3 - 50;
    cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    structs<<<1, T>>>(d, dout, R);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    int local[T][8], s[T];
    for (int t = 0; t < T; ++t) for (int i = 0; i < 8; ++i) local[t][i] = h[t] + i;
    for (int r = 0; r < R; ++r) {
      for (int t = 0; t < T; ++t) s[t] = local[t][r % 8];
      int pa[T], pb[T];
      for (int t = 0; t < T; ++t) { pa[t] = s[(t + r + 1) % T]; pb[t] = s[(t + 2 * (r + 1)) % T]; }
      for (int t = 0; t < T; ++t) local[t][(r + t) % 8] += pa[t] - pb[t];
    }
    for (int t = 0; t < T; ++t) { int sum = 0; for (int i = 0; i < 8; ++i) sum += local[t][i] * (i + 1); if (o[t] != sum && ++errors < 5) printf("structs t%d %d != %d\n", t, o[t], sum); }
  }
  { // tr2
    const int n = 50; float h[n * n], o[n * n]; float *d, *dout;
    for (int i = 0; i < n * n; ++i) h[i] = i * 0.5f;
    cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    tr2<<<dim3(4, 4), dim3(16, 16)>>>(d, dout, n);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    for (int y = 0; y < n; ++y) for (int x = 0; x < n; ++x) if (o[y * n + x] != h[x * n + y] && ++errors < 5) printf("tr %d %d\n", x, y);
  }
  printf(errors ? "FAILED %d\n" : "PASSED\n", errors);
  return errors != 0;
}

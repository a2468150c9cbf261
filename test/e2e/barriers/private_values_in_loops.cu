// Per-thread values carried by loops with barriers inside, which the CPU
// back end keeps in thread-private memory (respec-promote-across-barriers
// moves their loads and stores into the barrier intervals that use them):
// a tiled loop's accumulators of three types, values updated under
// branches on the thread index, a swap of two carried values with their
// slots read and written in different intervals, nested loops with
// barriers at both levels, a loop left through __syncthreads_or, and
// carried values used after their loop. The host computes every output.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=barrier-promotion %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O2 --coarsen=block=2,thread=2 %s -o %t.coarse && %t.coarse | FileCheck %s
// CHECK: tiled: ok
// CHECK: swap: ok
// CHECK: nested: ok
// CHECK: until: ok
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <vector>

#define TX 16
#define TY 8

// Row sums of a (rows x cols) matrix by tiles of TX columns: each thread
// keeps a float, a double and a 64-bit integer accumulator across both
// barriers of every tile, and the odd columns add a second term only for
// odd threads.
__global__ void tiledSums(const float *m, int rows, int cols, float *outF,
                          double *outD, long long *outI) {
  __shared__ float tile[TY][TX];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * TY + ty;
  float accF = 0.0f;
  double accD = 1.0;
  long long accI = 0;
  for (int c0 = 0; c0 < cols; c0 += TX) {
    int c = c0 + tx;
    tile[ty][tx] = row < rows && c < cols ? m[row * cols + c] : 0.0f;
    __syncthreads();
    float v = tile[ty][(tx + 1) % TX];
    accF += v;
    if (tx & 1)
      accD += 0.5 * v;
    accI += (long long)(v * 4.0f) * (c0 / TX + 1);
    __syncthreads();
  }
  if (row < rows) {
    int i = row * TX + tx;
    outF[i] = accF;
    outD[i] = accD;
    outI[i] = accI;
  }
}

// Two carried values swapped every step, the new one read from a
// neighbour's shared slot after a barrier.
__global__ void swapSteps(const int *in, int steps, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int prev = in[blockIdx.x * 64 + t];
  int cur = prev + t;
  for (int k = 0; k < steps; ++k) {
    s[t] = cur;
    int old = prev;
    prev = cur;
    __syncthreads();
    cur = old + s[(t + k) % 64];
    __syncthreads();
  }
  out[blockIdx.x * 64 + t] = prev * 3 + cur;
}

// An outer loop with a barrier around an inner loop with barriers, each
// carrying per-thread values.
__global__ void nestedLoops(const float *in, int outer, int inner,
                            float *out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  float total = 0.0f;
  for (int i = 0; i < outer; ++i) {
    float local = in[blockIdx.x * 64 + t] * (i + 1);
    for (int j = 0; j < inner; ++j) {
      s[t] = local;
      __syncthreads();
      local = 0.5f * local + 0.25f * s[(t + j + 1) % 64];
      __syncthreads();
    }
    total += local;
    __syncthreads();
  }
  out[blockIdx.x * 64 + t] = total;
}

// Each thread counts down its own value; the block leaves the loop when no
// thread has work left.
__global__ void untilDone(const int *work, int *steps, int *sums) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int left = work[blockIdx.x * 64 + t];
  int count = 0, sum = 0;
  bool more = true;
  while (__syncthreads_or(more)) {
    s[t] = left;
    __syncthreads();
    if (left > 0) {
      sum += s[(t + 1) % 64];
      --left;
      ++count;
    }
    more = left > 0;
  }
  steps[blockIdx.x * 64 + t] = count;
  sums[blockIdx.x * 64 + t] = sum;
}

static bool checkTiled() {
  const int rows = 37, cols = 83;
  std::vector<float> m(rows * cols);
  for (int i = 0; i < rows * cols; ++i)
    m[i] = (float)((i * 7) % 23) * 0.25f - 2.0f;
  int blocks = (rows + TY - 1) / TY;
  int outs = blocks * TY * TX;
  float *dm, *dF;
  double *dD;
  long long *dI;
  cudaMalloc(&dm, m.size() * sizeof(float));
  cudaMalloc(&dF, outs * sizeof(float));
  cudaMalloc(&dD, outs * sizeof(double));
  cudaMalloc(&dI, outs * sizeof(long long));
  cudaMemcpy(dm, m.data(), m.size() * sizeof(float), cudaMemcpyHostToDevice);
  tiledSums<<<blocks, dim3(TX, TY)>>>(dm, rows, cols, dF, dD, dI);
  std::vector<float> f(outs);
  std::vector<double> d(outs);
  std::vector<long long> n(outs);
  cudaMemcpy(f.data(), dF, outs * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(d.data(), dD, outs * sizeof(double), cudaMemcpyDeviceToHost);
  cudaMemcpy(n.data(), dI, outs * sizeof(long long), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int row = 0; row < rows; ++row)
    for (int tx = 0; tx < TX; ++tx) {
      float accF = 0.0f;
      double accD = 1.0;
      long long accI = 0;
      for (int c0 = 0; c0 < cols; c0 += TX) {
        int c = c0 + (tx + 1) % TX;
        float v = c < cols ? m[row * cols + c] : 0.0f;
        accF += v;
        if (tx & 1)
          accD += 0.5 * v;
        accI += (long long)(v * 4.0f) * (c0 / TX + 1);
      }
      int i = row * TX + tx;
      if (std::fabs(f[i] - accF) > 1e-4f || d[i] != accD || n[i] != accI) {
        if (ok)
          printf("tiled: row %d thread %d: %g %g %lld, expected %g %g %lld\n",
                 row, tx, f[i], d[i], n[i], accF, accD, accI);
        ok = false;
      }
    }
  cudaFree(dm);
  cudaFree(dF);
  cudaFree(dD);
  cudaFree(dI);
  printf("tiled: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

static bool checkSwap() {
  const int blocks = 3, steps = 11, n = blocks * 64;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 13) % 17 - 8;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  swapSteps<<<blocks, 64>>>(din, steps, dout);
  cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> prev(64), cur(64);
    for (int t = 0; t < 64; ++t) {
      prev[t] = in[b * 64 + t];
      cur[t] = prev[t] + t;
    }
    for (int k = 0; k < steps; ++k) {
      std::vector<int> s = cur, next(64);
      for (int t = 0; t < 64; ++t)
        next[t] = prev[t] + s[(t + k) % 64];
      prev = cur;
      cur = next;
    }
    for (int t = 0; t < 64; ++t)
      if (out[b * 64 + t] != prev[t] * 3 + cur[t]) {
        if (ok)
          printf("swap: block %d thread %d: %d, expected %d\n", b, t,
                 out[b * 64 + t], prev[t] * 3 + cur[t]);
        ok = false;
      }
  }
  cudaFree(din);
  cudaFree(dout);
  printf("swap: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

static bool checkNested() {
  const int blocks = 2, outer = 4, inner = 5, n = blocks * 64;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (float)((i * 5) % 9) - 4.0f;
  float *din, *dout;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  nestedLoops<<<blocks, 64>>>(din, outer, inner, dout);
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> total(64, 0.0f);
    for (int i = 0; i < outer; ++i) {
      std::vector<float> local(64);
      for (int t = 0; t < 64; ++t)
        local[t] = in[b * 64 + t] * (i + 1);
      for (int j = 0; j < inner; ++j) {
        std::vector<float> s = local;
        for (int t = 0; t < 64; ++t)
          local[t] = 0.5f * local[t] + 0.25f * s[(t + j + 1) % 64];
      }
      for (int t = 0; t < 64; ++t)
        total[t] += local[t];
    }
    for (int t = 0; t < 64; ++t)
      if (std::fabs(out[b * 64 + t] - total[t]) > 1e-4f) {
        if (ok)
          printf("nested: block %d thread %d: %g, expected %g\n", b, t,
                 out[b * 64 + t], total[t]);
        ok = false;
      }
  }
  cudaFree(din);
  cudaFree(dout);
  printf("nested: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

static bool checkUntil() {
  const int blocks = 2, n = blocks * 64;
  std::vector<int> work(n), steps(n), sums(n);
  for (int i = 0; i < n; ++i)
    work[i] = (i * 7) % 11;
  int *dwork, *dsteps, *dsums;
  cudaMalloc(&dwork, n * sizeof(int));
  cudaMalloc(&dsteps, n * sizeof(int));
  cudaMalloc(&dsums, n * sizeof(int));
  cudaMemcpy(dwork, work.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  untilDone<<<blocks, 64>>>(dwork, dsteps, dsums);
  cudaMemcpy(steps.data(), dsteps, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(sums.data(), dsums, n * sizeof(int), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> left(64), count(64, 0), sum(64, 0);
    for (int t = 0; t < 64; ++t)
      left[t] = work[b * 64 + t];
    bool more = true;
    while (more) {
      std::vector<int> s = left;
      more = false;
      for (int t = 0; t < 64; ++t) {
        if (left[t] > 0) {
          sum[t] += s[(t + 1) % 64];
          --left[t];
          ++count[t];
        }
        more = more || left[t] > 0;
      }
    }
    for (int t = 0; t < 64; ++t)
      if (steps[b * 64 + t] != count[t] || sums[b * 64 + t] != sum[t]) {
        if (ok)
          printf("until: block %d thread %d: %d %d, expected %d %d\n", b, t,
                 steps[b * 64 + t], sums[b * 64 + t], count[t], sum[t]);
        ok = false;
      }
  }
  cudaFree(dwork);
  cudaFree(dsteps);
  cudaFree(dsums);
  printf("until: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

int main() {
  bool ok = checkTiled();
  ok = checkSwap() && ok;
  ok = checkNested() && ok;
  ok = checkUntil() && ok;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

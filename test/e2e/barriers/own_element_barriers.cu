// Barriers between accesses where each thread touches only its own
// elements (respec-eliminate-barriers proves them unneeded by raising the
// addresses to affine maps of the thread indices), next to barriers that
// are needed (a neighbour's element, a column written by other threads, a
// tree reduction). Launched with block sizes known at the launch (the
// analysis needs them) and with one known only at run time. The host
// computes every output.
// RUN: %respec -O2 %s -o %t && %t 64 | FileCheck %s
// RUN: %respec -O2 --disable-opt=barrier-elim %s -o %t.off && %t.off 64 | FileCheck %s
// RUN: %respec -O2 --coarsen=block=2,thread=2 %s -o %t.coarse && %t.coarse 64 | FileCheck %s
// RUN: %t 48 | FileCheck %s
// CHECK: layer: ok
// CHECK: smooth: ok
// CHECK: PASSED

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define W 16
#define H 8

// A layer's weighted inputs summed over rows, as in backprop's forward
// kernel: the second barrier only separates each thread's write of its
// own weight from its own read-modify-write; the first orders node[],
// written by the threads of column 0, and the reduction's are all needed.
__global__ void layer(const float *in, const float *weights, float *sums) {
  __shared__ float node[H];
  __shared__ float w[H][W];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * H + ty;
  if (tx == 0)
    node[ty] = in[row];
  __syncthreads();
  w[ty][tx] = weights[row * W + tx];
  __syncthreads();
  w[ty][tx] = w[ty][tx] * node[ty];
  __syncthreads();
  for (int half = H / 2; half > 0; half /= 2) {
    if (ty < half)
      w[ty][tx] += w[ty + half][tx];
    __syncthreads();
  }
  if (ty == 0)
    sums[blockIdx.x * W + tx] = w[0][tx];
}

// Each thread scales its own element of the tile and of the array between
// two barriers, the first of which orders nothing across threads; the
// second orders the neighbour's element.
__global__ void smooth(float *data, int n) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? data[i] : 0.0f;
  if (i < n)
    data[i] = 1.0f;
  __syncthreads();
  s[t] = s[t] * 2.0f;
  if (i < n)
    data[i] += s[t];
  __syncthreads();
  float right = t + 1 < (int)blockDim.x ? s[t + 1] : 0.0f;
  if (i < n)
    data[i] += right;
}

static bool checkLayer() {
  const int blocks = 5, rows = blocks * H;
  std::vector<float> in(rows), weights(rows * W), sums(blocks * W);
  for (int i = 0; i < rows; ++i)
    in[i] = (float)(i % 7) - 3.0f;
  for (int i = 0; i < rows * W; ++i)
    weights[i] = (float)((i * 5) % 11) * 0.5f;
  float *din, *dw, *ds;
  cudaMalloc(&din, rows * sizeof(float));
  cudaMalloc(&dw, rows * W * sizeof(float));
  cudaMalloc(&ds, blocks * W * sizeof(float));
  cudaMemcpy(din, in.data(), rows * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, weights.data(), rows * W * sizeof(float),
             cudaMemcpyHostToDevice);
  layer<<<blocks, dim3(W, H)>>>(din, dw, ds);
  cudaMemcpy(sums.data(), ds, blocks * W * sizeof(float),
             cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int tx = 0; tx < W; ++tx) {
      // The same tree as the kernel, so that rounding agrees.
      float w[H];
      for (int ty = 0; ty < H; ++ty)
        w[ty] = weights[(b * H + ty) * W + tx] * in[b * H + ty];
      for (int half = H / 2; half > 0; half /= 2)
        for (int ty = 0; ty < half; ++ty)
          w[ty] += w[ty + half];
      if (sums[b * W + tx] != w[0]) {
        if (ok)
          printf("layer: block %d column %d: %g, expected %g\n", b, tx,
                 sums[b * W + tx], w[0]);
        ok = false;
      }
    }
  cudaFree(din);
  cudaFree(dw);
  cudaFree(ds);
  printf("layer: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

static bool checkSmooth(int block) {
  const int n = 1000, blocks = (n + block - 1) / block;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (float)((i * 3) % 13) - 6.0f;
  float *data;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemcpy(data, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (block == 64)
    smooth<<<blocks, 64, 64 * sizeof(float)>>>(data, n);
  else
    smooth<<<blocks, block, block * sizeof(float)>>>(data, n);
  cudaMemcpy(out.data(), data, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int t = i % block;
    float right = t + 1 < block && i + 1 < n ? 2.0f * in[i + 1] : 0.0f;
    float expected = 1.0f + 2.0f * in[i] + right;
    if (out[i] != expected) {
      if (ok)
        printf("smooth: element %d: %g, expected %g\n", i, out[i], expected);
      ok = false;
    }
  }
  cudaFree(data);
  printf("smooth: %s\n", ok ? "ok" : "FAILED");
  return ok;
}

int main(int argc, char **argv) {
  int block = argc > 1 ? atoi(argv[1]) : 64;
  bool ok = checkLayer();
  ok = checkSmooth(block) && ok;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

// NN: forward and backward pass of a fully connected sigmoid layer
// y = sigmoid(W x + b) over a batch, with the squared error against targets.
// Forward: one block per (output neuron, sample), a strided partial dot
// product per thread and a shared-memory tree reduction. Backward: the
// output error delta = (y - t) y (1 - y); the weight gradient
// dW = delta^T X as 16x16 tiles (each thread one weight, the batch staged
// in shared memory 16 samples at a time); the bias gradient as one tree
// reduction over the batch per neuron.
#include "common.h"
#include <cuda_runtime.h>

#ifndef BATCH
#define BATCH 64
#endif
#ifndef IN
#define IN 2048
#endif
#ifndef OUT
#define OUT 1024
#endif
#define BLOCK 256
#define TILE 16

__global__ void layerForward(const float *x, const float *w, const float *b,
                             const float *target, float *y, float *delta,
                             int in, int out) {
  __shared__ float part[BLOCK];
  int j = blockIdx.x, s = blockIdx.y, t = threadIdx.x;
  const float *wj = w + (size_t)j * in, *xs = x + (size_t)s * in;
  float acc = 0.0f;
  for (int i = t; i < in; i += BLOCK)
    acc += wj[i] * xs[i];
  part[t] = acc;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      part[t] += part[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    float v = 1.0f / (1.0f + expf(-(part[0] + b[j])));
    size_t k = (size_t)s * out + j;
    y[k] = v;
    delta[k] = (v - target[k]) * v * (1.0f - v);
  }
}

// dW[j][i] = sum_s delta[s][j] x[s][i]: block (i tile, j tile).
__global__ void weightGradient(const float *x, const float *delta, float *dw,
                               int batch, int in, int out) {
  __shared__ float ds[TILE][TILE]; // ds[s][j]
  __shared__ float xs[TILE][TILE]; // xs[s][i]
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = blockIdx.x * TILE + tx, j = blockIdx.y * TILE + ty;
  float acc = 0.0f;
  for (int s0 = 0; s0 < batch; s0 += TILE) {
    ds[ty][tx] = delta[(size_t)(s0 + ty) * out + blockIdx.y * TILE + tx];
    xs[ty][tx] = x[(size_t)(s0 + ty) * in + i];
    __syncthreads();
    for (int s = 0; s < TILE; ++s)
      acc += ds[s][ty] * xs[s][tx];
    __syncthreads();
  }
  dw[(size_t)j * in + i] = acc;
}

// db[j] = sum_s delta[s][j]: one block per neuron.
__global__ void biasGradient(const float *delta, float *db, int batch,
                             int out) {
  __shared__ float part[BLOCK];
  int j = blockIdx.x, t = threadIdx.x;
  float acc = 0.0f;
  for (int s = t; s < batch; s += BLOCK)
    acc += delta[(size_t)s * out + j];
  part[t] = acc;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      part[t] += part[t + stride];
    __syncthreads();
  }
  if (t == 0)
    db[j] = part[0];
}

int main() {
  const int batch = BATCH, in = IN, out = OUT;
  std::vector<float> x, w, b, target;
  makeLayer(batch, in, out, x, w, b, target);
  std::vector<float> y((size_t)batch * out), dw((size_t)out * in), db(out);
  float *dX, *dW, *dB, *dT, *dY, *dDelta, *dDw, *dDb;
  cudaMalloc(&dX, x.size() * sizeof(float));
  cudaMalloc(&dW, w.size() * sizeof(float));
  cudaMalloc(&dB, b.size() * sizeof(float));
  cudaMalloc(&dT, target.size() * sizeof(float));
  cudaMalloc(&dY, y.size() * sizeof(float));
  cudaMalloc(&dDelta, y.size() * sizeof(float));
  cudaMalloc(&dDw, dw.size() * sizeof(float));
  cudaMalloc(&dDb, db.size() * sizeof(float));
  cudaMemcpy(dX, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dW, w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dT, target.data(), target.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  timeIt([&] {
    layerForward<<<dim3(out, batch), BLOCK>>>(dX, dW, dB, dT, dY, dDelta, in,
                                              out);
    weightGradient<<<dim3(in / TILE, out / TILE), dim3(TILE, TILE)>>>(
        dX, dDelta, dDw, batch, in, out);
    biasGradient<<<out, BLOCK>>>(dDelta, dDb, batch, out);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(y.data(), dY, y.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(dw.data(), dDw, dw.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(db.data(), dDb, db.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printChecksum(checksum(y) + 1e3 * checksum(dw) + 1e3 * checksum(db));
  cudaFree(dX);
  cudaFree(dW);
  cudaFree(dB);
  cudaFree(dT);
  cudaFree(dY);
  cudaFree(dDelta);
  cudaFree(dDw);
  cudaFree(dDb);
  return 0;
}

// NN: forward and backward pass of a fully connected sigmoid layer
// y = sigmoid(W x + b) over a batch, with the squared error against targets:
// forward as one vectorized dot product per (sample, neuron), the output
// error delta = (y - t) y (1 - y), the weight gradient dW = delta^T X row by
// row (each row of dW an axpy over the batch) and the bias gradient.
#include "common.h"

#ifndef BATCH
#define BATCH 64
#endif
#ifndef IN
#define IN 2048
#endif
#ifndef OUT
#define OUT 1024
#endif

int main() {
  const int batch = BATCH, in = IN, out = OUT;
  std::vector<float> x, w, b, target;
  makeLayer(batch, in, out, x, w, b, target);
  std::vector<float> y((size_t)batch * out), delta((size_t)batch * out),
      dw((size_t)out * in), db(out);
  timeIt([&] {
#pragma omp parallel
    {
#pragma omp for collapse(2) schedule(static)
      for (int s = 0; s < batch; ++s)
        for (int j = 0; j < out; ++j) {
          const float *wj = &w[(size_t)j * in], *xs = &x[(size_t)s * in];
          float acc = 0.0f;
#pragma omp simd reduction(+ : acc)
          for (int i = 0; i < in; ++i)
            acc += wj[i] * xs[i];
          float v = 1.0f / (1.0f + std::exp(-(acc + b[j])));
          size_t k = (size_t)s * out + j;
          y[k] = v;
          delta[k] = (v - target[k]) * v * (1.0f - v);
        }
#pragma omp for schedule(static)
      for (int j = 0; j < out; ++j) {
        float *g = &dw[(size_t)j * in];
        for (int i = 0; i < in; ++i)
          g[i] = 0.0f;
        float gb = 0.0f;
        for (int s = 0; s < batch; ++s) {
          float d = delta[(size_t)s * out + j];
          const float *xs = &x[(size_t)s * in];
          for (int i = 0; i < in; ++i)
            g[i] += d * xs[i];
          gb += d;
        }
        db[j] = gb;
      }
    }
  });
  printChecksum(checksum(y) + 1e3 * checksum(dw) + 1e3 * checksum(db));
  return 0;
}

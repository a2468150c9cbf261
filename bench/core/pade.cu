// PADE: backward pass of a Pade activation unit (the "safe" rational
// activation y = P(x) / Q(x), P(x) = a_0 + a_1 x + ... + a_5 x^5,
// Q(x) = 1 + |b_1 x + ... + b_4 x^4|) for a batch of independent units,
// each with its own coefficients and G * PER_LANE inputs. Given the
// upstream gradient dy it computes dx for every input and the gradients of
// the coefficients, summed over the unit's inputs. Register-cache style: one
// group of G threads per unit, each thread holding the coefficients and its
// partial gradient sums in registers; the sums are reduced over the group
// with a __shfl_xor_sync butterfly.
#ifndef GROUP
#define GROUP 32
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define FULL_MASK 0xffffffffu
#define NUM 6      // numerator coefficients a_0 .. a_5
#define DEN 4      // denominator coefficients b_1 .. b_4
#define PER_LANE 4 // inputs per thread

template <typename T, int G>
__global__ void padeBackward(const T *X, const T *DY, const T *A, const T *B,
                             T *DX, T *DA, T *DB, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  // Every thread of a warp takes part in the shuffles: threads past the
  // batch work on the last problem and store nothing.
  bool active = problem < batch;
  size_t p = active ? problem : batch - 1;
  T a[NUM], b[DEN], da[NUM], db[DEN];
#pragma unroll
  for (int j = 0; j < NUM; ++j) {
    a[j] = A[p * NUM + j];
    da[j] = 0;
  }
#pragma unroll
  for (int k = 0; k < DEN; ++k) {
    b[k] = B[p * DEN + k];
    db[k] = 0;
  }

#pragma unroll
  for (int r = 0; r < PER_LANE; ++r) {
    size_t e = p * G * PER_LANE + r * G + lane;
    T x = X[e], dy = DY[e];
    T xp[NUM]; // powers of x
    xp[0] = 1;
#pragma unroll
    for (int j = 1; j < NUM; ++j)
      xp[j] = xp[j - 1] * x;
    T P = a[0], dP = 0, S = 0, dS = 0; // S = Q - 1 before the |.|
#pragma unroll
    for (int j = 1; j < NUM; ++j) {
      P += a[j] * xp[j];
      dP += j * a[j] * xp[j - 1];
    }
#pragma unroll
    for (int k = 0; k < DEN; ++k) {
      S += b[k] * xp[k + 1];
      dS += (k + 1) * b[k] * xp[k];
    }
    T sign = S > 0 ? T(1) : S < 0 ? T(-1) : T(0);
    T invQ = 1 / (1 + sign * S);
    T y = P * invQ;
    if (active)
      DX[e] = dy * (dP - y * sign * dS) * invQ;
#pragma unroll
    for (int j = 0; j < NUM; ++j)
      da[j] += dy * xp[j] * invQ;
#pragma unroll
    for (int k = 0; k < DEN; ++k)
      db[k] -= dy * y * invQ * sign * xp[k + 1];
  }

  // Butterfly: afterwards every lane holds the group's sums.
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2) {
#pragma unroll
    for (int j = 0; j < NUM; ++j)
      da[j] += __shfl_xor_sync(FULL_MASK, da[j], offset, G);
#pragma unroll
    for (int k = 0; k < DEN; ++k)
      db[k] += __shfl_xor_sync(FULL_MASK, db[k], offset, G);
  }
  if (active && lane == 0) {
#pragma unroll
    for (int j = 0; j < NUM; ++j)
      DA[p * NUM + j] = da[j];
#pragma unroll
    for (int k = 0; k < DEN; ++k)
      DB[p * DEN + k] = db[k];
  }
}

template <typename T> static T *toDevice(const std::vector<T> &h) {
  T *d;
  cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T> static void toHost(std::vector<T> &h, const T *d) {
  cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost);
}

int main() {
  const int G = GROUP, elems = G * PER_LANE;
  std::vector<Real> X, DY, A, B;
  makePade(elems, NUM, DEN, X, DY, A, B);
  std::vector<Real> DX(X.size()), DA(A.size()), DB(B.size());
  Real *dX = toDevice(X), *dDY = toDevice(DY), *dA = toDevice(A),
       *dB = toDevice(B), *dDX = toDevice(DX), *dDA = toDevice(DA),
       *dDB = toDevice(DB);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    padeBackward<Real, G>
        <<<blocks, BLOCK>>>(dX, dDY, dA, dB, dDX, dDA, dDB, BATCH);
    cudaDeviceSynchronize();
  });
  toHost(DX, dDX);
  toHost(DA, dDA);
  toHost(DB, dDB);
  printChecksum(checksum(DX) + checksum(DA) + checksum(DB));
  for (Real *d : {dX, dDY, dA, dB, dDX, dDA, dDB})
    cudaFree(d);
  return 0;
}

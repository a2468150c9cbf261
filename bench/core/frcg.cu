// FRCG: Fletcher-Reeves nonlinear conjugate gradient on a batch of chained
// Rosenbrock functions of dimension G,
//   f(x) = sum_{i < G-1} 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2,
// ITERS iterations from different starting points, each with a backtracking
// (Armijo) line search of at most TRIALS halvings, restarted every G
// iterations. Register-cache style: one group of G threads per problem,
// lane i owning coordinate i of x, of the gradient and of the direction;
// neighbours come from __shfl_down_sync / __shfl_up_sync and dot products
// from a __shfl_xor_sync butterfly, which leaves the same sum in every lane
// so the group's branches stay uniform. The line searches of different
// groups of one warp end at different trials, so the shuffles name only the
// group's lanes in their mask.
#ifndef GROUP
#define GROUP 16
#endif
// Smaller than the suite's 100000: respec needs 5-15 s per launch for that.
#ifndef BATCH
#define BATCH 20000
#endif
#include "common.h"
#include <cuda_runtime.h>

#define BLOCK 256
#define ITERS 30
#define TRIALS 20

template <int G> __device__ unsigned groupMask() {
  unsigned bits = G == 32 ? 0xffffffffu : (1u << G) - 1;
  return bits << (threadIdx.x % 32 / G * G);
}

template <typename T, int G> __device__ T groupSum(T v) {
#pragma unroll
  for (int offset = G / 2; offset > 0; offset /= 2)
    v += __shfl_xor_sync(groupMask<G>(), v, offset, G);
  return v;
}

template <typename T, int G> __device__ T rosenbrock(T x, int lane) {
  T next = __shfl_down_sync(groupMask<G>(), x, 1, G);
  T t = next - x * x, u = 1 - x;
  return groupSum<T, G>(lane < G - 1 ? 100 * t * t + u * u : T(0));
}

template <typename T, int G> __device__ T gradient(T x, int lane) {
  T next = __shfl_down_sync(groupMask<G>(), x, 1, G);
  T prev = __shfl_up_sync(groupMask<G>(), x, 1, G);
  T g = 0;
  if (lane < G - 1)
    g += -400 * x * (next - x * x) - 2 * (1 - x);
  if (lane > 0)
    g += 200 * (x - prev * prev);
  return g;
}

template <typename T, int G>
__global__ void frcg(const T *X0, T *X, T *F, int batch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  if (problem >= batch) // whole groups leave: they are not in other masks
    return;
  T x = X0[(size_t)problem * G + lane];
  T f = rosenbrock<T, G>(x, lane), g = gradient<T, G>(x, lane), d = -g;
  T gg = groupSum<T, G>(g * g), step = T(1e-3);
  for (int it = 0; it < ITERS; ++it) {
    T slope = groupSum<T, G>(g * d);
    if (slope >= 0) { // not a descent direction: restart
      d = -g;
      slope = -gg;
    }
    T alpha = 2 * step, xt = x, ft = f;
    for (int t = 0; t < TRIALS; ++t) {
      xt = x + alpha * d;
      ft = rosenbrock<T, G>(xt, lane);
      if (ft <= f + T(1e-4) * alpha * slope)
        break;
      alpha /= 2;
    }
    x = xt;
    f = ft;
    step = alpha;
    T gn = gradient<T, G>(x, lane), ggn = groupSum<T, G>(gn * gn);
    T beta = (it + 1) % G == 0 || gg == 0 ? T(0) : ggn / gg;
    d = -gn + beta * d;
    g = gn;
    gg = ggn;
  }
  X[(size_t)problem * G + lane] = x;
  if (lane == 0)
    F[problem] = f;
}

int main() {
  const int G = GROUP;
  std::vector<Real> X0 = makeStarts<Real>(G), X(X0.size()), F(BATCH);
  size_t bytes = X0.size() * sizeof(Real);
  Real *dX0, *dX, *dF;
  cudaMalloc(&dX0, bytes);
  cudaMalloc(&dX, bytes);
  cudaMalloc(&dF, BATCH * sizeof(Real));
  cudaMemcpy(dX0, X0.data(), bytes, cudaMemcpyHostToDevice);
  int blocks = (BATCH * G + BLOCK - 1) / BLOCK;
  timeIt([&] {
    frcg<Real, G><<<blocks, BLOCK>>>(dX0, dX, dF, BATCH);
    cudaDeviceSynchronize();
  });
  cudaMemcpy(X.data(), dX, bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(F.data(), dF, BATCH * sizeof(Real), cudaMemcpyDeviceToHost);
  printChecksum(checksum(X) + checksum(F));
  cudaFree(dX0);
  cudaFree(dX);
  cudaFree(dF);
  return 0;
}

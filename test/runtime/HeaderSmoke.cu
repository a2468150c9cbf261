// Compiled by the runtime tests with respec's CUDA headers and no toolkit
// (host and device side) to check that a typical program parses.
#include <cuda_runtime.h>
#include <cstdio>
#include <cmath>
#include <cassert>

__constant__ float coeffs[4] = {1, 2, 3, 4};
__device__ int counter;

__device__ float helper(float x) { return sinf(x) + expf(x) + __expf(x) + sqrt(x) + fminf(x, 1.0f) + rsqrtf(x) + __fdividef(x, 2.0f); }

__global__ void kernel(float *out, const float *in, int n, double *d, unsigned long long *u) {
  extern __shared__ float dyn[];
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  float v = tile[threadIdx.x] * coeffs[i % 4];
  v += __shfl_down_sync(0xffffffff, v, 1);
  v += __shfl_xor_sync(0xffffffff, v, 2);
  if (i < n) out[i] = helper(v) + warpSize + gridDim.x;
  atomicAdd(&counter, 1); atomicAdd(out, 1.0f); atomicAdd(d, 2.0); atomicAdd(u, 1ull);
  atomicSub(&counter, 1); atomicExch(&counter, 3); atomicMin(&counter, 1); atomicMax((unsigned*)&counter, 2u);
  atomicInc((unsigned*)&counter, 5u); atomicDec((unsigned*)&counter, 5u); atomicCAS(&counter, 1, 2); atomicAnd(&counter, 1); atomicOr(u, 1ull); atomicXor(&counter, 7);
  dim3 t = threadIdx; (void)t;
  assert(i >= 0);
  if (i == 0) printf("hello %d %f %s\n", i, v, "x");
  dyn[threadIdx.x] = std::sqrt(v) + std::pow(v, 2.0f) + cosf(v) + __popc(i) + __clz(i) + max(i, 2) + min(1.5f, v) + __saturatef(v);
}

__host__ __device__ float both(float x) { return rsqrtf(x) + sinf(x); }

int main() {
  float *d;
  cudaMalloc(&d, 100 * sizeof(float));
  cudaStream_t s; cudaStreamCreate(&s);
  kernel<<<dim3(4), dim3(256), 1024, s>>>(d, d, 100, nullptr, nullptr);
  cudaError_t e = cudaGetLastError();
  printf("%s %f\n", cudaGetErrorString(e), both(1.0f));
  float h = 1; cudaMemcpyToSymbol(coeffs, &h, sizeof(float));
  int minGrid, block; cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, 0, 0);
  cudaDeviceSynchronize();
  return 0;
}

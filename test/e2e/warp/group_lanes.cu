// Register-cache kernels whose shuffles stay within groups of G threads
// (G = 4, 8, 16) run in SIMD groups narrower than the warp, with the
// problem index computed once per group and the rows loaded and stored as
// vectors. Checked against the host for: threads past the batch working on
// the last problem (clamped index, stores skipped), a block of 96 threads
// (three warps), a 2-D block (8 x 12), a 1-D block of 40 threads whose last
// warp is partial, a butterfly with small offsets inside a full-width
// shuffle, and every group size the driver may pick (--warp-lanes).
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --warp-lanes=1 %s -o %t.narrow && %t.narrow | FileCheck %s
// RUN: %respec -O2 --warp-lanes=16 %s -o %t.packed && %t.packed | FileCheck %s
// RUN: %respec -O2 --warp-lanes=32 %s -o %t.warps && %t.warps | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: rows G=4: ok
// CHECK: rows G=8: ok
// CHECK: rows G=16: ok
// CHECK: 2-D block: ok
// CHECK: partial warp: ok
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#define FULL 0xffffffffu

// Each problem is a row of G values with a stride of `pitch` elements; the
// result is the row's values plus the row's first element plus the prefix
// sums of the row (an up-scan within the group).
template <int G>
__global__ void rows(const float *in, float *out, int batch, int pitch) {
  int problem = (blockIdx.x * blockDim.x + threadIdx.x) / G;
  int lane = threadIdx.x % G;
  bool active = problem < batch;
  int p = active ? problem : batch - 1;
  float v = in[p * pitch + lane];
  float first = __shfl_sync(FULL, v, 0, G);
  float scan = v;
#pragma unroll
  for (int d = 1; d < G; d *= 2) {
    float up = __shfl_up_sync(FULL, scan, d, G);
    if (lane >= d)
      scan += up;
  }
  if (active)
    out[p * pitch + lane] = v + first + scan;
}

// A 2-D block of 8 x 12 threads: a row of 8 threads per problem, pairs of
// neighbours exchanged by a butterfly with offset 1 (width 32).
__global__ void pairs(const int *in, int *out) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int x = threadIdx.x;
  int v = in[row * 8 + x];
  int other = __shfl_xor_sync(FULL, v, 1);
  out[row * 8 + x] = v * 10 + other;
}

// 40 threads per block: the second warp has 8 lanes. Groups of 4.
__global__ void partial(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int sum = v + __shfl_down_sync(FULL, v, 1, 4);
  sum += __shfl_down_sync(FULL, sum, 2, 4);
  out[t] = sum;
}

template <int G> bool checkRows() {
  const int batch = 1000, pitch = G + 3, block = 96;
  std::vector<float> in(batch * pitch), out(batch * pitch, -1.0f);
  for (int i = 0; i < batch * pitch; ++i)
    in[i] = float((i * 7) % 23);
  float *dIn, *dOut;
  cudaMalloc(&dIn, in.size() * sizeof(float));
  cudaMalloc(&dOut, out.size() * sizeof(float));
  cudaMemcpy(dIn, in.data(), in.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dOut, out.data(), out.size() * sizeof(float),
             cudaMemcpyHostToDevice);
  int blocks = (batch * G + block - 1) / block;
  rows<G><<<blocks, block>>>(dIn, dOut, batch, pitch);
  cudaMemcpy(out.data(), dOut, out.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  for (int p = 0; p < batch; ++p) {
    float scan = 0;
    for (int j = 0; j < pitch; ++j) {
      float expected = -1.0f;
      if (j < G) {
        scan += in[p * pitch + j];
        expected = in[p * pitch + j] + in[p * pitch] + scan;
      }
      if (out[p * pitch + j] != expected) {
        printf("rows G=%d: problem %d element %d: %f, expected %f\n", G, p, j,
               out[p * pitch + j], expected);
        return false;
      }
    }
  }
  printf("rows G=%d: ok\n", G);
  return true;
}

bool checkPairs() {
  const int rowsPerBlock = 12, blocks = 5, n = rowsPerBlock * blocks * 8;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = (i * 13) % 31;
  int *dIn, *dOut;
  cudaMalloc(&dIn, n * sizeof(int));
  cudaMalloc(&dOut, n * sizeof(int));
  cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  pairs<<<blocks, dim3(8, rowsPerBlock)>>>(dIn, dOut);
  cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  for (int i = 0; i < n; ++i)
    if (out[i] != in[i] * 10 + in[i ^ 1]) {
      printf("2-D block: element %d: %d, expected %d\n", i, out[i],
             in[i] * 10 + in[i ^ 1]);
      return false;
    }
  printf("2-D block: ok\n");
  return true;
}

bool checkPartial() {
  const int block = 40, blocks = 3, n = block * blocks;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i)
    in[i] = i % 17 + 1;
  int *dIn, *dOut;
  cudaMalloc(&dIn, n * sizeof(int));
  cudaMalloc(&dOut, n * sizeof(int));
  cudaMemcpy(dIn, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  partial<<<blocks, block>>>(dIn, dOut);
  cudaMemcpy(out.data(), dOut, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dIn);
  cudaFree(dOut);
  for (int i = 0; i < n; ++i) {
    // Lane l of a group of 4 adds lane l + 1's value, then lane l + 2's
    // partial sum; past the end of the group a lane reads its own.
    auto first = [&](int j) {
      return in[j] + (j % 4 + 1 < 4 ? in[j + 1] : in[j]);
    };
    int expected = first(i) + (i % 4 + 2 < 4 ? first(i + 2) : first(i));
    if (out[i] != expected) {
      printf("partial warp: element %d: %d, expected %d\n", i, out[i],
             expected);
      return false;
    }
  }
  printf("partial warp: ok\n");
  return true;
}

int main() {
  bool ok = checkRows<4>() & checkRows<8>() & checkRows<16>() & checkPairs() &
            checkPartial();
  printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}

// Kernels that give each group of a power-of-two number of threads one
// item (respec-split-thread-groups runs their blocks as loops over groups
// around loops over a group's threads): unsigned and signed division and
// remainder of the global and the block's thread index, masks and shifts,
// groups of 8 to 64, a mask narrower than the group, and a block size the
// group does not divide. Each result is checked against the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=thread-groups %s -o %t.off && %t.off | FileCheck %s
// RUN: %respec -O2 %s -o %t && env OMP_NUM_THREADS=3 %t | FileCheck %s
// CHECK: matrices: ok
// CHECK: signed rows: ok
// CHECK: shifts: ok
// CHECK: ragged: ok
// CHECK: PASSED

#include <cstdio>
#include <vector>

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("check failed at line %d: %s\n", __LINE__, #cond);           \
      return false;                                                            \
    }                                                                          \
  } while (0)

// 16 threads per 16x16 matrix: C = A + 2B, column `lane` of each.
__global__ void addMatrices(const float *a, const float *b, float *c,
                            int count) {
  int item = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  int lane = threadIdx.x % 16;
  if (item >= count)
    return;
  size_t base = (size_t)item * 256;
#pragma unroll
  for (int r = 0; r < 16; ++r)
    c[base + r * 16 + lane] = a[base + r * 16 + lane] + 2 * b[base + r * 16 + lane];
}

// A row of 32 per warp through a signed thread index; the lane also picks
// a weight with a narrower mask (lane & 7).
__global__ void scaleRows(const int *in, int *out, const int *weights,
                          int rows) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = tid / 32;
  int lane = tid % 32;
  if (row < rows)
    out[row * 32 + lane] = in[row * 32 + lane] * weights[lane & 7] + row;
}

// Groups of 8 read with shifts and masks of the block's thread index; the
// group's first thread index also comes back as (tid & -8).
__global__ void shifts(unsigned *out) {
  unsigned group = threadIdx.x >> 3;
  unsigned lane = threadIdx.x & 7;
  unsigned first = (blockIdx.x * blockDim.x + threadIdx.x) & ~7u;
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      (blockIdx.x * 1000 + group) * 100 + lane * 10 + (first % 8 == 0) +
      first / 8 * 1000000;
}

bool checkMatrices() {
  const int count = 1000;
  const size_t n = (size_t)count * 256;
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = float(i % 97);
    b[i] = float(i % 13) * 0.5f;
  }
  float *da, *db, *dc;
  cudaMalloc(&da, n * 4);
  cudaMalloc(&db, n * 4);
  cudaMalloc(&dc, n * 4);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, n * 4);
  // 256 threads: 16 matrices per block, the last block partly idle.
  addMatrices<<<(count * 16 + 255) / 256, 256>>>(da, db, dc, count);
  cudaMemcpy(c.data(), dc, n * 4, cudaMemcpyDeviceToHost);
  for (size_t i = 0; i < n; ++i)
    CHECK(c[i] == a[i] + 2 * b[i]);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("matrices: ok\n");
  return true;
}

bool checkRows() {
  const int rows = 777;
  std::vector<int> in(rows * 32), out(rows * 32), weights = {3, 1, 4, 1,
                                                             5, 9, 2, 6};
  for (int i = 0; i < rows * 32; ++i)
    in[i] = i * 7 - 5000;
  int *din, *dout, *dw;
  cudaMalloc(&din, in.size() * 4);
  cudaMalloc(&dout, out.size() * 4);
  cudaMalloc(&dw, 8 * 4);
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, weights.data(), 8 * 4, cudaMemcpyHostToDevice);
  // 128 threads (4 rows) and 64 threads (2 rows) per block, constant at
  // the launch (the split needs a constant block size).
  for (int block : {128, 64}) {
    cudaMemset(dout, 0, out.size() * 4);
    if (block == 128)
      scaleRows<<<(rows * 32 + 127) / 128, 128>>>(din, dout, dw, rows);
    else
      scaleRows<<<(rows * 32 + 63) / 64, 64>>>(din, dout, dw, rows);
    cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
    for (int r = 0; r < rows; ++r)
      for (int l = 0; l < 32; ++l)
        CHECK(out[r * 32 + l] == in[r * 32 + l] * weights[l & 7] + r);
  }
  cudaFree(din);
  cudaFree(dout);
  cudaFree(dw);
  std::printf("signed rows: ok\n");
  return true;
}

bool checkShifts(const char *what, int blocks, int block) {
  std::vector<unsigned> out(blocks * block);
  unsigned *dout;
  cudaMalloc(&dout, out.size() * 4);
  if (block == 64)
    shifts<<<blocks, 64>>>(dout);
  else
    shifts<<<blocks, 24>>>(dout);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  for (unsigned b = 0; b < unsigned(blocks); ++b)
    for (unsigned t = 0; t < unsigned(block); ++t) {
      unsigned first = (b * block + t) & ~7u;
      CHECK(out[b * block + t] == (b * 1000 + (t >> 3)) * 100 + (t & 7) * 10 +
                                      1 + first / 8 * 1000000);
    }
  cudaFree(dout);
  std::printf("%s: ok\n", what);
  return true;
}

int main() {
  bool ok = checkMatrices() && checkRows() && checkShifts("shifts", 9, 64);
  // 24 threads: groups of 8 divide the block, the base is a multiple of 8.
  ok = ok && checkShifts("ragged", 7, 24);
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

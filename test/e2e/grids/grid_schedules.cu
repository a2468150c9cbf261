// Every grid schedule runs every block exactly once, whatever the number
// of OpenMP threads against the number of blocks: respec builds the static
// schedule (a contiguous run of blocks per thread) and the dynamic one
// (blocks taken one at a time from a team counter) itself, and leaves the
// guided one to libomp. Grids of 1 to 3 dimensions, fewer blocks than
// threads, more, and a prime number of them; blocks whose work differs
// (a CSR row each, which --grid-schedule=auto schedules dynamically). The
// host checks every block's record and every row's sum.
// RUN: %respec -O2 %s -o %t
// RUN: env OMP_NUM_THREADS=1 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=7 %t | FileCheck %s
// RUN: %respec -O2 --grid-schedule=auto %s -o %t.auto && env OMP_NUM_THREADS=3 %t.auto | FileCheck %s
// RUN: %respec -O2 --grid-schedule=dynamic %s -o %t.dyn
// RUN: env OMP_NUM_THREADS=1 %t.dyn | FileCheck %s
// RUN: env OMP_NUM_THREADS=5 %t.dyn | FileCheck %s
// RUN: %respec -O2 --grid-schedule=guided %s -o %t.guided && env OMP_NUM_THREADS=3 %t.guided | FileCheck %s
// RUN: %respec -O2 --disable-opt=inline-worksharing %s -o %t.libomp && env OMP_NUM_THREADS=3 %t.libomp | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

// Each block counts its visits and records its coordinates.
__global__ void visit(int *visits, int *coords) {
  int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    atomicAdd(&visits[block], 1);
    coords[3 * block] = blockIdx.x;
    coords[3 * block + 1] = blockIdx.y;
    coords[3 * block + 2] = blockIdx.z;
  }
}

// One block per row of a CSR matrix: blocks differ in work.
__global__ void rowSums(const int *rowStart, const float *values, float *y) {
  __shared__ float partial[64];
  int row = blockIdx.x;
  float sum = 0.0f;
  for (int k = rowStart[row] + threadIdx.x; k < rowStart[row + 1];
       k += blockDim.x)
    sum += values[k];
  partial[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int t = 0; t < 64; ++t)
      total += partial[t];
    y[row] = total;
  }
}

static bool checkGrid(dim3 grid, dim3 block) {
  int blocks = grid.x * grid.y * grid.z;
  int *visits, *coords;
  cudaMallocManaged(&visits, blocks * sizeof(int));
  cudaMallocManaged(&coords, 3 * blocks * sizeof(int));
  cudaMemset(visits, 0, blocks * sizeof(int));
  visit<<<grid, block>>>(visits, coords);
  cudaDeviceSynchronize();
  bool ok = true;
  for (int b = 0; b < blocks && ok; ++b) {
    int x = b % grid.x, y = b / grid.x % grid.y, z = b / (grid.x * grid.y);
    if (visits[b] != 1 || coords[3 * b] != x || coords[3 * b + 1] != y ||
        coords[3 * b + 2] != z) {
      std::printf("FAILED: grid (%u,%u,%u) block %d visited %d times as "
                  "(%d,%d,%d)\n",
                  grid.x, grid.y, grid.z, b, visits[b], coords[3 * b],
                  coords[3 * b + 1], coords[3 * b + 2]);
      ok = false;
    }
  }
  cudaFree(visits);
  cudaFree(coords);
  return ok;
}

static bool checkRows(int rows) {
  std::vector<int> start(rows + 1, 0);
  for (int r = 0; r < rows; ++r)
    start[r + 1] = start[r] + (r * 37 % 11 == 0 ? 700 : r % 5);
  int nnz = start[rows];
  std::vector<float> values(nnz);
  for (int k = 0; k < nnz; ++k)
    values[k] = (float)(k % 9) - 4.0f;
  int *dStart;
  float *dValues, *dY;
  cudaMalloc(&dStart, (rows + 1) * sizeof(int));
  cudaMalloc(&dValues, (nnz > 0 ? nnz : 1) * sizeof(float));
  cudaMalloc(&dY, rows * sizeof(float));
  cudaMemcpy(dStart, start.data(), (rows + 1) * sizeof(int),
             cudaMemcpyHostToDevice);
  cudaMemcpy(dValues, values.data(), nnz * sizeof(float),
             cudaMemcpyHostToDevice);
  rowSums<<<rows, 64>>>(dStart, dValues, dY);
  std::vector<float> y(rows);
  cudaMemcpy(y.data(), dY, rows * sizeof(float), cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int r = 0; r < rows && ok; ++r) {
    float expected = 0.0f;
    for (int k = start[r]; k < start[r + 1]; ++k)
      expected += values[k];
    if (y[r] != expected) {
      std::printf("FAILED: row %d of %d: %f, expected %f\n", r, rows, y[r],
                  expected);
      ok = false;
    }
  }
  cudaFree(dStart);
  cudaFree(dValues);
  cudaFree(dY);
  return ok;
}

int main() {
  bool ok = true;
  const dim3 grids[] = {dim3(1),       dim3(2),          dim3(3),
                        dim3(13),      dim3(1000),       dim3(5, 3),
                        dim3(1, 7, 2), dim3(17, 3, 5),   dim3(2, 1, 1),
                        dim3(64, 64)};
  for (dim3 grid : grids)
    ok = checkGrid(grid, dim3(32, 2)) && ok;
  for (int rows : {1, 2, 3, 97, 1000})
    ok = checkRows(rows) && ok;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}

// Cooperative launches and cooperative groups' grid-wide barrier
// (this_grid().sync()): every block of the grid runs at once, values kept in
// registers and shared memory survive a grid barrier, and what one block
// writes before the barrier every block reads after it. Grids sized from the
// occupancy API, larger grids that need more threads than cores, 2-D grids,
// cudaLaunchKernelEx with the cooperative attribute, a grid too large to run
// at once, and is_valid() outside a cooperative launch.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t
// RUN: env OMP_NUM_THREADS=1 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// CHECK: supported: 1
// CHECK: occupancy-sized grid: ok
// CHECK: oversubscribed grid: ok
// CHECK: 2-D grid: ok
// CHECK: launch attribute: ok
// CHECK: too large: cudaErrorCooperativeLaunchTooLarge
// CHECK: not cooperative: is_valid 0
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::printf("check failed at line %d: %s\n", __LINE__, #cond);           \
      return false;                                                            \
    }                                                                          \
  } while (0)

constexpr int kBlock = 64;

// Jacobi sweeps of a 1-D heat equation in one launch, a grid barrier between
// sweeps; then block 0 sums the result after a last barrier. Each block
// keeps its first cell's value of every sweep in shared memory and a
// running count in a register, both read after the grid barriers.
__global__ void sweeps(float *a, float *b, int n, int steps, float *sum,
                       int *trace) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float firstOfSweep[32];
  int counted = 0;
  for (int s = 0; s < steps; ++s) {
    const float *from = s % 2 ? b : a;
    float *to = s % 2 ? a : b;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
      float left = i > 0 ? from[i - 1] : 0.f;
      float right = i + 1 < n ? from[i + 1] : 0.f;
      to[i] = 0.25f * left + 0.5f * from[i] + 0.25f * right;
      ++counted;
    }
    if (threadIdx.x == 0)
      firstOfSweep[s] = to[blockIdx.x * kBlock];
    grid.sync();
  }
  // Every block checks, after the barriers, what it saw in each sweep
  // against what the grid wrote (only the last sweep's array survives).
  const float *last = steps % 2 ? b : a;
  if (threadIdx.x == 0 && firstOfSweep[steps - 1] != last[blockIdx.x * kBlock])
    atomicAdd(trace, 1000);
  atomicAdd(trace + 1, counted);
  grid.sync();
  if (grid.thread_rank() == 0) {
    float total = 0;
    for (int i = 0; i < n; ++i)
      total += last[i];
    *sum = total;
  }
}

void sweepsOnHost(std::vector<float> &a, int steps) {
  std::vector<float> b(a.size());
  int n = a.size();
  for (int s = 0; s < steps; ++s) {
    std::vector<float> &from = s % 2 ? b : a, &to = s % 2 ? a : b;
    for (int i = 0; i < n; ++i) {
      float left = i > 0 ? from[i - 1] : 0.f;
      float right = i + 1 < n ? from[i + 1] : 0.f;
      to[i] = 0.25f * left + 0.5f * from[i] + 0.25f * right;
    }
  }
  if (steps % 2)
    a = b;
}

bool runSweeps(const char *what, int blocks) {
  const int n = 5000, steps = 9;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i)
    host[i] = (i * 37 % 101) * 0.5f;
  float *a, *b, *sum;
  int *trace;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&sum, sizeof(float));
  cudaMalloc(&trace, 2 * sizeof(int));
  cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(trace, 0, 2 * sizeof(int));
  int nArg = n, stepsArg = steps;
  void *args[] = {&a, &b, &nArg, &stepsArg, &sum, &trace};
  cudaError_t launched = cudaLaunchCooperativeKernel(sweeps, blocks, kBlock,
                                                     args, 0, 0);
  CHECK(launched == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<float> result(n);
  float total = 0;
  int traced[2];
  cudaMemcpy(result.data(), steps % 2 ? b : a, n * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, sum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(traced, trace, sizeof traced, cudaMemcpyDeviceToHost);
  sweepsOnHost(host, steps);
  float expected = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(result[i] == host[i]);
    expected += host[i];
  }
  CHECK(total == expected);
  CHECK(traced[0] == 0);           // every block saw the grid's writes
  CHECK(traced[1] == n * steps);   // every cell once per sweep
  cudaFree(a);
  cudaFree(b);
  cudaFree(sum);
  cudaFree(trace);
  std::printf("%s: ok\n", what);
  return true;
}

// A 2-D grid of 2-D blocks: each block writes its rank, then after the
// barrier reads its neighbour's (the next block in grid rank order).
__global__ void neighbours(int *ranks, int *seen) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  unsigned long long rank = grid.block_rank();
  if (block.thread_rank() == 0)
    ranks[rank] = int(rank) * 10;
  grid.sync();
  unsigned long long next = (rank + 1) % grid.num_blocks();
  if (block.thread_rank() == block.size() - 1)
    seen[rank] = ranks[next];
}

bool run2D() {
  dim3 gridDim(2, 3), blockDim(8, 4);
  const int blocks = 6;
  int *ranks, *seen;
  cudaMalloc(&ranks, blocks * sizeof(int));
  cudaMalloc(&seen, blocks * sizeof(int));
  cudaMemset(seen, 0xff, blocks * sizeof(int));
  void *args[] = {&ranks, &seen};
  CHECK(cudaLaunchCooperativeKernel((void *)neighbours, gridDim, blockDim,
                                    args, 0, 0) == cudaSuccess);
  int host[blocks];
  cudaMemcpy(host, seen, sizeof host, cudaMemcpyDeviceToHost);
  for (int r = 0; r < blocks; ++r)
    CHECK(host[r] == (r + 1) % blocks * 10);
  cudaFree(ranks);
  cudaFree(seen);
  std::printf("2-D grid: ok\n");
  return true;
}

// Two grid barriers in a row with nothing between them, then a split
// barrier (barrier_arrive, work of the block's own, barrier_wait) after
// which each block reads what the next block wrote before it arrived (what
// it writes between arriving and waiting is not ordered before the others'
// reads); launched through cudaLaunchKernelEx.
__global__ void countArrivals(int *counter, int *after, int *lanes) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(counter, 1);
  grid.sync();
  grid.sync();
  if (threadIdx.x == 0)
    after[blockIdx.x] = *counter;
  lanes[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x + blockIdx.x;
  cg::grid_group::arrival_token token = grid.barrier_arrive();
  int own = lanes[blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x];
  grid.barrier_wait(std::move(token));
  unsigned next = (blockIdx.x + 1) % gridDim.x;
  if (threadIdx.x == 1)
    after[gridDim.x + blockIdx.x] = lanes[next * blockDim.x + 5] + own -
                                    int(blockIdx.x) - 2;
}

bool runWithAttribute(int blocks) {
  int *counter, *after, *lanes;
  cudaMalloc(&counter, sizeof(int));
  cudaMalloc(&after, 2 * blocks * sizeof(int));
  cudaMalloc(&lanes, blocks * 32 * sizeof(int));
  cudaMemset(counter, 0, sizeof(int));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&config, countArrivals, counter, after, lanes) ==
        cudaSuccess);
  std::vector<int> host(2 * blocks);
  cudaMemcpy(host.data(), after, 2 * blocks * sizeof(int),
             cudaMemcpyDeviceToHost);
  for (int b = 0; b < blocks; ++b) {
    CHECK(host[b] == blocks);
    CHECK(host[blocks + b] == 5 + (b + 1) % blocks);
  }
  cudaFree(counter);
  cudaFree(after);
  cudaFree(lanes);
  std::printf("launch attribute: ok\n");
  return true;
}

__global__ void validity(int *out) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *out = cg::this_grid().is_valid();
}

int main() {
  int supported = 0, cores = 0, perCore = 0;
  cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch, 0);
  cudaDeviceGetAttribute(&cores, cudaDevAttrMultiProcessorCount, 0);
  std::printf("supported: %d\n", supported);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perCore, sweeps, kBlock,
                                                    0) != cudaSuccess ||
      perCore < 1)
    return 1;
  bool ok = runSweeps("occupancy-sized grid", perCore * cores);
  // More blocks than cores: each still gets a thread of its own.
  ok = ok && runSweeps("oversubscribed grid", 4 * cores + 1);
  ok = ok && run2D();
  ok = ok && runWithAttribute(3 * cores);

  // A grid that a GPU with this many multiprocessors could not hold.
  int *flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  void *args[] = {&flag};
  cudaError_t tooLarge = cudaLaunchCooperativeKernel(
      (void *)validity, dim3(cores * 2048 + 1), dim3(1), args, 0, 0);
  std::printf("too large: %s\n", cudaGetErrorName(tooLarge));
  cudaGetLastError();
  int host = -1;
  cudaMemcpy(&host, flag, sizeof host, cudaMemcpyDeviceToHost);
  ok = ok && host == 0; // it did not run

  validity<<<1, 32>>>(flag);
  cudaMemcpy(&host, flag, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("not cooperative: is_valid %d\n", host);
  cudaLaunchCooperativeKernel((void *)validity, dim3(1), dim3(32), args, 0, 0);
  int inside = -1;
  cudaMemcpy(&inside, flag, sizeof inside, cudaMemcpyDeviceToHost);
  ok = ok && tooLarge == cudaErrorCooperativeLaunchTooLarge && host == 0 &&
       inside == 1 && cudaGetLastError() == cudaSuccess;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}

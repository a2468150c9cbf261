// CUB's warp and block primitives use inline PTX (shfl.sync.down.b32 with
// and without the predicate result, `@p add`, %laneid); respec translates
// it to the NVVM warp intrinsics its warp lowering runs on the CPU.
// cub::WarpReduce, cub::WarpScan, cub::BlockReduce (both algorithms) and
// cub::BlockScan are checked against host sums over several blocks.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cub/cub.cuh>

constexpr int kThreads = 128, kBlocks = 4, N = kThreads * kBlocks;

__global__ void blockReduce(const int *in, int *sums, int *maxima) {
  using Warps = cub::BlockReduce<int, kThreads>;
  using Raking = cub::BlockReduce<int, kThreads, cub::BLOCK_REDUCE_RAKING>;
  __shared__ typename Warps::TempStorage warpStorage;
  __shared__ typename Raking::TempStorage rakingStorage;
  int v = in[blockIdx.x * kThreads + threadIdx.x];
  int sum = Warps(warpStorage).Sum(v);
  int maximum = Raking(rakingStorage).Reduce(v, ::cuda::maximum<>{});
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxima[blockIdx.x] = maximum;
  }
}

__global__ void blockScan(const int *in, int *exclusive, float *inclusive) {
  using Scan = cub::BlockScan<int, kThreads>;
  using FloatScan = cub::BlockScan<float, kThreads>;
  __shared__ typename Scan::TempStorage storage;
  __shared__ typename FloatScan::TempStorage floatStorage;
  int i = blockIdx.x * kThreads + threadIdx.x;
  int out;
  Scan(storage).ExclusiveSum(in[i], out);
  exclusive[i] = out;
  float f;
  FloatScan(floatStorage).InclusiveSum(float(in[i] % 8), f);
  inclusive[i] = f;
}

__global__ void warpPrimitives(const int *in, int *warpSums, int *halfSums,
                               int *scans) {
  using Warp = cub::WarpReduce<int>;
  using Half = cub::WarpReduce<int, 16>;
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename Warp::TempStorage warpStorage[kThreads / 32];
  __shared__ typename Half::TempStorage halfStorage[kThreads / 16];
  __shared__ typename WarpScan::TempStorage scanStorage[kThreads / 32];
  int i = blockIdx.x * kThreads + threadIdx.x;
  int warp = threadIdx.x / 32;
  int sum = Warp(warpStorage[warp]).Sum(in[i]);
  int half = Half(halfStorage[threadIdx.x / 16]).Sum(in[i]);
  int scan;
  WarpScan(scanStorage[warp]).InclusiveSum(in[i], scan);
  if (threadIdx.x % 32 == 0)
    warpSums[i / 32] = sum;
  if (threadIdx.x % 16 == 0)
    halfSums[i / 16] = half;
  scans[i] = scan;
}

int main() {
  int *in, *sums, *maxima, *exclusive, *warpSums, *halfSums, *scans;
  float *inclusive;
  cudaMallocManaged(&in, N * 4);
  cudaMallocManaged(&sums, kBlocks * 4);
  cudaMallocManaged(&maxima, kBlocks * 4);
  cudaMallocManaged(&exclusive, N * 4);
  cudaMallocManaged(&inclusive, N * 4);
  cudaMallocManaged(&warpSums, N / 32 * 4);
  cudaMallocManaged(&halfSums, N / 16 * 4);
  cudaMallocManaged(&scans, N * 4);
  for (int i = 0; i < N; ++i)
    in[i] = (i * 7919) % 1000 - 300;
  blockReduce<<<kBlocks, kThreads>>>(in, sums, maxima);
  blockScan<<<kBlocks, kThreads>>>(in, exclusive, inclusive);
  warpPrimitives<<<kBlocks, kThreads>>>(in, warpSums, halfSums, scans);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, long long got, long long want) {
    if (got != want && ++failures <= 10)
      printf("%s[%d]: got %lld want %lld\n", what, i, got, want);
  };
  for (int b = 0; b < kBlocks; ++b) {
    int sum = 0, maximum = in[b * kThreads], running = 0;
    float floatRunning = 0;
    for (int t = 0; t < kThreads; ++t) {
      int i = b * kThreads + t;
      expect("BlockScan::ExclusiveSum", i, exclusive[i], running);
      floatRunning += in[i] % 8;
      expect("BlockScan<float>::InclusiveSum", i, inclusive[i] == floatRunning, 1);
      running += in[i];
      sum += in[i];
      maximum = in[i] > maximum ? in[i] : maximum;
    }
    expect("BlockReduce::Sum", b, sums[b], sum);
    expect("BlockReduce<RAKING>::Reduce(max)", b, maxima[b], maximum);
  }
  for (int w = 0; w < N / 32; ++w) {
    int sum = 0;
    for (int l = 0; l < 32; ++l) {
      sum += in[w * 32 + l];
      expect("WarpScan::InclusiveSum", w * 32 + l, scans[w * 32 + l], sum);
    }
    expect("WarpReduce::Sum", w, warpSums[w], sum);
  }
  for (int h = 0; h < N / 16; ++h) {
    int sum = 0;
    for (int l = 0; l < 16; ++l)
      sum += in[h * 16 + l];
    expect("WarpReduce<16>::Sum", h, halfSums[h], sum);
  }
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}

// Implicitly warp-synchronous code: threads of a warp exchanging values
// through volatile shared memory with no __syncwarp(), as the CUDA samples'
// reductions and scans, SHOC and other suites written before Volta do.
// CUDA calls it undefined since Volta, but GPUs still give the lockstep
// answer, and so does respec: each volatile access of such an exchange runs
// for all threads of the warp before the next one. Forms: the unrolled
// last-warp reduction in a device function (template block size), the same
// steps under uniform run-time conditions (`if (blockDim.x >= 64)`, one
// basic block per step), a math call between a step's load and store, the
// samples' warp scan over a padded array (unrolled, and as a loop whose
// trip count is a kernel argument), a Hillis-Steele scan whose steps only
// some lanes take (`if (lane >= offset)`: reads of the lane below, which a
// thread-by-thread order would get wrong even in one step), the samples'
// two-level block scan (a warp scan of the warps' totals, whose window
// overlaps the elements the totals are read from and written to), and volatile
// accesses that exchange nothing (left alone). Before 0.29.0 wrong results
// and a warning.
// RUN: %respec -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN --allow-empty
// RUN: %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec -O2 --disable-opt=all %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec -O2 --coarsen=block=2,thread=2 %s -o %t.coarse && %t.coarse | FileCheck %s
// WARN-NOT: warning
// CHECK: template reduction PASSED
// CHECK: run-time reduction PASSED
// CHECK: math between steps PASSED
// CHECK: padded scan PASSED
// CHECK: looped scan PASSED
// CHECK: lane scan PASSED
// CHECK: two-level scan PASSED
// CHECK: shared flag PASSED
// CHECK: broadcast from lane 31 PASSED
// CHECK: read before overwrite PASSED
// CHECK: guarded loop reduction PASSED
// CHECK: own elements PASSED

#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

template <unsigned BS> __device__ void warpReduce(volatile float *s, int tid) {
  if (BS >= 64)
    s[tid] += s[tid + 32];
  if (BS >= 32)
    s[tid] += s[tid + 16];
  if (BS >= 16)
    s[tid] += s[tid + 8];
  if (BS >= 8)
    s[tid] += s[tid + 4];
  if (BS >= 4)
    s[tid] += s[tid + 2];
  if (BS >= 2)
    s[tid] += s[tid + 1];
}

template <unsigned BS>
__global__ void templateReduce(const float *in, float *out, int n) {
  __shared__ float s[BS];
  int tid = threadIdx.x;
  float sum = 0;
  for (int i = blockIdx.x * BS + tid; i < n; i += gridDim.x * BS)
    sum += in[i];
  s[tid] = sum;
  __syncthreads();
  for (unsigned stride = BS / 2; stride > 32; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid < 32)
    warpReduce<BS>(s, tid);
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void runtimeReduce(const int *in, int *out) {
  extern __shared__ int shared[];
  int tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (tid < 32) {
    volatile int *s = shared;
    if (blockDim.x >= 64)
      s[tid] = s[tid] + s[tid + 32];
    if (blockDim.x >= 32)
      s[tid] = s[tid] + s[tid + 16];
    if (blockDim.x >= 16)
      s[tid] = s[tid] + s[tid + 8];
    s[tid] = s[tid] + s[tid + 4];
    s[tid] = s[tid] + s[tid + 2];
    s[tid] = s[tid] + s[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = shared[0];
}

__global__ void mathBetween(const float *in, float *out) {
  __shared__ float shared[64];
  int tid = threadIdx.x;
  shared[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *s = shared;
    s[tid] = s[tid] + sqrtf(s[tid + 32]);
    s[tid] = s[tid] + sqrtf(s[tid + 16]);
    s[tid] = s[tid] + sqrtf(s[tid + 8]);
  }
  __syncthreads();
  out[tid] = shared[tid];
}

// The CUDA samples' warpScanInclusive: each warp scans its 32 values in a
// 64-entry window whose lower half is zeros.
__device__ unsigned warpScanInclusive(unsigned value, volatile unsigned *s,
                                      unsigned size) {
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s[pos] = 0;
  pos += size;
  s[pos] = value;
  for (unsigned offset = 1; offset < size; offset <<= 1)
    s[pos] += s[pos - offset];
  return s[pos];
}

__global__ void paddedScan(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[2 * 128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warpScanInclusive(in[i], s, 32);
}

__global__ void loopedScan(const unsigned *in, unsigned *out, unsigned size) {
  __shared__ unsigned s[2 * 128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warpScanInclusive(in[i], s, size);
}

__global__ void laneScan(const int *in, int *out) {
  __shared__ int shared[128];
  volatile int *s = shared;
  int idx = threadIdx.x, lane = idx & 31;
  int sum = in[blockIdx.x * blockDim.x + idx];
  s[idx] = sum;
  if (lane >= 1)
    s[idx] = sum = sum + s[idx - 1];
  if (lane >= 2)
    s[idx] = sum = sum + s[idx - 2];
  if (lane >= 4)
    s[idx] = sum = sum + s[idx - 4];
  if (lane >= 8)
    s[idx] = sum = sum + s[idx - 8];
  if (lane >= 16)
    s[idx] = sum = sum + s[idx - 16];
  out[blockIdx.x * blockDim.x + idx] = s[idx];
}

// The samples' scan1Inclusive for a block of 256: each warp scans its
// values, the last lanes publish the warps' 8 totals, and the first 8
// threads scan those in place in segments of a size given at run time
// (2: the samples' arrays of 64 elements), through windows that cover
// other threads' totals.
__global__ void twoLevelScan(const unsigned *in, unsigned *out,
                             unsigned segment) {
  __shared__ unsigned s[2 * 256];
  volatile unsigned *sd = s;
  unsigned idata = in[blockIdx.x * 256 + threadIdx.x];
  unsigned warpResult = warpScanInclusive(idata, sd, 32);
  __syncthreads();
  if ((threadIdx.x & 31) == 31)
    sd[threadIdx.x >> 5] = warpResult;
  __syncthreads();
  if (threadIdx.x < 8) {
    unsigned value = sd[threadIdx.x];
    sd[threadIdx.x] = warpScanInclusive(value, sd, segment) - value;
  }
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = warpResult + sd[threadIdx.x >> 5];
}

// Before __any(): a flag the warp's lanes set, then all read.
__global__ void sharedFlag(const int *in, int *out) {
  __shared__ volatile int flag[8];
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lane == 0)
    flag[w] = 0;
  if (in[i] < 0)
    flag[w] = 1;
  out[i] = flag[w];
}

// The warp's last lane publishes the warp's base, the others read it.
__global__ void broadcastFromLast(int *out) {
  __shared__ volatile int base[8];
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 31)
    base[w] = (blockIdx.x * 8 + w) * 32;
  out[base[w] + lane] = blockIdx.x * blockDim.x + threadIdx.x;
}

// Lanes read their element, then the warp writes the array at other
// indices: in lockstep every load comes before every store.
__global__ void readBeforeOverwrite(const int *in, int *out) {
  __shared__ volatile int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  s[t + 32] = 0;
  __syncthreads();
  if (t < 16) {
    int mine = s[t];
    s[2 * t] = -1;
    out[t] = mine;
  }
}

// The last-warp reduction as a loop, each step guarded.
__global__ void guardedLoopReduce(const int *in, int *out) {
  __shared__ volatile int sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 64 + tid];
  __syncthreads();
  if (tid < 32)
    for (unsigned s = 32; s > 0; s >>= 1)
      if (tid < s)
        sdata[tid] += sdata[tid + s];
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Each thread only ever touches its own elements: nothing to exchange.
__global__ void ownElements(int *out) {
  __shared__ int shared[2 * 64];
  volatile int *s = shared;
  int t = threadIdx.x;
  s[2 * t] = t;
  s[2 * t + 1] = 3 * t;
  s[2 * t] += s[2 * t + 1];
  out[t] = s[2 * t];
}

static int report(const char *what, int failures) {
  printf("%s %s\n", what, failures ? "FAILED" : "PASSED");
  return failures;
}

int main() {
  int failures = 0;
  const int n = 1 << 16, blocks = 16;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, blocks * sizeof(float));
  for (int i = 0; i < n; ++i)
    in[i] = (float)(i % 13);
  templateReduce<256><<<blocks, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  double total = 0, want = 0;
  for (int b = 0; b < blocks; ++b)
    total += out[b];
  for (int i = 0; i < n; ++i)
    want += in[i];
  failures += report("template reduction", total != want);

  int *ints, *intOut;
  cudaMallocManaged(&ints, 4 * 64 * sizeof(int));
  cudaMallocManaged(&intOut, 4 * 64 * sizeof(int));
  for (int i = 0; i < 4 * 64; ++i)
    ints[i] = i * 7 % 19;
  runtimeReduce<<<4, 64, 64 * sizeof(int)>>>(ints, intOut);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int b = 0; b < 4; ++b) {
    int sum = 0;
    for (int t = 0; t < 64; ++t)
      sum += ints[b * 64 + t];
    bad += intOut[b] != sum;
  }
  failures += report("run-time reduction", bad);

  float *values, *maxima;
  cudaMallocManaged(&values, 64 * sizeof(float));
  cudaMallocManaged(&maxima, 64 * sizeof(float));
  for (int i = 0; i < 64; ++i)
    values[i] = (float)((i * 37) % 64) + 0.25f;
  mathBetween<<<1, 64>>>(values, maxima);
  cudaDeviceSynchronize();
  float host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = values[i];
  for (int offset : {32, 16, 8}) {
    float next[32];
    for (int t = 0; t < 32; ++t)
      next[t] = host[t] + sqrtf(host[t + offset]);
    for (int t = 0; t < 32; ++t)
      host[t] = next[t];
  }
  bad = 0;
  for (int i = 0; i < 64; ++i)
    bad += fabsf(maxima[i] - host[i]) > 1e-5f * fabsf(host[i]);
  failures += report("math between steps", bad);

  unsigned *uin, *uout;
  cudaMallocManaged(&uin, 4 * 128 * sizeof(unsigned));
  cudaMallocManaged(&uout, 4 * 128 * sizeof(unsigned));
  for (int i = 0; i < 4 * 128; ++i)
    uin[i] = i * 5 % 11;
  auto checkScan = [&](const unsigned *got) {
    int wrong = 0;
    for (int i = 0; i < 4 * 128; ++i) {
      unsigned sum = 0;
      for (int j = i - i % 32; j <= i; ++j)
        sum += uin[j];
      wrong += got[i] != sum;
    }
    return wrong;
  };
  paddedScan<<<4, 128>>>(uin, uout);
  cudaDeviceSynchronize();
  failures += report("padded scan", checkScan(uout));
  cudaMemset(uout, 0, 4 * 128 * sizeof(unsigned));
  loopedScan<<<4, 128>>>(uin, uout, 32);
  cudaDeviceSynchronize();
  failures += report("looped scan", checkScan(uout));

  laneScan<<<4, 64>>>(ints, intOut);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < 4 * 64; ++i) {
    int sum = 0;
    for (int j = i - i % 32; j <= i; ++j)
      sum += ints[j];
    bad += intOut[i] != sum;
  }
  failures += report("lane scan", bad);

  unsigned *blockIn, *blockOut;
  cudaMallocManaged(&blockIn, 2 * 256 * sizeof(unsigned));
  cudaMallocManaged(&blockOut, 2 * 256 * sizeof(unsigned));
  for (int i = 0; i < 2 * 256; ++i)
    blockIn[i] = i * 7 % 13;
  twoLevelScan<<<2, 256>>>(blockIn, blockOut, 2);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < 2 * 256; ++i) {
    // The thread's inclusive sum within its warp, plus the totals of the
    // earlier warps of its segment of 2 warps.
    int block = i / 256, warp = i % 256 / 32, first = warp - warp % 2;
    unsigned sum = 0;
    for (int j = block * 256 + first * 32; j <= i; ++j)
      sum += blockIn[j];
    bad += blockOut[i] != sum;
  }
  failures += report("two-level scan", bad);

  int *signs, *flags;
  cudaMallocManaged(&signs, 4 * 256 * sizeof(int));
  cudaMallocManaged(&flags, 4 * 256 * sizeof(int));
  for (int i = 0; i < 4 * 256; ++i)
    signs[i] = i % 97 == 5 ? -1 : 1;
  sharedFlag<<<4, 256>>>(signs, flags);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < 4 * 256; ++i) {
    int any = 0;
    for (int j = i / 32 * 32; j < i / 32 * 32 + 32; ++j)
      any |= signs[j] < 0;
    bad += flags[i] != any;
  }
  failures += report("shared flag", bad);

  broadcastFromLast<<<4, 256>>>(flags);
  cudaDeviceSynchronize();
  bad = 0;
  for (int i = 0; i < 4 * 256; ++i)
    bad += flags[i] != i;
  failures += report("broadcast from lane 31", bad);

  readBeforeOverwrite<<<1, 64>>>(ints, intOut);
  cudaDeviceSynchronize();
  bad = 0;
  for (int t = 0; t < 16; ++t)
    bad += intOut[t] != ints[t];
  failures += report("read before overwrite", bad);

  guardedLoopReduce<<<4, 64>>>(ints, intOut);
  cudaDeviceSynchronize();
  bad = 0;
  for (int b = 0; b < 4; ++b) {
    int sum = 0;
    for (int t = 0; t < 64; ++t)
      sum += ints[b * 64 + t];
    bad += intOut[b] != sum;
  }
  failures += report("guarded loop reduction", bad);

  ownElements<<<1, 64>>>(intOut);
  cudaDeviceSynchronize();
  bad = 0;
  for (int t = 0; t < 64; ++t)
    bad += intOut[t] != 4 * t;
  failures += report("own elements", bad);
  return failures != 0;
}

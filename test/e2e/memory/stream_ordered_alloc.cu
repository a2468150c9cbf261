// Stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on several
// streams (the free waits for the work queued before it), the default
// memory pool's attributes (release threshold, memory in use and its high
// mark), a pool of one's own (cudaMemPoolCreate, cudaMallocFromPoolAsync,
// cudaDeviceSetMemPool, destroyed with an allocation still out), and the
// errors of bad calls. Built with the toolkit's headers and with respec's
// own, and run with asynchronous launches.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// CHECK: pipeline PASSED
// CHECK: default pool PASSED
// CHECK: own pool PASSED
// CHECK: errors PASSED

#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status_ = (call);                                              \
    if (status_ != cudaSuccess) {                                              \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                     \
             cudaGetErrorString(status_));                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

__global__ void fill(int *data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = value + i;
}

// Slow enough that, with asynchronous launches, the free behind it is
// still queued when the host goes on.
__global__ void sumInto(const int *data, int n, long long *result) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long sum = 0;
    for (int round = 0; round < 4; ++round)
      for (int i = 0; i < n; ++i)
        sum += data[i];
    *result = sum / 4;
  }
}

static bool pipeline() {
  const int n = 1 << 16, steps = 12;
  cudaStream_t streams[2];
  CHECK(cudaStreamCreate(&streams[0]));
  CHECK(cudaStreamCreateWithFlags(&streams[1], cudaStreamNonBlocking));
  long long *results;
  CHECK(cudaMallocManaged(&results, steps * sizeof(long long)));
  for (int step = 0; step < steps; ++step) {
    cudaStream_t stream = streams[step % 2];
    int *scratch = nullptr;
    CHECK(cudaMallocAsync(&scratch, n * sizeof(int), stream));
    fill<<<(n + 255) / 256, 256, 0, stream>>>(scratch, n, step);
    sumInto<<<1, 32, 0, stream>>>(scratch, n, results + step);
    CHECK(cudaFreeAsync(scratch, stream));
  }
  // Memory from cudaMalloc may be freed in stream order too.
  int *plain;
  CHECK(cudaMalloc(&plain, 1024));
  CHECK(cudaFreeAsync(plain, streams[0]));
  CHECK(cudaDeviceSynchronize());
  bool ok = true;
  for (int step = 0; step < steps; ++step)
    ok &= results[step] == (long long)n * step + (long long)n * (n - 1) / 2;
  CHECK(cudaFree(results));
  CHECK(cudaStreamDestroy(streams[0]));
  CHECK(cudaStreamDestroy(streams[1]));
  return ok;
}

static bool defaultPool() {
  cudaMemPool_t pool, current;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  bool ok = pool == current;
  cuuint64_t threshold = UINT64_MAX, value = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &threshold));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold,
                                &value));
  ok &= value == UINT64_MAX;
  int reuse = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic,
                                &reuse));
  reuse = 1;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic,
                                &reuse));
  ok &= reuse == 0;

  // The pipeline's allocations were freed; its high mark is reset.
  cuuint64_t used = 1, high = 1, reserved = 0, zero = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok &= used == 0 && high >= (1 << 16) * sizeof(int);
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok &= high == 0;
  void *a, *b;
  CHECK(cudaMallocAsync(&a, 1000, 0));
  CHECK(cudaMallocAsync(&b, 3000, 0));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent,
                                &reserved));
  ok &= used == 4000 && reserved >= used;
  CHECK(cudaFreeAsync(b, 0));
  CHECK(cudaStreamSynchronize(0));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok &= used == 1000 && high == 4000;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
  ok &= high == 1000;
  // cudaFree takes memory from cudaMallocAsync too.
  CHECK(cudaFree(a));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  ok &= used == 0;
  CHECK(cudaMemPoolTrimTo(pool, 0));
  return ok;
}

static bool ownPool() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool, defaultPool, current;
  CHECK(cudaMemPoolCreate(&pool, &props));
  CHECK(cudaDeviceGetDefaultMemPool(&defaultPool, 0));
  bool ok = pool != defaultPool;
  cudaMemAccessDesc access = {};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  CHECK(cudaMemPoolSetAccess(pool, &access, 1));
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  CHECK(cudaMemPoolGetAccess(&flags, pool, &access.location));
  ok &= flags == cudaMemAccessFlagsProtReadWrite;

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  int *data, *more;
  CHECK(cudaMallocFromPoolAsync(&data, 256 * sizeof(int), pool, stream));
  CHECK(cudaMallocAsync(&more, 64 * sizeof(int), pool, stream));
  fill<<<1, 256, 0, stream>>>(data, 256, 7);
  cuuint64_t used = 0;
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  ok &= used == 320 * sizeof(int);
  // cudaMallocAsync without a pool takes the device's current pool.
  CHECK(cudaDeviceSetMemPool(0, pool));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  ok &= current == pool;
  int *third;
  CHECK(cudaMallocAsync(&third, 16, stream));
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  ok &= used == 320 * sizeof(int) + 16;
  CHECK(cudaFreeAsync(third, stream));
  CHECK(cudaFreeAsync(more, stream));
  int host[256];
  CHECK(cudaMemcpyAsync(host, data, sizeof(host), cudaMemcpyDeviceToHost,
                        stream));
  CHECK(cudaStreamSynchronize(stream));
  for (int i = 0; i < 256; ++i)
    ok &= host[i] == 7 + i;
  // Destroyed with `data` still out: the device's pool reverts to the
  // default, and `data` stays usable until it is freed.
  CHECK(cudaMemPoolDestroy(pool));
  CHECK(cudaDeviceGetMemPool(&current, 0));
  ok &= current == defaultPool;
  fill<<<1, 256, 0, stream>>>(data, 256, 9);
  CHECK(cudaFreeAsync(data, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaStreamDestroy(stream));
  return ok;
}

static bool errors() {
  bool ok = true;
  int local;
  ok &= cudaFreeAsync(&local, 0) == cudaErrorInvalidValue;
  void *p;
  ok &= cudaMallocAsync(&p, 64, 0) == cudaSuccess;
  ok &= cudaFreeAsync(p, 0) == cudaSuccess;
  ok &= cudaFreeAsync(p, 0) == cudaErrorInvalidValue; // freed twice
  ok &= cudaFreeAsync(nullptr, 0) == cudaSuccess;
  ok &= cudaMallocAsync(nullptr, 64, 0) == cudaErrorInvalidValue;
  cudaMemPool_t pool;
  CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  ok &= cudaMemPoolDestroy(pool) == cudaErrorInvalidValue;
  ok &= cudaDeviceGetDefaultMemPool(&pool, 3) == cudaErrorInvalidDevice;
  cuuint64_t value = 5;
  ok &= cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent,
                                &value) == cudaErrorInvalidValue;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 1;
  ok &= cudaMemPoolCreate(&pool, &props) == cudaErrorInvalidValue;
  cudaGetLastError();
  CHECK(cudaDeviceSynchronize());
  return ok;
}

int main() {
  printf("pipeline %s\n", pipeline() ? "PASSED" : "FAILED");
  printf("default pool %s\n", defaultPool() ? "PASSED" : "FAILED");
  printf("own pool %s\n", ownPool() ? "PASSED" : "FAILED");
  printf("errors %s\n", errors() ? "PASSED" : "FAILED");
  return 0;
}

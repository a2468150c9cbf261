// __managed__ variables: one object that host code and kernels both read
// and write. Scalars, arrays, a struct with an initializer, a static and a
// namespace-scope variable, `__device__ __managed__`; host updates between
// launches, device atomics read back on the host, the variable's address
// passed to a kernel, a __host__ __device__ function reading it on both
// sides, the symbol API (cudaMemcpyToSymbol/FromSymbol,
// cudaGetSymbolAddress), cudaPointerGetAttributes (managed memory),
// cudaMemPrefetchAsync, and cudaFree of a variable's address (refused).
// Built with the toolkit's headers and with respec's own, coarsened, and run
// with asynchronous launches and at 3 OpenMP threads.
// NVPTX: unsupported (__managed__ variables are a compile error for --target=nvptx)
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env RESPEC_ASYNC_LAUNCH=1 %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec --cuda-path=/nonexistent -O2 %s -o %t.own && %t.own | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O2 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("check failed at line %d: %s\n", __LINE__, #cond);               \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

struct Params {
  int n;
  float scale;
  float offset;
};

constexpr int kSize = 1000;

__managed__ Params params = {kSize, 2.0f, 0.5f};
__managed__ float values[kSize];
__device__ __managed__ unsigned long long hits;
static __managed__ int launches = 100;
namespace stats {
__managed__ double total;
}

__host__ __device__ float transform(float x) {
  return x * params.scale + params.offset;
}

__global__ void apply(int round) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < params.n) {
    values[i] = transform(values[i]) + round;
    atomicAdd(&hits, 1ull);
    atomicAdd(&stats::total, (double)values[i]);
  }
  if (i == 0)
    ++launches;
}

__global__ void countInto(int *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(counter, 1);
}

int main() {
  // The initializers are visible on the host before any launch.
  CHECK(params.n == kSize && params.scale == 2.0f && launches == 100);

  for (int i = 0; i < kSize; ++i)
    values[i] = (float)(i % 17);
  float expected[kSize];
  for (int i = 0; i < kSize; ++i)
    expected[i] = values[i];
  double expectedTotal = 0;
  for (int round = 0; round < 4; ++round) {
    // The host changes the parameters between launches.
    params.scale = 1.0f + 0.25f * round;
    params.offset = (float)round;
    apply<<<(kSize + 127) / 128, 128>>>(round);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < kSize; ++i) {
      expected[i] = transform(expected[i]) + round;
      expectedTotal += expected[i];
    }
  }
  for (int i = 0; i < kSize; ++i)
    CHECK(values[i] == expected[i]);
  CHECK(hits == 4ull * kSize);
  CHECK(launches == 104);
  double relative = (stats::total - expectedTotal) / expectedTotal;
  CHECK(relative < 1e-12 && relative > -1e-12);

  // Only part of the array: the host shrinks n.
  params.n = 10;
  hits = 0;
  apply<<<8, 128>>>(0);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(hits == 10);

  // The variable's address, taken on the host, in a kernel argument.
  launches = 0;
  countInto<<<3, 64>>>(&launches, 150);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(launches == 150);

  // The symbol API reaches the same object.
  float scale = 8.0f;
  CHECK(cudaMemcpyToSymbol(params, &scale, sizeof(float),
                           offsetof(Params, scale)) == cudaSuccess);
  CHECK(params.scale == 8.0f);
  unsigned long long copied = 0;
  CHECK(cudaMemcpyFromSymbol(&copied, hits, sizeof(copied)) == cudaSuccess);
  CHECK(copied == 10);
  void *address = nullptr;
  CHECK(cudaGetSymbolAddress(&address, values) == cudaSuccess);
  CHECK(address == (void *)values);
  size_t size = 0;
  CHECK(cudaGetSymbolSize(&size, values) == cudaSuccess);
  CHECK(size == sizeof(values));

  // Managed memory for the pointer queries; not the program's to free.
  cudaPointerAttributes attributes;
  CHECK(cudaPointerGetAttributes(&attributes, &values[5]) == cudaSuccess);
  CHECK(attributes.type == cudaMemoryTypeManaged);
  CHECK(cudaPointerGetAttributes(&attributes, &stats::total) == cudaSuccess);
  CHECK(attributes.type == cudaMemoryTypeManaged);
  CHECK(cudaMemPrefetchAsync(values, sizeof(values),
                             cudaMemLocation{cudaMemLocationTypeDevice, 0},
                             0) == cudaSuccess);
  CHECK(cudaFree(&hits) != cudaSuccess);
  cudaGetLastError();
  CHECK(hits == 10);

  printf("PASSED\n");
  return 0;
}

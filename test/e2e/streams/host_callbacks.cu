// Host functions enqueued in streams: cudaLaunchHostFunc runs after the
// preceding kernel on its stream completed (it reads the kernel's output
// from managed memory) and before later work; cudaStreamAddCallback
// receives the stream status and user data. Callbacks run in enqueue order.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

struct CallbackState {
  const long long *data; // managed memory written by the kernels
  int n;
  long long sums[3];
  int order[3];
  std::atomic<int> calls;
  cudaError_t status;
};

__global__ void fill(long long *data, int n, int step) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = (long long)i * step;
}

static void CUDART_CB sumHostFunc(void *user) {
  CallbackState *st = (CallbackState *)user;
  int k = st->calls.fetch_add(1);
  long long s = 0;
  for (int i = 0; i < st->n; ++i)
    s += st->data[i];
  st->sums[k] = s;
  st->order[k] = k;
}

static void CUDART_CB statusCallback(cudaStream_t, cudaError_t status,
                                     void *user) {
  CallbackState *st = (CallbackState *)user;
  st->status = status;
  sumHostFunc(user);
}

int main() {
  const int n = 100000;
  long long *data;
  CUDA_CHECK(cudaMallocManaged(&data, n * sizeof(long long)));
  CallbackState *st = new CallbackState();
  st->data = data;
  st->n = n;
  st->calls = 0;
  st->status = cudaErrorUnknown;

  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreate(&s));
  fill<<<(n + 255) / 256, 256, 0, s>>>(data, n, 1);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaLaunchHostFunc(s, sumHostFunc, st));
  fill<<<(n + 255) / 256, 256, 0, s>>>(data, n, 3);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaStreamAddCallback(s, statusCallback, st, 0));
  fill<<<(n + 255) / 256, 256, 0, s>>>(data, n, -2);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaLaunchHostFunc(s, sumHostFunc, st));
  CUDA_CHECK(cudaStreamSynchronize(s));

  long long base = (long long)n * (n - 1) / 2;
  long long expected[3] = {base, 3 * base, -2 * base};
  if (st->calls != 3 || st->status != cudaSuccess) {
    printf("callbacks ran %d times, status %d\n", st->calls.load(),
           (int)st->status);
    printf("FAILED\n");
    return 1;
  }
  for (int k = 0; k < 3; ++k)
    if (st->sums[k] != expected[k] || st->order[k] != k) {
      printf("callback %d saw sum %lld, expected %lld\n", k, st->sums[k],
             expected[k]);
      printf("FAILED\n");
      return 1;
    }
  CUDA_CHECK(cudaStreamDestroy(s));
  CUDA_CHECK(cudaFree(data));
  delete st;
  printf("PASSED\n");
  return 0;
}

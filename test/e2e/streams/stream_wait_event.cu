// Cross-stream dependencies: a producer stream fills a buffer, records an
// event, and a consumer stream made to wait on it with cudaStreamWaitEvent
// reads the buffer. Also a stream created with cudaStreamNonBlocking, and
// cudaStreamQuery / cudaEventQuery returning either cudaSuccess or
// cudaErrorNotReady while work may be pending, and cudaSuccess afterwards.
// RUN: %respec -O3 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

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

__global__ void produce(int *buf, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = i;
  for (int k = 0; k < iters; ++k)
    v = (v * 31 + k) % 1000003;
  buf[i] = v;
}

__global__ void consume(const int *buf, long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = (long long)buf[i] * 2 + buf[(i + 1) % n];
}

static bool pendingOrDone(cudaError_t e) {
  return e == cudaSuccess || e == cudaErrorNotReady;
}

int main() {
  const int n = 200000, iters = 200;
  int *buf;
  long long *out;
  CUDA_CHECK(cudaMalloc(&buf, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&out, n * sizeof(long long)));
  CUDA_CHECK(cudaMemset(buf, 0, n * sizeof(int)));
  cudaStream_t producer, consumer;
  CUDA_CHECK(cudaStreamCreate(&producer));
  CUDA_CHECK(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking));
  cudaEvent_t ready;
  CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));

  produce<<<(n + 255) / 256, 256, 0, producer>>>(buf, n, iters);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(ready, producer));
  CUDA_CHECK(cudaStreamWaitEvent(consumer, ready, 0));
  consume<<<(n + 255) / 256, 256, 0, consumer>>>(buf, out, n);
  CUDA_CHECK(cudaGetLastError());

  cudaError_t q1 = cudaStreamQuery(consumer);
  cudaError_t q2 = cudaEventQuery(ready);
  if (!pendingOrDone(q1) || !pendingOrDone(q2)) {
    printf("unexpected query results %d / %d\n", (int)q1, (int)q2);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaStreamSynchronize(consumer));
  CUDA_CHECK(cudaStreamQuery(consumer));
  CUDA_CHECK(cudaEventQuery(ready));
  CUDA_CHECK(cudaStreamQuery(producer));

  long long *h = (long long *)malloc(n * sizeof(long long));
  int *ref = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(h, out, n * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int v = i;
    for (int k = 0; k < iters; ++k)
      v = (v * 31 + k) % 1000003;
    ref[i] = v;
  }
  for (int i = 0; i < n; ++i) {
    long long e = (long long)ref[i] * 2 + ref[(i + 1) % n];
    if (h[i] != e) {
      printf("consumer read stale data at %d: got %lld, expected %lld\n", i,
             h[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaEventDestroy(ready));
  CUDA_CHECK(cudaStreamDestroy(producer));
  CUDA_CHECK(cudaStreamDestroy(consumer));
  CUDA_CHECK(cudaFree(buf));
  CUDA_CHECK(cudaFree(out));
  free(h);
  free(ref);
  printf("PASSED\n");
  return 0;
}

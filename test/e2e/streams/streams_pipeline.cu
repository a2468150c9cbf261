// A chunked copy/compute/copy pipeline over four non-default streams: each
// chunk's cudaMemcpyAsync H2D, kernel and cudaMemcpyAsync D2H are issued on
// the same stream and must execute in issue order. Also checks that work
// on the legacy default stream orders after prior stream work and that
// cudaStreamQuery reports completion after cudaStreamSynchronize.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
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

__global__ void process(float *data, int n, float factor, int repeats) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = data[i];
  for (int r = 0; r < repeats; ++r)
    v = v * factor + 1.0f;
  data[i] = v;
}

__global__ void addOne(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

int main() {
  const int numStreams = 4, chunk = 50000, n = numStreams * chunk * 2;
  float *h, *res;
  CUDA_CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CUDA_CHECK(cudaMallocHost(&res, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    h[i] = (float)(i % 64);
    res[i] = -1.0f;
  }
  float *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
  cudaStream_t streams[numStreams];
  for (int s = 0; s < numStreams; ++s)
    CUDA_CHECK(cudaStreamCreate(&streams[s]));

  const int numChunks = n / chunk;
  for (int c = 0; c < numChunks; ++c) {
    cudaStream_t s = streams[c % numStreams];
    float *dc = d + c * chunk;
    CUDA_CHECK(cudaMemcpyAsync(dc, h + c * chunk, chunk * sizeof(float),
                               cudaMemcpyHostToDevice, s));
    process<<<(chunk + 255) / 256, 256, 0, s>>>(dc, chunk, 2.0f, 3 + c % 3);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(res + c * chunk, dc, chunk * sizeof(float),
                               cudaMemcpyDeviceToHost, s));
  }
  for (int s = 0; s < numStreams; ++s) {
    CUDA_CHECK(cudaStreamSynchronize(streams[s]));
    CUDA_CHECK(cudaStreamQuery(streams[s])); // cudaSuccess: all work done
  }
  for (int i = 0; i < n; ++i) {
    int c = i / chunk;
    float e = (float)(i % 64);
    for (int r = 0; r < 3 + c % 3; ++r)
      e = e * 2.0f + 1.0f;
    if (res[i] != e) {
      printf("chunk %d element %d: got %f, expected %f\n", c, i, res[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  // The legacy default stream waits for all blocking streams' work.
  process<<<(n + 255) / 256, 256, 0, streams[1]>>>(d, n, 1.0f, 2);
  CUDA_CHECK(cudaGetLastError());
  addOne<<<(n + 255) / 256, 256>>>(d, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int c = i / chunk;
    float e = (float)(i % 64);
    for (int r = 0; r < 3 + c % 3; ++r)
      e = e * 2.0f + 1.0f;
    e = e + 2.0f + 1.0f;
    if (res[i] != e) {
      printf("default-stream ordering at %d: got %f, expected %f\n", i, res[i],
             e);
      printf("FAILED\n");
      return 1;
    }
  }
  for (int s = 0; s < numStreams; ++s)
    CUDA_CHECK(cudaStreamDestroy(streams[s]));
  CUDA_CHECK(cudaFree(d));
  CUDA_CHECK(cudaFreeHost(h));
  CUDA_CHECK(cudaFreeHost(res));
  printf("PASSED\n");
  return 0;
}

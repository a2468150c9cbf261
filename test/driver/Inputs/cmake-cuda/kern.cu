#include <cuda_runtime.h>
__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= 2;
}
void runTwice(int *host, int n) {
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, host, n * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<(n + 127) / 128, 128>>>(d, n);
  cudaMemcpy(host, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
}

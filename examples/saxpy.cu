// SAXPY (y = a*x + y), the "hello world" of CUDA.
// Build and run it with respec exactly as with nvcc:
//   respec -O2 saxpy.cu -o saxpy && ./saxpy
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess) {                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   cudaGetErrorString(status));                                \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 22;
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = std::sin(0.001f * i);
    y[i] = std::cos(0.002f * i);
  }

  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  std::vector<float> result(n);
  CHECK(cudaMemcpy(result.data(), dy, n * sizeof(float),
                   cudaMemcpyDeviceToHost));
  int errors = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(result[i] - (a * x[i] + y[i])) > 1e-5f * (1 + std::fabs(y[i])))
      ++errors;
  std::printf("device: %s\n", prop.name);
  std::printf("saxpy of %d elements: %.3f ms, %d errors\n", n, ms, errors);
  std::printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return errors == 0 ? 0 : 1;
}

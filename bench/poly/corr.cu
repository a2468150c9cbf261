// CORR: the correlation matrix of m variables over n observations, as
// PolyBench/GPU's CORR writes it: kernels for the means and the standard
// deviations (one thread per variable walking its column), the centring
// and scaling (one thread per element) and the upper triangle of the
// correlation matrix (one thread per row j1, which computes the m - j1 - 1
// entries right of the diagonal: threads do very different work).
#include "../sci/common.h"

#ifndef SIZE
#define SIZE 512
#endif

__global__ void means(const float *data, float *mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i)
      sum += data[i * m + j];
    mean[j] = sum / n;
  }
}

__global__ void deviations(const float *data, const float *mean, float *dev,
                           int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float sum = 0.0f;
    for (int i = 0; i < n; ++i) {
      float d = data[i * m + j] - mean[j];
      sum += d * d;
    }
    float s = sqrtf(sum / n);
    dev[j] = s <= 0.005f ? 1.0f : s;
  }
}

__global__ void standardize(float *data, const float *mean, const float *dev,
                            int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m)
    data[i * m + j] = (data[i * m + j] - mean[j]) / (sqrtf((float)n) * dev[j]);
}

__global__ void correlate(const float *data, float *corr, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    corr[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; ++j2) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i)
        sum += data[i * m + j1] * data[i * m + j2];
      corr[j1 * m + j2] = sum;
      corr[j2 * m + j1] = sum;
    }
  }
}

int main() {
  const int m = SIZE, n = SIZE;
  const std::vector<float> data0 = makeUniform<float>((size_t)n * m, 431, 1.0);
  std::vector<float> corr((size_t)m * m);
  float *dData, *dMean, *dDev, *dCorr;
  cudaMalloc(&dData, data0.size() * sizeof(float));
  cudaMalloc(&dMean, m * sizeof(float));
  cudaMalloc(&dDev, m * sizeof(float));
  cudaMalloc(&dCorr, corr.size() * sizeof(float));
  timeIt(
      [&] {
        cudaMemcpy(dData, data0.data(), data0.size() * sizeof(float),
                   cudaMemcpyHostToDevice);
        cudaMemset(dCorr, 0, corr.size() * sizeof(float));
      },
      [&] {
        means<<<(m + 255) / 256, 256>>>(dData, dMean, m, n);
        deviations<<<(m + 255) / 256, 256>>>(dData, dMean, dDev, m, n);
        standardize<<<dim3((m + 31) / 32, (n + 7) / 8), dim3(32, 8)>>>(
            dData, dMean, dDev, m, n);
        correlate<<<(m + 255) / 256, 256>>>(dData, dCorr, m, n);
        cudaDeviceSynchronize();
      });
  cudaMemcpy(corr.data(), dCorr, corr.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  corr[(size_t)(m - 1) * m + (m - 1)] = 1.0f;
  printChecksum(checksum(corr));
  return 0;
}

// Thrust's scans and the algorithms built on them (CUDA 13's CCCL): CUB's
// single-pass scan publishes each tile's {status, value} with one relaxed
// vector store and reads its predecessors' with one relaxed vector load
// (64 bits for int, 128 for double), spinning until they are ready
// (decoupled look-back). Enough elements for many tiles; checked against
// the host.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// CHECK: inclusive_scan PASSED
// CHECK: exclusive_scan PASSED
// CHECK: copy_if PASSED
// CHECK: scan_by_key PASSED

#include <cstdio>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>

struct IsMultipleOf3 {
  __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};

int main() {
  const int n = 1 << 20;
  thrust::host_vector<int> values(n);
  for (int i = 0; i < n; ++i)
    values[i] = (int)((i * 2654435761u) % 201) - 100;
  thrust::device_vector<int> dValues = values;

  thrust::device_vector<int> dInclusive(n);
  thrust::inclusive_scan(dValues.begin(), dValues.end(), dInclusive.begin());
  thrust::host_vector<int> inclusive = dInclusive;
  bool ok = true;
  int running = 0;
  for (int i = 0; i < n; ++i) {
    running += values[i];
    ok &= inclusive[i] == running;
  }
  printf("inclusive_scan %s\n", ok ? "PASSED" : "FAILED");

  // Doubles: the {status, value} pair is 128 bits. The values are
  // multiples of 1/4, so every partial sum is exact in any order.
  thrust::host_vector<double> halves(n);
  for (int i = 0; i < n; ++i)
    halves[i] = values[i] * 0.25;
  thrust::device_vector<double> dHalves = halves;
  thrust::device_vector<double> dExclusive(n);
  thrust::exclusive_scan(dHalves.begin(), dHalves.end(), dExclusive.begin(),
                         1.0);
  thrust::host_vector<double> exclusive = dExclusive;
  ok = true;
  double sum = 1.0;
  for (int i = 0; i < n; ++i) {
    ok &= exclusive[i] == sum;
    sum += halves[i];
  }
  printf("exclusive_scan %s\n", ok ? "PASSED" : "FAILED");

  thrust::device_vector<int> dSelected(n);
  auto end = thrust::copy_if(dValues.begin(), dValues.end(),
                             dSelected.begin(), IsMultipleOf3());
  thrust::host_vector<int> selected(dSelected.begin(), end);
  ok = true;
  size_t count = 0;
  for (int i = 0; i < n; ++i)
    if (values[i] % 3 == 0)
      ok &= count < selected.size() && selected[count++] == values[i];
  ok &= count == selected.size();
  printf("copy_if %s\n", ok ? "PASSED" : "FAILED");

  // Segments of 1 to 37 equal keys.
  thrust::host_vector<int> keys(n);
  for (int i = 0, key = 0, left = 1; i < n; ++i) {
    if (--left == 0) {
      ++key;
      left = 1 + key % 37;
    }
    keys[i] = key;
  }
  thrust::device_vector<int> dKeys = keys;
  thrust::device_vector<int> dByKey(n);
  thrust::inclusive_scan_by_key(dKeys.begin(), dKeys.end(), dValues.begin(),
                                dByKey.begin());
  thrust::host_vector<int> byKey = dByKey;
  ok = true;
  running = 0;
  for (int i = 0; i < n; ++i) {
    running = (i > 0 && keys[i] == keys[i - 1]) ? running + values[i]
                                                : values[i];
    ok &= byKey[i] == running;
  }
  printf("scan_by_key %s\n", ok ? "PASSED" : "FAILED");
  return 0;
}

// Thrust's device algorithms (CUDA 13's CCCL): device_vector, sequence,
// transform, reduce, sort, count_if on the CPU. Thrust's kernels come from
// CUB (its inline PTX is translated) and are launched through
// cudaLaunchKernelEx. Checked against the host. (Scans are in
// thrust_scans.cu.)
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: reduce PASSED
// CHECK: sort PASSED
// CHECK: count PASSED

#include <cstdio>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct Square {
  __host__ __device__ long long operator()(int x) const {
    return (long long)x * x;
  }
};

struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};

int main() {
  const int n = 100000;
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end());
  thrust::device_vector<long long> squares(n);
  thrust::transform(v.begin(), v.end(), squares.begin(), Square());
  long long sum = thrust::reduce(squares.begin(), squares.end(), 0ll);
  long long expect = 0;
  for (long long i = 0; i < n; ++i)
    expect += i * i;
  printf("reduce %s\n", sum == expect ? "PASSED" : "FAILED");

  thrust::host_vector<int> shuffled(n);
  for (int i = 0; i < n; ++i)
    shuffled[i] = (int)((i * 7919LL) % n) - n / 2;
  thrust::device_vector<int> keys = shuffled;
  thrust::sort(keys.begin(), keys.end());
  thrust::host_vector<int> sorted = keys;
  bool sortOk = true;
  for (int i = 0; i < n; ++i)
    sortOk &= sorted[i] == i - n / 2;
  printf("sort %s\n", sortOk ? "PASSED" : "FAILED");

  long long odd = thrust::count_if(v.begin(), v.end(), IsOdd());
  printf("count %s\n", odd == n / 2 ? "PASSED" : "FAILED");
  return sum == expect && sortOk && odd == n / 2 ? 0 : 1;
}

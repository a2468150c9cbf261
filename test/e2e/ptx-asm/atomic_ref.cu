// libcu++'s cuda::atomic_ref implements its scoped operations with inline
// PTX (atom.add.relaxed.gpu.s32, atom.cas.acquire.cta.b32, fence.sc.gpu,
// ld.acquire.gpu.b32, st.relaxed.gpu.b32, ...); __nanosleep is
// nanosleep.u32. respec translates them to CPU atomics and fences.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda/atomic>

__global__ void counters(int *count, int *maximum, float *total, int *slots,
                         int *flag, int *seen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*count);
  c.fetch_add(1, cuda::std::memory_order_relaxed);
  cuda::atomic_ref<int, cuda::thread_scope_block> m(maximum[blockIdx.x]);
  m.fetch_max(i);
  cuda::atomic_ref<float, cuda::thread_scope_device> t(*total);
  t.fetch_add(0.25f);
  // Each slot is claimed by the first of the two threads mapped to it.
  cuda::atomic_ref<int, cuda::thread_scope_device> slot(slots[i / 2]);
  int expected = 0;
  if (slot.compare_exchange_strong(expected, i + 1))
    __nanosleep(10);
  cuda::atomic_ref<int, cuda::thread_scope_system> f(*flag);
  f.store(7, cuda::std::memory_order_release);
  seen[i] = f.load(cuda::std::memory_order_acquire);
}

int main() {
  constexpr int kBlocks = 4, kThreads = 64, N = kBlocks * kThreads;
  int *count, *maximum, *slots, *flag, *seen;
  float *total;
  cudaMallocManaged(&count, 4);
  cudaMallocManaged(&maximum, kBlocks * 4);
  cudaMallocManaged(&total, 4);
  cudaMallocManaged(&slots, N / 2 * 4);
  cudaMallocManaged(&flag, 4);
  cudaMallocManaged(&seen, N * 4);
  *count = 0;
  *total = 0;
  *flag = 0;
  for (int b = 0; b < kBlocks; ++b)
    maximum[b] = -1;
  for (int s = 0; s < N / 2; ++s)
    slots[s] = 0;
  counters<<<kBlocks, kThreads>>>(count, maximum, total, slots, flag, seen);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, bool ok) {
    if (!ok && ++failures <= 10)
      printf("%s[%d] wrong\n", what, i);
  };
  expect("fetch_add", 0, *count == N);
  expect("fetch_add(float)", 0, *total == N * 0.25f);
  for (int b = 0; b < kBlocks; ++b)
    expect("fetch_max", b, maximum[b] == (b + 1) * kThreads - 1);
  for (int s = 0; s < N / 2; ++s)
    expect("compare_exchange_strong", s,
           slots[s] == 2 * s + 1 || slots[s] == 2 * s + 2);
  for (int i = 0; i < N; ++i)
    expect("store/load", i, seen[i] == 7);
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}

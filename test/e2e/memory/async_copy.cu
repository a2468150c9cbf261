// Asynchronous copies into shared memory (cp.async, sm_80): the CUDA
// pipeline primitives (double buffering, a ragged tail zero-filled through
// src-size), cuda::memcpy_async with a thread-scope cuda::pipeline (as in
// the CUDA samples), cooperative groups' memcpy_async for a block and for
// tiles of 32 with wait_prior, hand-written cp.async, cvta.to.shared and
// ld.shared/st.shared on 32-bit shared-window addresses (src-size and the
// ignore-src predicate), and __isShared/__isGlobal/__isLocal. The CPU copies
// at once; each kernel's result is checked against the host.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec --disable-opt=all -O2 %s -o %t.noopt && %t.noopt | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=2 -O2 %s -o %t.c2x2 && %t.c2x2 | FileCheck %s
// CHECK: PASSED

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>
#include <cstdlib>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      printf("check failed at line %d: %s\n", __LINE__, #cond);               \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

constexpr int T = 64;

// Sums column (t + 1) % T of each T-float chunk, loading the next chunk while
// summing the current one; the last chunk is cut short and zero-filled.
__global__ void primitives(const float *in, float *out, int n) {
  __shared__ __align__(16) float buffer[2][T];
  int chunks = (n + T - 1) / T;
  int t = threadIdx.x;
  const float *base = in + blockIdx.x * n;
  auto issue = [&](int chunk) {
    int index = chunk * T + t;
    if (index < n)
      __pipeline_memcpy_async(&buffer[chunk & 1][t], &base[index], 4);
    else
      __pipeline_memcpy_async(&buffer[chunk & 1][t], &base[0], 4, 4);
    __pipeline_commit();
  };
  float sum = 0;
  issue(0);
  for (int chunk = 0; chunk < chunks; ++chunk) {
    if (chunk + 1 < chunks) {
      issue(chunk + 1);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    sum += buffer[chunk & 1][(t + 1) % T];
    __syncthreads();
  }
  out[blockIdx.x * T + t] = sum;
}

// cuda::memcpy_async of float4s through a per-thread pipeline; each thread
// reads what another copied.
__global__ void threadPipeline(const float4 *in, float4 *out, int chunks) {
  __shared__ float4 tile[2][T];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float4 sum = {0, 0, 0, 0};
  const float4 *base = in + blockIdx.x * chunks * T;
  for (int chunk = 0; chunk < chunks; ++chunk) {
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[chunk & 1][threadIdx.x],
                       &base[chunk * T + threadIdx.x], sizeof(float4), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    float4 v = tile[chunk & 1][T - 1 - threadIdx.x];
    sum.x += v.x;
    sum.y += v.y;
    sum.z += v.z;
    sum.w += v.w;
    pipe.consumer_release();
    __syncthreads();
  }
  out[blockIdx.x * T + threadIdx.x] = sum;
}

// The whole block copies a row of `count` ints (any count: the group
// splits it at alignment boundaries), then reverses it.
__global__ void blockCopy(const int *in, int *out, int count) {
  extern __shared__ int row[];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, row, in + blockIdx.x * count, sizeof(int) * count);
  cg::wait(block);
  for (int i = threadIdx.x; i < count; i += blockDim.x)
    out[blockIdx.x * count + i] = row[count - 1 - i];
}

// Each tile of 32 copies its own 64 ints (the last tile only 37).
__global__ void tileCopy(const int *in, int *out) {
  __shared__ int s[256];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int w = tile.meta_group_rank();
  int count = w == 3 ? 37 : 64;
  cg::memcpy_async(tile, s + w * 64, in + blockIdx.x * 256 + w * 64,
                   sizeof(int) * count);
  cg::wait_prior<0>(tile);
  block.sync();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    out[blockIdx.x * 256 + i] = (i % 64 < 37 || i < 192) ? s[i] : -1;
}

// PTX by hand: 16-byte copies to 32-bit shared addresses, the last thread's
// cut to 8 bytes, every fourth thread's ignored (zero-filled); a load and a
// store through shared addresses computed in 32 bits; address-space queries.
__global__ void handWritten(const int *in, int *out, int *spaces) {
  __shared__ __align__(16) int s[4 * 32];
  __shared__ int flags[32];
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  unsigned destination = base + threadIdx.x * 16;
  unsigned sourceSize = threadIdx.x == 31 ? 8 : 16;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(
                   destination),
               "l"(in + threadIdx.x * 4), "r"(sourceSize)
               : "memory");
  unsigned ignore = threadIdx.x % 4 == 1;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\t"
               "cp.async.ca.shared.global [%0], [%1], 4, p;\n\t}" ::"r"(
                   destination + 12),
               "l"(in + 200), "r"(ignore)
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  unsigned flag;
  asm("cvta.to.shared.u32 %0, %1;" : "=r"(flag) : "r"((unsigned)(size_t)0));
  unsigned flagAddress =
      (unsigned)__cvta_generic_to_shared(&flags[31 - threadIdx.x]);
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(flagAddress), "r"(threadIdx.x)
               : "memory");
  __syncthreads();
  int value;
  unsigned source = base + ((threadIdx.x + 1) % 32) * 16 + 4;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(value) : "r"(source));
  int last;
  asm volatile("ld.shared.b32 %0, [%1+12];"
               : "=r"(last)
               : "r"(base + threadIdx.x * 16));
  out[threadIdx.x * 3] = value;
  out[threadIdx.x * 3 + 1] = last;
  out[threadIdx.x * 3 + 2] = flags[threadIdx.x];
  int local = threadIdx.x;
  int *volatile localPointer = &local;
  if (threadIdx.x == 0) {
    spaces[0] = __isShared(s) + 2 * __isGlobal(s) + 4 * __isLocal(s);
    spaces[1] = __isShared(in) + 2 * __isGlobal(in) + 4 * __isLocal(in);
    spaces[2] = __isShared(localPointer) + 2 * __isGlobal(localPointer) +
                4 * __isLocal(localPointer);
    spaces[3] = __isShared(flags + 31) + 2 * __isGlobal(flags + 31);
  }
  (void)flag;
}

int main() {
  {
    const int n = 1000, blocks = 3;
    float *in, *out;
    cudaMallocManaged(&in, blocks * n * sizeof(float));
    cudaMallocManaged(&out, blocks * T * sizeof(float));
    for (int i = 0; i < blocks * n; ++i)
      in[i] = (float)(i % 13);
    primitives<<<blocks, T>>>(in, out, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    int chunks = (n + T - 1) / T;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < T; ++t) {
        float expected = 0;
        for (int c = 0; c < chunks; ++c) {
          int index = c * T + (t + 1) % T;
          expected += index < n ? in[b * n + index] : 0.0f;
        }
        CHECK(out[b * T + t] == expected);
      }
  }
  {
    const int chunks = 5, blocks = 2;
    float4 *in, *out;
    cudaMallocManaged(&in, blocks * chunks * T * sizeof(float4));
    cudaMallocManaged(&out, blocks * T * sizeof(float4));
    for (int i = 0; i < blocks * chunks * T; ++i)
      in[i] = make_float4((float)i, (float)(i % 3), (float)-i, 1.0f);
    threadPipeline<<<blocks, T>>>(in, out, chunks);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < T; ++t) {
        float4 e = {0, 0, 0, 0};
        for (int c = 0; c < chunks; ++c) {
          float4 v = in[b * chunks * T + c * T + T - 1 - t];
          e.x += v.x;
          e.y += v.y;
          e.z += v.z;
          e.w += v.w;
        }
        float4 r = out[b * T + t];
        CHECK(r.x == e.x && r.y == e.y && r.z == e.z && r.w == e.w);
      }
  }
  for (int count : {1, 7, 64, 301}) {
    const int blocks = 3;
    int *in, *out;
    cudaMallocManaged(&in, blocks * count * sizeof(int));
    cudaMallocManaged(&out, blocks * count * sizeof(int));
    for (int i = 0; i < blocks * count; ++i)
      in[i] = i * 7 + 1;
    blockCopy<<<blocks, 96, count * sizeof(int)>>>(in, out, count);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int b = 0; b < blocks; ++b)
      for (int i = 0; i < count; ++i)
        CHECK(out[b * count + i] == in[b * count + count - 1 - i]);
  }
  {
    int *in, *out;
    cudaMallocManaged(&in, 512 * sizeof(int));
    cudaMallocManaged(&out, 512 * sizeof(int));
    for (int i = 0; i < 512; ++i)
      in[i] = i * 3;
    tileCopy<<<2, 128>>>(in, out);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 256; ++i)
        CHECK(out[b * 256 + i] ==
              ((i % 64 < 37 || i < 192) ? in[b * 256 + i] : -1));
  }
  {
    int *in, *out, *spaces;
    cudaMallocManaged(&in, 256 * sizeof(int));
    cudaMallocManaged(&out, 96 * sizeof(int));
    cudaMallocManaged(&spaces, 4 * sizeof(int));
    for (int i = 0; i < 256; ++i)
      in[i] = i + 1000;
    handWritten<<<1, 32>>>(in, out, spaces);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    for (int t = 0; t < 32; ++t) {
      int j = (t + 1) % 32;
      // Word 1 of thread j's 16 bytes (all of them copied: 8 bytes or more).
      CHECK(out[t * 3] == in[j * 4 + 1]);
      // Word 3: the 4-byte copy from in[200], or zero where ignored.
      CHECK(out[t * 3 + 1] == (t % 4 == 1 ? 0 : in[200]));
      CHECK(out[t * 3 + 2] == 31 - t);
    }
    CHECK(spaces[0] == 1); // shared
    CHECK(spaces[1] == 2); // global
    CHECK(spaces[2] == 4); // local
    CHECK(spaces[3] == 1); // the last element of another shared array
  }
  printf("PASSED\n");
  return 0;
}

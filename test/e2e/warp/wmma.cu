// Warp matrix functions (nvcuda::wmma) on the CPU: every shape and type
// respec supports (f16 with f32 and f16 accumulators in m16n16k16, m32n8k16
// and m8n32k16; bf16; tf32 with __float_to_tf32; s8 and u8 with and without
// saturation; f64 m8n8k4), every combination of row- and column-major
// operands and accumulators, fill_fragment and element-wise updates of
// fragments, and a tiled GEMM with several warps per block staging tiles in
// shared memory between __syncthreads, as in CUDA's tensor-core samples.
// Inputs are small integers, so every product and sum is exact; each result
// is checked against the host.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 %t | FileCheck %s
// RUN: %respec --disable-opt=all -O2 %s -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: PASSED

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdlib>
#include <mma.h>

using namespace nvcuda;

static int failures = 0;
#define CHECK(cond, ...)                                                      \
  do {                                                                        \
    if (!(cond) && failures++ < 10) {                                         \
      printf("check failed at line %d: %s: ", __LINE__, #cond);               \
      printf(__VA_ARGS__);                                                    \
      printf("\n");                                                           \
    }                                                                         \
  } while (0)

template <typename T> T fromInt(int v) { return (T)v; }
template <> __half fromInt<__half>(int v) { return __int2half_rn(v); }
template <> __nv_bfloat16 fromInt<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <typename T> double toDouble(T v) { return (double)v; }
template <> double toDouble<__half>(__half v) { return __half2float(v); }

// D = 2 * (A x B + C) for one M x N tile per warp; warps of a block work on
// consecutive tiles of a batch. Layouts are template parameters.
template <int M, int N, int K, typename In, typename Frag, typename Acc,
          typename LayoutA, typename LayoutB, bool ColC, bool ColD>
__global__ void tileMma(const In *a, const In *b, const Acc *c, Acc *d) {
  int tile = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, LayoutA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, LayoutB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
  wmma::load_matrix_sync(fa, a + tile * M * K, std::is_same<LayoutA, wmma::row_major>::value ? K : M);
  wmma::load_matrix_sync(fb, b + tile * K * N, std::is_same<LayoutB, wmma::row_major>::value ? N : K);
  wmma::load_matrix_sync(fc, c + tile * M * N, ColC ? M : N,
                         ColC ? wmma::mem_col_major : wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; ++i)
    fc.x[i] = fc.x[i] + fc.x[i];
  wmma::store_matrix_sync(d + tile * M * N, fc, ColD ? M : N,
                          ColD ? wmma::mem_col_major : wmma::mem_row_major);
}

template <int M, int N, int K, typename In, typename Frag, typename Acc,
          typename LayoutA, typename LayoutB, bool ColC, bool ColD>
void runTileMma(const char *name, int valueRange) {
  const int tiles = 6;
  In *a, *b;
  Acc *c, *d;
  cudaMallocManaged(&a, tiles * M * K * sizeof(In));
  cudaMallocManaged(&b, tiles * K * N * sizeof(In));
  cudaMallocManaged(&c, tiles * M * N * sizeof(Acc));
  cudaMallocManaged(&d, tiles * M * N * sizeof(Acc));
  for (int i = 0; i < tiles * M * K; ++i)
    a[i] = fromInt<In>((i * 7 + 3) % valueRange - valueRange / 2);
  for (int i = 0; i < tiles * K * N; ++i)
    b[i] = fromInt<In>((i * 5 + 1) % valueRange - valueRange / 3);
  for (int i = 0; i < tiles * M * N; ++i)
    c[i] = fromInt<Acc>(i % 9 - 4);
  bool rowA = std::is_same<LayoutA, wmma::row_major>::value;
  bool rowB = std::is_same<LayoutB, wmma::row_major>::value;
  // Two warps per block, three blocks.
  tileMma<M, N, K, In, Frag, Acc, LayoutA, LayoutB, ColC, ColD>
      <<<3, 64>>>(a, b, c, d);
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "%s", name);
  for (int t = 0; t < tiles; ++t)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double sum = toDouble(c[t * M * N + (ColC ? j * M + i : i * N + j)]);
        for (int k = 0; k < K; ++k)
          sum += toDouble(a[t * M * K + (rowA ? i * K + k : k * M + i)]) *
                 toDouble(b[t * K * N + (rowB ? k * N + j : j * K + k)]);
        double got = toDouble(d[t * M * N + (ColD ? j * M + i : i * N + j)]);
        CHECK(got == 2 * sum, "%s tile %d (%d, %d): %f, expected %f", name,
              t, i, j, got, 2 * sum);
      }
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
}

// tf32: inputs with more fraction bits than tf32 keeps are rounded by
// __float_to_tf32 (to nearest, ties away from zero).
__global__ void tf32Mma(const float *a, const float *b, float *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  for (int i = 0; i < fa.num_elements; ++i)
    fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
  for (int i = 0; i < fb.num_elements; ++i)
    fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  wmma::fill_fragment(fc, 0.5f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

static float roundToTF32(float x) {
  unsigned bits;
  memcpy(&bits, &x, 4);
  bits = (bits + 0x1000u) & 0xffffe000u;
  memcpy(&x, &bits, 4);
  return x;
}

// Saturating integer products: sums past INT32_MAX stay at INT32_MAX.
__global__ void saturatingMma(const signed char *a, const signed char *b,
                              const int *c, int *d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc, true);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// C = A x B for n x n matrices: each block computes a 64 x 64 tile with
// 8 warps (4 x 2, each 16 x 32: two accumulators), staging 64 x 16 slices
// of A and B in shared memory.
constexpr int kTile = 64;
__global__ void tiledGemm(const __half *a, const __half *b, float *c, int n) {
  __shared__ __half sa[kTile][16 + 8];
  __shared__ __half sb[16][kTile + 8];
  int warp = threadIdx.x / 32;
  int warpRow = warp / 2, warpColumn = warp % 2;
  int row0 = blockIdx.y * kTile, column0 = blockIdx.x * kTile;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2];
  for (int j = 0; j < 2; ++j)
    wmma::fill_fragment(acc[j], 0.0f);
  for (int k0 = 0; k0 < n; k0 += 16) {
    for (int i = threadIdx.x; i < kTile * 16; i += blockDim.x) {
      sa[i / 16][i % 16] = a[(row0 + i / 16) * n + k0 + i % 16];
      sb[i / kTile][i % kTile] = b[(k0 + i / kTile) * n + column0 + i % kTile];
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, &sa[warpRow * 16][0], 16 + 8);
    for (int j = 0; j < 2; ++j) {
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
      wmma::load_matrix_sync(fb, &sb[0][warpColumn * 32 + j * 16], kTile + 8);
      wmma::mma_sync(acc[j], fa, fb, acc[j]);
    }
    __syncthreads();
  }
  for (int j = 0; j < 2; ++j)
    wmma::store_matrix_sync(
        c + (row0 + warpRow * 16) * n + column0 + warpColumn * 32 + j * 16,
        acc[j], n, wmma::mem_row_major);
}

int main() {
  using R = wmma::row_major;
  using C = wmma::col_major;
  runTileMma<16, 16, 16, __half, __half, float, R, C, false, false>("f16 rc", 9);
  runTileMma<16, 16, 16, __half, __half, float, C, R, true, true>("f16 cr", 9);
  runTileMma<16, 16, 16, __half, __half, float, R, R, false, true>("f16 rr", 9);
  runTileMma<16, 16, 16, __half, __half, float, C, C, true, false>("f16 cc", 9);
  runTileMma<16, 16, 16, __half, __half, __half, R, C, false, false>("f16 acc", 5);
  runTileMma<32, 8, 16, __half, __half, float, R, R, false, false>("m32n8k16", 9);
  runTileMma<8, 32, 16, __half, __half, float, C, C, true, true>("m8n32k16", 9);
  runTileMma<32, 8, 16, __half, __half, __half, C, R, true, false>("m32n8k16 f16", 5);
  runTileMma<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, R, C, false, false>("bf16", 9);
  runTileMma<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, C, R, false, true>("bf16 m32n8k16", 9);
  runTileMma<16, 16, 16, signed char, signed char, int, R, C, false, false>("s8", 200);
  runTileMma<8, 32, 16, signed char, signed char, int, R, R, true, false>("s8 m8n32k16", 200);
  runTileMma<16, 16, 16, unsigned char, unsigned char, int, C, R, false, true>("u8", 250);
  runTileMma<8, 8, 4, double, double, double, R, C, false, false>("f64", 21);
  runTileMma<8, 8, 4, double, double, double, C, R, true, true>("f64 cr", 21);

  {
    float *a, *b, *d;
    cudaMallocManaged(&a, 16 * 8 * sizeof(float));
    cudaMallocManaged(&b, 8 * 16 * sizeof(float));
    cudaMallocManaged(&d, 16 * 16 * sizeof(float));
    for (int i = 0; i < 128; ++i) {
      a[i] = 1.0f + (i % 5) * (1.0f / 1024) + (i % 3) * (1.0f / 8192);
      b[i] = (float)(i % 4) + 0.25f + (i % 7) * (1.0f / 16384);
    }
    tf32Mma<<<1, 32>>>(a, b, d);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "tf32");
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double sum = 0.5;
        for (int k = 0; k < 8; ++k)
          sum += (double)roundToTF32(a[i * 8 + k]) *
                 (double)roundToTF32(b[j * 8 + k]);
        CHECK(fabs(d[i * 16 + j] - sum) <= 1e-5 * fabs(sum),
              "tf32 (%d, %d): %f, expected %f", i, j, d[i * 16 + j], sum);
      }
  }
  {
    signed char *a, *b;
    int *c, *d;
    cudaMallocManaged(&a, 256);
    cudaMallocManaged(&b, 256);
    cudaMallocManaged(&c, 256 * sizeof(int));
    cudaMallocManaged(&d, 256 * sizeof(int));
    for (int i = 0; i < 256; ++i) {
      a[i] = (i / 16) % 2 ? -128 : 127;
      b[i] = (i % 16) % 3 ? 127 : -128;
      c[i] = i % 2 ? 2147000000 : -2147000000;
    }
    saturatingMma<<<1, 32>>>(a, b, c, d);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "satfinite");
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        long long sum = c[i * 16 + j];
        for (int k = 0; k < 16; ++k)
          sum += (long long)a[i * 16 + k] * b[k * 16 + j];
        long long clamped = sum > 2147483647LL    ? 2147483647LL
                            : sum < -2147483648LL ? -2147483648LL
                                                  : sum;
        CHECK(d[i * 16 + j] == clamped, "satfinite (%d, %d): %d, expected %lld",
              i, j, d[i * 16 + j], clamped);
      }
  }
  {
    const int n = 128;
    __half *a, *b;
    float *c;
    cudaMallocManaged(&a, n * n * sizeof(__half));
    cudaMallocManaged(&b, n * n * sizeof(__half));
    cudaMallocManaged(&c, n * n * sizeof(float));
    for (int i = 0; i < n * n; ++i) {
      a[i] = __int2half_rn((i * 7) % 11 - 5);
      b[i] = __int2half_rn((i * 3) % 13 - 6);
    }
    tiledGemm<<<dim3(n / kTile, n / kTile), 256>>>(a, b, c, n);
    CHECK(cudaDeviceSynchronize() == cudaSuccess, "tiled");
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        float sum = 0;
        for (int k = 0; k < n; ++k)
          sum += __half2float(a[i * n + k]) * __half2float(b[k * n + j]);
        CHECK(c[i * n + j] == sum, "tiled (%d, %d): %f, expected %f", i, j,
              c[i * n + j], sum);
      }
  }
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}

// Classes in device code: a fixed-size vector class template with a
// non-type size parameter, operator[] and member functions, a class whose
// member function is the kernel body (called through an object passed by
// value), inheritance with a non-virtual base, and a static constexpr
// member.
// RUN: %respec -O0 -g %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=2,thread=4 -O0 -g %s -o %t.c2x4 && %t.c2x4 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=1 -O0 -g %s -o %t.c3x1 && %t.c3x1 | FileCheck %s
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

template <typename T, int N> struct Vec {
  T v[N];
  __host__ __device__ T &operator[](int i) { return v[i]; }
  __host__ __device__ const T &operator[](int i) const { return v[i]; }
  __host__ __device__ T dot(const Vec &o) const {
    T s = 0;
    for (int i = 0; i < N; ++i)
      s += v[i] * o.v[i];
    return s;
  }
  __host__ __device__ Vec operator*(T s) const {
    Vec r;
    for (int i = 0; i < N; ++i)
      r.v[i] = v[i] * s;
    return r;
  }
  __host__ __device__ Vec operator+(const Vec &o) const {
    Vec r;
    for (int i = 0; i < N; ++i)
      r.v[i] = v[i] + o.v[i];
    return r;
  }
  __host__ __device__ T maxElement() const {
    T m = v[0];
    for (int i = 1; i < N; ++i)
      m = v[i] > m ? v[i] : m;
    return m;
  }
};

struct Shape {
  int sides;
  __host__ __device__ int perimeterTimes(int len) const { return sides * len; }
};

struct Polygon : Shape {
  static constexpr int kMaxSides = 12;
  int scale;
  __host__ __device__ Polygon(int s, int sc) : Shape{s}, scale(sc) {}
  __host__ __device__ int score(int i) const {
    return perimeterTimes(i % kMaxSides) * scale - sides;
  }
};

// An object whose member function is the work of one thread.
class Blender {
public:
  Blender(const Vec<int, 5> *a, const Vec<int, 5> *b, int *out, int n, int w)
      : a_(a), b_(b), out_(out), n_(n), w_(w) {}
  __device__ void operator()(int i) const {
    if (i >= n_)
      return;
    Vec<int, 5> mixed = a_[i] * w_ + b_[i];
    out_[i] = mixed.dot(a_[i]) - mixed.maxElement();
  }
  int size() const { return n_; }

private:
  const Vec<int, 5> *a_;
  const Vec<int, 5> *b_;
  int *out_;
  int n_;
  int w_;
};

__global__ void blendKernel(Blender blender) {
  blender(blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void polygonKernel(Polygon p, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = p.score(i);
}

int main() {
  const int n = 40000;
  Vec<int, 5> *ha = (Vec<int, 5> *)malloc(n * sizeof(Vec<int, 5>));
  Vec<int, 5> *hb = (Vec<int, 5> *)malloc(n * sizeof(Vec<int, 5>));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 5; ++k) {
      ha[i][k] = (i + k * 13) % 21 - 10;
      hb[i][k] = (i * 3 + k) % 17 - 8;
    }
  Vec<int, 5> *da, *db;
  int *dout;
  CUDA_CHECK(cudaMalloc(&da, n * sizeof(Vec<int, 5>)));
  CUDA_CHECK(cudaMalloc(&db, n * sizeof(Vec<int, 5>)));
  CUDA_CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(da, ha, n * sizeof(Vec<int, 5>), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(db, hb, n * sizeof(Vec<int, 5>), cudaMemcpyHostToDevice));
  Blender blender(da, db, dout, n, -3);
  blendKernel<<<(blender.size() + 63) / 64, 64>>>(blender);
  CUDA_CHECK(cudaGetLastError());
  int *h = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(h, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    Vec<int, 5> mixed = ha[i] * -3 + hb[i];
    int e = mixed.dot(ha[i]) - mixed.maxElement();
    if (h[i] != e) {
      printf("blend mismatch at %d: got %d, expected %d\n", i, h[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  Polygon poly(7, 3);
  polygonKernel<<<(n + 99) / 100, 100>>>(poly, dout, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (h[i] != poly.score(i)) {
      printf("polygon mismatch at %d: got %d, expected %d\n", i, h[i],
             poly.score(i));
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(da));
  CUDA_CHECK(cudaFree(db));
  CUDA_CHECK(cudaFree(dout));
  free(ha);
  free(hb);
  free(h);
  printf("PASSED\n");
  return 0;
}

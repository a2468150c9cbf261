// A small complex-number class template with operator overloading (+, -, *,
// /, +=, unary -, ==), member functions (norm, conj) and a static factory,
// used in device code for polynomial evaluation (Horner) in float and
// double.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=2 -O2 %s -o %t.c3x2 && %t.c3x2 | FileCheck %s
// RUN: %respec --coarsen=block=3,thread=4 -O2 %s -o %t.c3x4 && %t.c3x4 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

template <typename T> class Complex {
public:
  T re, im;
  __host__ __device__ Complex() : re(0), im(0) {}
  __host__ __device__ Complex(T r, T i) : re(r), im(i) {}
  __host__ __device__ static Complex fromPolarQuarter(int k) {
    // exact unit values i^k
    const T table[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    return Complex(table[k & 3][0], table[k & 3][1]);
  }
  __host__ __device__ T norm() const { return re * re + im * im; }
  __host__ __device__ Complex conj() const { return Complex(re, -im); }
  __host__ __device__ Complex operator-() const { return Complex(-re, -im); }
  __host__ __device__ Complex &operator+=(const Complex &o) {
    re += o.re;
    im += o.im;
    return *this;
  }
  __host__ __device__ friend Complex operator+(Complex a, const Complex &b) {
    return a += b;
  }
  __host__ __device__ friend Complex operator-(const Complex &a,
                                               const Complex &b) {
    return Complex(a.re - b.re, a.im - b.im);
  }
  __host__ __device__ friend Complex operator*(const Complex &a,
                                               const Complex &b) {
    return Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
  }
  __host__ __device__ friend Complex operator/(const Complex &a,
                                               const Complex &b) {
    T d = b.norm();
    Complex n = a * b.conj();
    return Complex(n.re / d, n.im / d);
  }
  __host__ __device__ bool operator==(const Complex &o) const {
    return re == o.re && im == o.im;
  }
};

// p(z) = sum_k coeff[k] z^k evaluated by Horner's rule, then divided by
// (z - shift) and multiplied by i^idx.
template <typename T>
__host__ __device__ Complex<T> evaluate(const Complex<T> *coeff, int degree,
                                        Complex<T> z, Complex<T> shift,
                                        int idx) {
  Complex<T> acc = coeff[degree];
  for (int k = degree - 1; k >= 0; --k)
    acc = acc * z + coeff[k];
  Complex<T> q = acc / (z - shift);
  return -(q * Complex<T>::fromPolarQuarter(idx)).conj();
}

template <typename T>
__global__ void evalKernel(const Complex<T> *coeff, int degree,
                           const Complex<T> *points, Complex<T> *out, int n,
                           Complex<T> shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = evaluate(coeff, degree, points[i], shift, i);
}

template <typename T> static bool run(int n, double tol) {
  const int degree = 6;
  Complex<T> coeff[degree + 1];
  for (int k = 0; k <= degree; ++k)
    coeff[k] = Complex<T>((T)(k - 3) * (T)0.5, (T)(k % 3) * (T)0.25);
  Complex<T> *pts = (Complex<T> *)malloc(n * sizeof(Complex<T>));
  Complex<T> *res = (Complex<T> *)malloc(n * sizeof(Complex<T>));
  for (int i = 0; i < n; ++i)
    pts[i] = Complex<T>((T)cos(0.001 * i) * (T)0.9,
                        (T)sin(0.0013 * i) * (T)0.9);
  Complex<T> shift((T)2.0, (T)-2.0);

  Complex<T> *dc, *dp, *dr;
  CUDA_CHECK(cudaMalloc(&dc, sizeof(coeff)));
  CUDA_CHECK(cudaMalloc(&dp, n * sizeof(Complex<T>)));
  CUDA_CHECK(cudaMalloc(&dr, n * sizeof(Complex<T>)));
  CUDA_CHECK(cudaMemcpy(dc, coeff, sizeof(coeff), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dp, pts, n * sizeof(Complex<T>), cudaMemcpyHostToDevice));
  evalKernel<T><<<(n + 127) / 128, 128>>>(dc, degree, dp, dr, n, shift);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dr, n * sizeof(Complex<T>), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    Complex<T> e = evaluate(coeff, degree, pts[i], shift, i);
    double err = sqrt((double)(res[i] - e).norm());
    if (err > tol * (1.0 + sqrt((double)e.norm()))) {
      printf("mismatch at %d: got (%g,%g), expected (%g,%g)\n", i,
             (double)res[i].re, (double)res[i].im, (double)e.re,
             (double)e.im);
      ok = false;
      break;
    }
  }
  // Exact identities that must hold bit for bit on the device too.
  if (ok && !(Complex<T>::fromPolarQuarter(1) * Complex<T>::fromPolarQuarter(1) ==
              Complex<T>::fromPolarQuarter(2))) {
    printf("i*i != -1 on host\n");
    ok = false;
  }
  CUDA_CHECK(cudaFree(dc));
  CUDA_CHECK(cudaFree(dp));
  CUDA_CHECK(cudaFree(dr));
  free(pts);
  free(res);
  return ok;
}

int main() {
  if (!run<float>(200001, 1e-4) || !run<double>(100001, 1e-12)) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

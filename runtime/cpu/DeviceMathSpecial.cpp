//===- DeviceMathSpecial.cpp - CUDA math functions C lacks ----------------===//
//
// sinpi/cospi, inverse error functions, erfcx, the normal distribution,
// vector norms and modified Bessel functions, computed in double (and for
// double refined by Newton steps) so that float results are correctly
// rounded in practice and double results are within a few ulp.
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <limits>

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double twoOverSqrtPi = 1.12837916709551257390;
constexpr double sqrt2 = 1.41421356237309504880;

/// sin(pi x) without the error of multiplying a large x by an inexact pi:
/// the argument is reduced exactly to [-1/2, 1/2] first.
double sinPi(double x) {
  if (!std::isfinite(x))
    return std::numeric_limits<double>::quiet_NaN();
  double r = std::remainder(x, 2.0); // exact, in [-1, 1]
  if (std::fabs(r) > 0.5)
    r = std::copysign(1.0, r) - r; // sin(pi (1 - r)) = sin(pi r)
  double s = std::sin(pi * r);
  return s == 0.0 ? std::copysign(0.0, x) : s;
}

double cosPi(double x) {
  if (!std::isfinite(x))
    return std::numeric_limits<double>::quiet_NaN();
  double r = std::fabs(std::remainder(x, 2.0)); // in [0, 1]
  double s = std::sin(pi * (0.5 - r));          // cos(pi r); +0 at r = 1/2
  return s == 0.0 ? 0.0 : s;
}

/// Giles' single-precision approximation of erfinv(1 - y), written in terms
/// of y so that it keeps its accuracy as y goes to 0.
double erfcinvGuess(double y) {
  double x = 1.0 - y;
  double w = -std::log(y * (2.0 - y));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * x;
}

double erfcx(double x);

/// erfcinv(y) for small y, where Giles' guess is poor: a fixed-point guess
/// from erfc(x) ~ exp(-x^2) / (x sqrt(pi)), then Newton's method on
/// log(erfc(x)) = log(erfcx(x)) - x^2, which stays well scaled down to the
/// smallest subnormal y.
double erfcInvTail(double y) {
  const double sqrtPi = 1.77245385090551602730;
  double logY = std::log(y);
  double x = std::sqrt(-logY);
  for (int step = 0; step < 3; ++step)
    x = std::sqrt(-logY - std::log(x * sqrtPi));
  for (int step = 0; step < 4; ++step) {
    double scaled = erfcx(x);
    x += (std::log(scaled) - x * x - logY) * scaled * sqrtPi * 0.5;
  }
  return x;
}

/// erfcinv(y) for y in [0, 2]: Newton's method on erfc from Giles' guess.
double erfcInv(double y) {
  if (std::isnan(y) || y < 0.0 || y > 2.0)
    return std::numeric_limits<double>::quiet_NaN();
  if (y == 0.0)
    return std::numeric_limits<double>::infinity();
  if (y == 2.0)
    return -std::numeric_limits<double>::infinity();
  if (y < 0.0625)
    return erfcInvTail(y);
  double x = erfcinvGuess(y);
  for (int step = 0; step < 4; ++step) {
    double slope = twoOverSqrtPi * std::exp(-x * x);
    if (slope == 0.0)
      break;
    x += (std::erfc(x) - y) / slope;
  }
  return x;
}

/// erfinv(a): near +-1 through erfcinv of the (exact) distance to 1.
double erfInv(double a) {
  if (a > 0.5)
    return erfcInv(1.0 - a);
  if (a < -0.5)
    return -erfcInv(1.0 + a);
  if (std::isnan(a))
    return a;
  double x = erfcinvGuess(1.0 - a);
  for (int step = 0; step < 3; ++step)
    x -= (std::erf(x) - a) / (twoOverSqrtPi * std::exp(-x * x));
  return x;
}

/// exp(x^2) erfc(x), avoiding the overflow of exp and underflow of erfc.
double erfcx(double x) {
  if (std::isnan(x))
    return x;
  if (x > 26.0) { // asymptotic series
    double inv2 = 1.0 / (x * x);
    double series =
        1.0 -
        0.5 * inv2 *
            (1.0 -
             1.5 * inv2 *
                 (1.0 - 2.5 * inv2 * (1.0 - 3.5 * inv2 * (1.0 - 4.5 * inv2))));
    return series / (x * std::sqrt(pi));
  }
  // x^2 = hi + lo exactly, so exp(x^2) carries no error from squaring.
  double hi = x * x;
  double lo = std::fma(x, x, -hi);
  return std::exp(hi) * std::exp(lo) * std::erfc(x);
}

/// sqrt(sum of squares) scaled by the largest magnitude to avoid overflow.
template <typename T> double scaledNorm(int n, const T *v) {
  double largest = 0.0;
  for (int i = 0; i < n; ++i) {
    double a = std::fabs(static_cast<double>(v[i]));
    if (std::isinf(a))
      return a;
    largest = std::isnan(a) || a > largest ? a : largest;
  }
  if (largest == 0.0 || std::isnan(largest))
    return largest;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    double scaled = static_cast<double>(v[i]) / largest;
    sum += scaled * scaled;
  }
  return largest * std::sqrt(sum);
}

double besselI0(double x) { return std::cyl_bessel_i(0.0, std::fabs(x)); }
double besselI1(double x) {
  double r = std::cyl_bessel_i(1.0, std::fabs(x));
  return x < 0 ? -r : r;
}

} // namespace

extern "C" {

double __nv_sinpi(double x) { return sinPi(x); }
float __nv_sinpif(float x) { return static_cast<float>(sinPi(x)); }
double __nv_cospi(double x) { return cosPi(x); }
float __nv_cospif(float x) { return static_cast<float>(cosPi(x)); }
void __nv_sincospi(double x, double *s, double *c) {
  *s = sinPi(x);
  *c = cosPi(x);
}
void __nv_sincospif(float x, float *s, float *c) {
  *s = static_cast<float>(sinPi(x));
  *c = static_cast<float>(cosPi(x));
}

double __nv_erfinv(double x) { return erfInv(x); }
float __nv_erfinvf(float x) { return static_cast<float>(erfInv(x)); }
double __nv_erfcinv(double x) { return erfcInv(x); }
float __nv_erfcinvf(float x) { return static_cast<float>(erfcInv(x)); }
double __nv_erfcx(double x) { return erfcx(x); }
float __nv_erfcxf(float x) { return static_cast<float>(erfcx(x)); }

double __nv_normcdf(double x) { return 0.5 * std::erfc(-x / sqrt2); }
float __nv_normcdff(float x) {
  return static_cast<float>(0.5 * std::erfc(-static_cast<double>(x) / sqrt2));
}
double __nv_normcdfinv(double p) { return -sqrt2 * erfcInv(2.0 * p); }
float __nv_normcdfinvf(float p) {
  return static_cast<float>(-sqrt2 * erfcInv(2.0 * static_cast<double>(p)));
}

double __nv_cyl_bessel_i0(double x) { return besselI0(x); }
float __nv_cyl_bessel_i0f(float x) { return static_cast<float>(besselI0(x)); }
double __nv_cyl_bessel_i1(double x) { return besselI1(x); }
float __nv_cyl_bessel_i1f(float x) { return static_cast<float>(besselI1(x)); }

double __nv_norm(int n, const double *v) { return scaledNorm(n, v); }
float __nv_normf(int n, const float *v) {
  return static_cast<float>(scaledNorm(n, v));
}
double __nv_rnorm(int n, const double *v) { return 1.0 / scaledNorm(n, v); }
float __nv_rnormf(int n, const float *v) {
  return static_cast<float>(1.0 / scaledNorm(n, v));
}

double __nv_norm3d(double a, double b, double c) {
  const double v[] = {a, b, c};
  return scaledNorm(3, v);
}
float __nv_norm3df(float a, float b, float c) {
  const float v[] = {a, b, c};
  return static_cast<float>(scaledNorm(3, v));
}
double __nv_rnorm3d(double a, double b, double c) {
  return 1.0 / __nv_norm3d(a, b, c);
}
float __nv_rnorm3df(float a, float b, float c) {
  const float v[] = {a, b, c};
  return static_cast<float>(1.0 / scaledNorm(3, v));
}
double __nv_norm4d(double a, double b, double c, double d) {
  const double v[] = {a, b, c, d};
  return scaledNorm(4, v);
}
float __nv_norm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return static_cast<float>(scaledNorm(4, v));
}
double __nv_rnorm4d(double a, double b, double c, double d) {
  return 1.0 / __nv_norm4d(a, b, c, d);
}
float __nv_rnorm4df(float a, float b, float c, float d) {
  const float v[] = {a, b, c, d};
  return static_cast<float>(1.0 / scaledNorm(4, v));
}

} // extern "C"

//===- DeviceMathDouble.cpp - libdevice's double-precision functions ------===//
//
// The double counterparts of DeviceMathFloat.cpp.
//
//===----------------------------------------------------------------------===//

#include <cmath>

extern "C" {

#define RESPEC_UNARY_D(NAME, EXPR)                                             \
  double __nv_##NAME(double x) { return EXPR; }
#define RESPEC_BINARY_D(NAME, EXPR)                                            \
  double __nv_##NAME(double x, double y) { return EXPR; }

RESPEC_UNARY_D(acos, std::acos(x))
RESPEC_UNARY_D(acosh, std::acosh(x))
RESPEC_UNARY_D(asin, std::asin(x))
RESPEC_UNARY_D(asinh, std::asinh(x))
RESPEC_UNARY_D(atan, std::atan(x))
RESPEC_UNARY_D(atanh, std::atanh(x))
RESPEC_UNARY_D(cbrt, std::cbrt(x))
RESPEC_UNARY_D(ceil, std::ceil(x))
RESPEC_UNARY_D(cos, std::cos(x))
RESPEC_UNARY_D(cosh, std::cosh(x))
RESPEC_UNARY_D(erfc, std::erfc(x))
RESPEC_UNARY_D(erf, std::erf(x))
RESPEC_UNARY_D(exp10, std::pow(10.0, x))
RESPEC_UNARY_D(exp2, std::exp2(x))
RESPEC_UNARY_D(exp, std::exp(x))
RESPEC_UNARY_D(expm1, std::expm1(x))
RESPEC_UNARY_D(fabs, std::fabs(x))
RESPEC_UNARY_D(floor, std::floor(x))
RESPEC_UNARY_D(log10, std::log10(x))
RESPEC_UNARY_D(log1p, std::log1p(x))
RESPEC_UNARY_D(log2, std::log2(x))
RESPEC_UNARY_D(logb, std::logb(x))
RESPEC_UNARY_D(log, std::log(x))
RESPEC_UNARY_D(nearbyint, std::nearbyint(x))
RESPEC_UNARY_D(rint, std::rint(x))
RESPEC_UNARY_D(round, std::round(x))
RESPEC_UNARY_D(sin, std::sin(x))
RESPEC_UNARY_D(sinh, std::sinh(x))
RESPEC_UNARY_D(sqrt, std::sqrt(x))
RESPEC_UNARY_D(tan, std::tan(x))
RESPEC_UNARY_D(tanh, std::tanh(x))
RESPEC_UNARY_D(tgamma, std::tgamma(x))
RESPEC_UNARY_D(trunc, std::trunc(x))
RESPEC_UNARY_D(rsqrt, 1.0 / std::sqrt(x))
RESPEC_UNARY_D(rcbrt, 1.0 / std::cbrt(x))
// Reciprocal whose low 32 bits CUDA leaves unspecified; the exact one is fine.
RESPEC_UNARY_D(rcp64h, 1.0 / x)
RESPEC_UNARY_D(j0, ::j0(x))
RESPEC_UNARY_D(j1, ::j1(x))
RESPEC_UNARY_D(y0, ::y0(x))
RESPEC_UNARY_D(y1, ::y1(x))

RESPEC_BINARY_D(atan2, std::atan2(x, y))
RESPEC_BINARY_D(copysign, std::copysign(x, y))
RESPEC_BINARY_D(fdim, std::fdim(x, y))
RESPEC_BINARY_D(fmax, std::fmax(x, y))
RESPEC_BINARY_D(fmin, std::fmin(x, y))
RESPEC_BINARY_D(fmod, std::fmod(x, y))
RESPEC_BINARY_D(hypot, std::hypot(x, y))
RESPEC_BINARY_D(nextafter, std::nextafter(x, y))
RESPEC_BINARY_D(pow, std::pow(x, y))
RESPEC_BINARY_D(remainder, std::remainder(x, y))
RESPEC_BINARY_D(rhypot, 1.0 / std::hypot(x, y))

#undef RESPEC_UNARY_D
#undef RESPEC_BINARY_D

double __nv_fma(double x, double y, double z) { return std::fma(x, y, z); }
double __nv_frexp(double x, int *e) { return std::frexp(x, e); }
double __nv_ldexp(double x, int e) { return std::ldexp(x, e); }
double __nv_scalbn(double x, int e) { return std::scalbn(x, e); }
double __nv_modf(double x, double *i) { return std::modf(x, i); }
double __nv_powi(double x, int n) { return std::pow(x, n); }
double __nv_remquo(double x, double y, int *q) { return std::remquo(x, y, q); }
int __nv_ilogb(double x) { return std::ilogb(x); }
long long __nv_llrint(double x) { return std::llrint(x); }
long long __nv_llround(double x) { return std::llround(x); }
double __nv_jn(int n, double x) { return ::jn(n, x); }
double __nv_yn(int n, double x) { return ::yn(n, x); }
double __nv_lgamma(double x) {
  int sign; // lgamma_r: the plain version writes the global signgam
  return ::lgamma_r(x, &sign);
}

void __nv_sincos(double x, double *s, double *c) {
  *s = std::sin(x);
  *c = std::cos(x);
}

int __nv_isfinited(double x) { return std::isfinite(x); }
int __nv_isinfd(double x) { return std::isinf(x); }
int __nv_isnand(double x) { return std::isnan(x); }
int __nv_signbitd(double x) { return std::signbit(x); }

double __nv_nan(const signed char *tag) {
  return std::nan(reinterpret_cast<const char *>(tag));
}

} // extern "C"

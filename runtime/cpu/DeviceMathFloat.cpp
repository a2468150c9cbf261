//===- DeviceMathFloat.cpp - libdevice's single-precision functions -------===//
//
// Generated device code calls the libdevice functions (__nv_*) that clang's
// CUDA headers map the CUDA math API to. On the CPU they are the C library's
// functions with CUDA's results for the cases where the two differ. The fast
// (__nv_fast_*) intrinsics use the accurate functions: CUDA only bounds
// their error from above.
//
//===----------------------------------------------------------------------===//

#include <cmath>

extern "C" {

#define RESPEC_UNARY_F(NAME, EXPR)                                             \
  float __nv_##NAME(float x) { return EXPR; }
#define RESPEC_BINARY_F(NAME, EXPR)                                            \
  float __nv_##NAME(float x, float y) { return EXPR; }

RESPEC_UNARY_F(acosf, std::acos(x))
RESPEC_UNARY_F(acoshf, std::acosh(x))
RESPEC_UNARY_F(asinf, std::asin(x))
RESPEC_UNARY_F(asinhf, std::asinh(x))
RESPEC_UNARY_F(atanf, std::atan(x))
RESPEC_UNARY_F(atanhf, std::atanh(x))
RESPEC_UNARY_F(cbrtf, std::cbrt(x))
RESPEC_UNARY_F(ceilf, std::ceil(x))
RESPEC_UNARY_F(cosf, std::cos(x))
RESPEC_UNARY_F(coshf, std::cosh(x))
RESPEC_UNARY_F(erfcf, std::erfc(x))
RESPEC_UNARY_F(erff, std::erf(x))
RESPEC_UNARY_F(exp10f, std::pow(10.0f, x))
RESPEC_UNARY_F(exp2f, std::exp2(x))
RESPEC_UNARY_F(expf, std::exp(x))
RESPEC_UNARY_F(expm1f, std::expm1(x))
RESPEC_UNARY_F(fabsf, std::fabs(x))
RESPEC_UNARY_F(floorf, std::floor(x))
RESPEC_UNARY_F(log10f, std::log10(x))
RESPEC_UNARY_F(log1pf, std::log1p(x))
RESPEC_UNARY_F(log2f, std::log2(x))
RESPEC_UNARY_F(logbf, std::logb(x))
RESPEC_UNARY_F(logf, std::log(x))
RESPEC_UNARY_F(nearbyintf, std::nearbyint(x))
RESPEC_UNARY_F(rintf, std::rint(x))
RESPEC_UNARY_F(roundf, std::round(x))
RESPEC_UNARY_F(sinf, std::sin(x))
RESPEC_UNARY_F(sinhf, std::sinh(x))
RESPEC_UNARY_F(sqrtf, std::sqrt(x))
RESPEC_UNARY_F(tanf, std::tan(x))
RESPEC_UNARY_F(tanhf, std::tanh(x))
RESPEC_UNARY_F(tgammaf, std::tgamma(x))
RESPEC_UNARY_F(truncf, std::trunc(x))
RESPEC_UNARY_F(rsqrtf, 1.0f / std::sqrt(x))
RESPEC_UNARY_F(rcbrtf, 1.0f / std::cbrt(x))
RESPEC_UNARY_F(j0f, ::j0f(x))
RESPEC_UNARY_F(j1f, ::j1f(x))
RESPEC_UNARY_F(y0f, ::y0f(x))
RESPEC_UNARY_F(y1f, ::y1f(x))
RESPEC_UNARY_F(fast_cosf, std::cos(x))
RESPEC_UNARY_F(fast_exp10f, std::pow(10.0f, x))
RESPEC_UNARY_F(fast_expf, std::exp(x))
RESPEC_UNARY_F(fast_log10f, std::log10(x))
RESPEC_UNARY_F(fast_log2f, std::log2(x))
RESPEC_UNARY_F(fast_logf, std::log(x))
RESPEC_UNARY_F(fast_sinf, std::sin(x))
RESPEC_UNARY_F(fast_tanf, std::tan(x))

RESPEC_BINARY_F(atan2f, std::atan2(x, y))
RESPEC_BINARY_F(copysignf, std::copysign(x, y))
RESPEC_BINARY_F(fdimf, std::fdim(x, y))
RESPEC_BINARY_F(fmaxf, std::fmax(x, y))
RESPEC_BINARY_F(fminf, std::fmin(x, y))
RESPEC_BINARY_F(fmodf, std::fmod(x, y))
RESPEC_BINARY_F(hypotf, std::hypot(x, y))
RESPEC_BINARY_F(nextafterf, std::nextafter(x, y))
RESPEC_BINARY_F(powf, std::pow(x, y))
RESPEC_BINARY_F(remainderf, std::remainder(x, y))
RESPEC_BINARY_F(rhypotf, 1.0f / std::hypot(x, y))
RESPEC_BINARY_F(fast_fdividef, x / y)
RESPEC_BINARY_F(fast_powf, std::pow(x, y))

#undef RESPEC_UNARY_F
#undef RESPEC_BINARY_F

float __nv_fmaf(float x, float y, float z) { return std::fma(x, y, z); }
float __nv_frexpf(float x, int *e) { return std::frexp(x, e); }
float __nv_ldexpf(float x, int e) { return std::ldexp(x, e); }
float __nv_scalbnf(float x, int e) { return std::scalbn(x, e); }
float __nv_modff(float x, float *i) { return std::modf(x, i); }
float __nv_powif(float x, int n) {
  return static_cast<float>(std::pow(static_cast<double>(x), n));
}
float __nv_remquof(float x, float y, int *q) { return std::remquo(x, y, q); }
int __nv_ilogbf(float x) { return std::ilogb(x); }
long long __nv_llrintf(float x) { return std::llrint(x); }
long long __nv_llroundf(float x) { return std::llround(x); }
float __nv_jnf(int n, float x) { return ::jnf(n, x); }
float __nv_ynf(int n, float x) { return ::ynf(n, x); }
float __nv_lgammaf(float x) {
  int sign; // lgammaf_r: the plain version writes the global signgam
  return ::lgammaf_r(x, &sign);
}

void __nv_sincosf(float x, float *s, float *c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
void __nv_fast_sincosf(float x, float *s, float *c) { __nv_sincosf(x, s, c); }

/// Clamps to [0, 1]; NaN becomes 0 (CUDA's __saturatef).
float __nv_saturatef(float x) {
  if (!(x > 0.0f))
    return 0.0f;
  return x > 1.0f ? 1.0f : x;
}

int __nv_finitef(float x) { return std::isfinite(x); }
int __nv_isinff(float x) { return std::isinf(x); }
int __nv_isnanf(float x) { return std::isnan(x); }
int __nv_signbitf(float x) { return std::signbit(x); }

float __nv_nanf(const signed char *tag) {
  return std::nanf(reinterpret_cast<const char *>(tag));
}

} // extern "C"

//===- DeviceMathRounding.cpp - Arithmetic with explicit rounding modes ---===//
//
// __fadd_rd, __dmul_ru, __fsqrt_rz, ...: IEEE operations under a rounding
// mode given by the name. The operation runs with the host's dynamic
// rounding mode switched for its duration; this file is compiled with
// -frounding-math so the compiler neither folds nor moves the operations
// across the mode switches.
//
//===----------------------------------------------------------------------===//

#include <cfenv>
#include <cmath>

namespace {

/// Runs `operation` under rounding mode `mode` and restores the caller's.
template <typename Operation> auto withRounding(int mode, Operation operation) {
  int saved = std::fegetround();
  std::fesetround(mode);
  auto result = operation();
  std::fesetround(saved);
  return result;
}

} // namespace

// Defines NAME_rn/_rz/_ru/_rd for one operation EXPR on T operands.
#define RESPEC_ROUNDED(NAME, T, PARAMS, EXPR)                                  \
  T __nv_##NAME##_rn PARAMS {                                                  \
    return withRounding(FE_TONEAREST, [&]() -> T { return EXPR; });            \
  }                                                                            \
  T __nv_##NAME##_rz PARAMS {                                                  \
    return withRounding(FE_TOWARDZERO, [&]() -> T { return EXPR; });           \
  }                                                                            \
  T __nv_##NAME##_ru PARAMS {                                                  \
    return withRounding(FE_UPWARD, [&]() -> T { return EXPR; });               \
  }                                                                            \
  T __nv_##NAME##_rd PARAMS {                                                  \
    return withRounding(FE_DOWNWARD, [&]() -> T { return EXPR; });             \
  }

extern "C" {

RESPEC_ROUNDED(fadd, float, (float a, float b), a + b)
RESPEC_ROUNDED(fsub, float, (float a, float b), a - b)
RESPEC_ROUNDED(fmul, float, (float a, float b), a *b)
RESPEC_ROUNDED(fdiv, float, (float a, float b), a / b)
RESPEC_ROUNDED(frcp, float, (float a), 1.0f / a)
RESPEC_ROUNDED(fsqrt, float, (float a), std::sqrt(a))
RESPEC_ROUNDED(fmaf, float, (float a, float b, float c), std::fma(a, b, c))
RESPEC_ROUNDED(fmaf_ieee, float, (float a, float b, float c), std::fma(a, b, c))
RESPEC_ROUNDED(dadd, double, (double a, double b), a + b)
RESPEC_ROUNDED(dsub, double, (double a, double b), a - b)
RESPEC_ROUNDED(dmul, double, (double a, double b), a *b)
RESPEC_ROUNDED(ddiv, double, (double a, double b), a / b)
RESPEC_ROUNDED(drcp, double, (double a), 1.0 / a)
RESPEC_ROUNDED(dsqrt, double, (double a), std::sqrt(a))
RESPEC_ROUNDED(fma, double, (double a, double b, double c), std::fma(a, b, c))

/// 1/sqrt(x) rounded to nearest: the double result has enough extra bits
/// that rounding it to float is correct for all but pathological inputs.
float __nv_frsqrt_rn(float a) {
  return static_cast<float>(1.0 / std::sqrt(static_cast<double>(a)));
}

} // extern "C"

#undef RESPEC_ROUNDED

//===- DeviceMathSimd.cpp - Per-halfword and per-byte SIMD intrinsics -----===//
//
// __vadd2, __vcmpgtu4, __vsads2, ...: a 32-bit word treated as two 16-bit or
// four 8-bit lanes. Each operation is written once on lane values (sign- or
// zero-extended to int64, so no intermediate overflows) and instantiated for
// both lane widths.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

namespace {

template <int Bits> struct Lane {
  static constexpr int count = 32 / Bits;
  static constexpr uint32_t mask = (1u << Bits) - 1u;
  static constexpr int64_t signedMin = -(int64_t(1) << (Bits - 1));
  static constexpr int64_t signedMax = (int64_t(1) << (Bits - 1)) - 1;
  static constexpr int64_t unsignedMax = (int64_t(1) << Bits) - 1;

  static int64_t getSigned(uint32_t word, int i) {
    int64_t v = (word >> (i * Bits)) & mask;
    return v > signedMax ? v - (int64_t(1) << Bits) : v;
  }
  static int64_t getUnsigned(uint32_t word, int i) {
    return (word >> (i * Bits)) & mask;
  }
  static int64_t clampSigned(int64_t v) {
    return v < signedMin ? signedMin : v > signedMax ? signedMax : v;
  }
  static int64_t clampUnsigned(int64_t v) {
    return v < 0 ? 0 : v > unsignedMax ? unsignedMax : v;
  }
};

/// Applies `op(a_i, b_i)` lane by lane; lanes are read signed or unsigned.
template <int Bits, bool Signed, typename Op>
int mapLanes(int a, int b, Op op) {
  using L = Lane<Bits>;
  uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b), r = 0;
  for (int i = 0; i < L::count; ++i) {
    int64_t u = Signed ? L::getSigned(x, i) : L::getUnsigned(x, i);
    int64_t v = Signed ? L::getSigned(y, i) : L::getUnsigned(y, i);
    r |= (static_cast<uint32_t>(op(u, v)) & L::mask) << (i * Bits);
  }
  return static_cast<int>(r);
}

/// Sum over lanes of |a_i - b_i|.
template <int Bits, bool Signed> int sumAbsDiff(int a, int b) {
  using L = Lane<Bits>;
  uint32_t x = static_cast<uint32_t>(a), y = static_cast<uint32_t>(b);
  int64_t sum = 0;
  for (int i = 0; i < L::count; ++i) {
    int64_t u = Signed ? L::getSigned(x, i) : L::getUnsigned(x, i);
    int64_t v = Signed ? L::getSigned(y, i) : L::getUnsigned(y, i);
    sum += u > v ? u - v : v - u;
  }
  return static_cast<int>(sum);
}

int64_t allOnesIf(bool c) { return c ? -1 : 0; }
int64_t oneIf(bool c) { return c ? 1 : 0; }

} // namespace

// Defines __nv_NAME2 and __nv_NAME4 from one lane operation EXPR(u, v);
// inside EXPR, L is the lane type.
#define RESPEC_SIMD_LANEWISE(NAME, SIGNED, PARAMS, OPERANDS, EXPR)             \
  int __nv_##NAME##2 PARAMS {                                                  \
    using L [[maybe_unused]] = Lane<16>;                                       \
    return mapLanes<16, SIGNED>(                                               \
        OPERANDS, [](int64_t u, int64_t v) -> int64_t { return EXPR; });       \
  }                                                                            \
  int __nv_##NAME##4 PARAMS {                                                  \
    using L [[maybe_unused]] = Lane<8>;                                        \
    return mapLanes<8, SIGNED>(                                                \
        OPERANDS, [](int64_t u, int64_t v) -> int64_t { return EXPR; });       \
  }
#define RESPEC_SIMD_BINARY(NAME, SIGNED, EXPR)                                 \
  RESPEC_SIMD_LANEWISE(NAME, SIGNED, (int a, int b), RESPEC_PAIR(a, b), EXPR)
// Unary operations see a zero second operand.
#define RESPEC_SIMD_UNARY(NAME, SIGNED, EXPR)                                  \
  RESPEC_SIMD_LANEWISE(NAME, SIGNED, (int a), RESPEC_PAIR(a, 0), EXPR)
#define RESPEC_PAIR(A, B) A, B

extern "C" {

RESPEC_SIMD_UNARY(vabs, true, u < 0 ? -u : u)
RESPEC_SIMD_UNARY(vabsss, true, L::clampSigned(u < 0 ? -u : u))
RESPEC_SIMD_UNARY(vneg, true, -u)
RESPEC_SIMD_UNARY(vnegss, true, L::clampSigned(-u))

RESPEC_SIMD_BINARY(vabsdiffs, true, u > v ? u - v : v - u)
RESPEC_SIMD_BINARY(vabsdiffu, false, u > v ? u - v : v - u)
RESPEC_SIMD_BINARY(vadd, false, u + v)
RESPEC_SIMD_BINARY(vaddss, true, L::clampSigned(u + v))
RESPEC_SIMD_BINARY(vaddus, false, L::clampUnsigned(u + v))
RESPEC_SIMD_BINARY(vsub, false, u - v)
RESPEC_SIMD_BINARY(vsubss, true, L::clampSigned(u - v))
RESPEC_SIMD_BINARY(vsubus, false, L::clampUnsigned(u - v))
// Rounded averages round half away from zero (PTX vavrg, as an H200 computes
// it: __vavgs2(-1, 0) is -1), truncating ones round down.
RESPEC_SIMD_BINARY(vavgs, true, (u + v + (u + v >= 0 ? 1 : 0)) >> 1)
RESPEC_SIMD_BINARY(vavgu, false, (u + v + 1) >> 1)
RESPEC_SIMD_BINARY(vhaddu, false, (u + v) >> 1)
RESPEC_SIMD_BINARY(vmaxs, true, u > v ? u : v)
RESPEC_SIMD_BINARY(vmaxu, false, u > v ? u : v)
RESPEC_SIMD_BINARY(vmins, true, u < v ? u : v)
RESPEC_SIMD_BINARY(vminu, false, u < v ? u : v)

RESPEC_SIMD_BINARY(vcmpeq, false, allOnesIf(u == v))
RESPEC_SIMD_BINARY(vcmpne, false, allOnesIf(u != v))
RESPEC_SIMD_BINARY(vcmpges, true, allOnesIf(u >= v))
RESPEC_SIMD_BINARY(vcmpgeu, false, allOnesIf(u >= v))
RESPEC_SIMD_BINARY(vcmpgts, true, allOnesIf(u > v))
RESPEC_SIMD_BINARY(vcmpgtu, false, allOnesIf(u > v))
RESPEC_SIMD_BINARY(vcmples, true, allOnesIf(u <= v))
RESPEC_SIMD_BINARY(vcmpleu, false, allOnesIf(u <= v))
RESPEC_SIMD_BINARY(vcmplts, true, allOnesIf(u < v))
RESPEC_SIMD_BINARY(vcmpltu, false, allOnesIf(u < v))

RESPEC_SIMD_BINARY(vseteq, false, oneIf(u == v))
RESPEC_SIMD_BINARY(vsetne, false, oneIf(u != v))
RESPEC_SIMD_BINARY(vsetges, true, oneIf(u >= v))
RESPEC_SIMD_BINARY(vsetgeu, false, oneIf(u >= v))
RESPEC_SIMD_BINARY(vsetgts, true, oneIf(u > v))
RESPEC_SIMD_BINARY(vsetgtu, false, oneIf(u > v))
RESPEC_SIMD_BINARY(vsetles, true, oneIf(u <= v))
RESPEC_SIMD_BINARY(vsetleu, false, oneIf(u <= v))
RESPEC_SIMD_BINARY(vsetlts, true, oneIf(u < v))
RESPEC_SIMD_BINARY(vsetltu, false, oneIf(u < v))

int __nv_vsads2(int a, int b) { return sumAbsDiff<16, true>(a, b); }
int __nv_vsads4(int a, int b) { return sumAbsDiff<8, true>(a, b); }
int __nv_vsadu2(int a, int b) { return sumAbsDiff<16, false>(a, b); }
int __nv_vsadu4(int a, int b) { return sumAbsDiff<8, false>(a, b); }

} // extern "C"

#undef RESPEC_SIMD_BINARY
#undef RESPEC_SIMD_UNARY
#undef RESPEC_SIMD_LANEWISE
#undef RESPEC_PAIR

//===- DeviceMathIntegers.cpp - libdevice's integer intrinsics ------------===//
//
// Bit manipulation and the multiply/average/abs-difference intrinsics, with
// PTX's wrap-around semantics (computed in unsigned or wider types so that no
// C++ overflow is undefined).
//
//===----------------------------------------------------------------------===//

#include <cstdint>

extern "C" {

int __nv_abs(int x) {
  uint32_t u = static_cast<uint32_t>(x);
  return static_cast<int>(x < 0 ? 0u - u : u); // abs(INT_MIN) == INT_MIN
}
long long __nv_llabs(long long x) {
  uint64_t u = static_cast<uint64_t>(x);
  return static_cast<long long>(x < 0 ? 0u - u : u);
}

int __nv_brev(int x) {
  uint32_t v = static_cast<uint32_t>(x), r = 0;
  for (int i = 0; i < 32; ++i, v >>= 1)
    r = (r << 1) | (v & 1u);
  return static_cast<int>(r);
}
long long __nv_brevll(long long x) {
  uint64_t v = static_cast<uint64_t>(x), r = 0;
  for (int i = 0; i < 64; ++i, v >>= 1)
    r = (r << 1) | (v & 1u);
  return static_cast<long long>(r);
}

/// Byte i of the result is byte (selector nibble i & 7) of the 8-byte value
/// {y:x} (x holds bytes 0-3).
int __nv_byte_perm(int x, int y, int selector) {
  uint64_t source = (static_cast<uint64_t>(static_cast<uint32_t>(y)) << 32) |
                    static_cast<uint32_t>(x);
  uint32_t s = static_cast<uint32_t>(selector), result = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t byteIndex = (s >> (4 * i)) & 7u;
    result |= static_cast<uint32_t>((source >> (8 * byteIndex)) & 0xffu)
              << (8 * i);
  }
  return static_cast<int>(result);
}

int __nv_clz(int x) { return x ? __builtin_clz(static_cast<uint32_t>(x)) : 32; }
int __nv_clzll(long long x) {
  return x ? __builtin_clzll(static_cast<uint64_t>(x)) : 64;
}
int __nv_ffs(int x) { return __builtin_ffs(x); }
int __nv_ffsll(long long x) { return __builtin_ffsll(x); }
int __nv_popc(unsigned int x) { return __builtin_popcount(x); }
int __nv_popcll(unsigned long long x) { return __builtin_popcountll(x); }

int __nv_hadd(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) + y) >> 1);
}
int __nv_rhadd(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) + y + 1) >> 1);
}
int __nv_uhadd(unsigned int x, unsigned int y) {
  return static_cast<int>((static_cast<uint64_t>(x) + y) >> 1);
}
unsigned int __nv_urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<uint64_t>(x) + y + 1) >> 1);
}

/// Low 32 bits of the product of the sign-extended low 24 bits.
int __nv_mul24(int x, int y) {
  int64_t a = static_cast<int32_t>(static_cast<uint32_t>(x) << 8) >> 8;
  int64_t b = static_cast<int32_t>(static_cast<uint32_t>(y) << 8) >> 8;
  return static_cast<int>(static_cast<uint32_t>(a * b));
}
unsigned int __nv_umul24(unsigned int x, unsigned int y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
int __nv_mulhi(int x, int y) {
  return static_cast<int>((static_cast<int64_t>(x) * y) >> 32);
}
unsigned int __nv_umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<uint64_t>(x) * y) >> 32);
}
long long __nv_mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
unsigned long long __nv_umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>(
      (static_cast<unsigned __int128>(x) * y) >> 64);
}

/// |x - y| + z.
int __nv_sad(int x, int y, int z) {
  int64_t difference = static_cast<int64_t>(x) - y;
  uint32_t absolute =
      static_cast<uint32_t>(difference < 0 ? -difference : difference);
  return static_cast<int>(absolute + static_cast<uint32_t>(z));
}
unsigned int __nv_usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}

int __nv_max(int x, int y) { return x > y ? x : y; }
int __nv_min(int x, int y) { return x < y ? x : y; }
unsigned int __nv_umax(unsigned int x, unsigned int y) { return x > y ? x : y; }
unsigned int __nv_umin(unsigned int x, unsigned int y) { return x < y ? x : y; }
long long __nv_llmax(long long x, long long y) { return x > y ? x : y; }
long long __nv_llmin(long long x, long long y) { return x < y ? x : y; }
unsigned long long __nv_ullmax(unsigned long long x, unsigned long long y) {
  return x > y ? x : y;
}
unsigned long long __nv_ullmin(unsigned long long x, unsigned long long y) {
  return x < y ? x : y;
}

} // extern "C"

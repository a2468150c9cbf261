//===- DevicePrintf.cpp - printf from device code -------------------------===//
//
// Clang lowers device printf(format, args...) to vprintf(format, buffer),
// where `buffer` holds the arguments after C's default promotions (float to
// double, small integers to int), each aligned to its own size. This file
// walks the format string, takes each argument from the buffer with the size
// its conversion implies, and formats it with the C library, one conversion
// at a time. The whole line is written with stdout locked so that output of
// concurrently running blocks never interleaves within one printf.
//
//===----------------------------------------------------------------------===//

#include "respec_rt/abi.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

/// Reads successive arguments out of the packed argument buffer.
class ArgumentReader {
public:
  explicit ArgumentReader(const char *buffer) : buffer(buffer) {}

  template <typename T> T next() {
    T value{};
    if (!buffer)
      return value;
    offset = (offset + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    std::memcpy(&value, buffer + offset, sizeof(T));
    offset += sizeof(T);
    ++count;
    return value;
  }

  int consumed() const { return count; }

private:
  const char *buffer;
  size_t offset = 0;
  int count = 0;
};

/// One parsed conversion specification, e.g. "%-08.3lld".
struct Conversion {
  std::string flagsAndWidth; // flags, width, precision, as written (no '*')
  std::string length;        // hh, h, l, ll, L, z, j, t
  char specifier = 0;
};

bool isFlag(char c) {
  return c == '-' || c == '+' || c == ' ' || c == '#' || c == '0' || c == '\'';
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Appends a width or precision field; '*' takes an int argument.
void parseNumberField(const char *&p, Conversion &conversion,
                      ArgumentReader &args) {
  if (*p == '*') {
    conversion.flagsAndWidth += std::to_string(args.next<int>());
    ++p;
    return;
  }
  while (isDigit(*p))
    conversion.flagsAndWidth += *p++;
}

/// Parses the specification after '%'; returns false at a malformed end.
bool parseConversion(const char *&p, Conversion &conversion,
                     ArgumentReader &args) {
  while (isFlag(*p))
    conversion.flagsAndWidth += *p++;
  parseNumberField(p, conversion, args);
  if (*p == '.') {
    conversion.flagsAndWidth += *p++;
    parseNumberField(p, conversion, args);
  }
  while (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 'j' ||
         *p == 't' || *p == 'q')
    conversion.length += *p++;
  if (!*p)
    return false;
  conversion.specifier = *p++;
  return true;
}

/// True when the integer argument was passed as a 64-bit value.
bool isWideInteger(const std::string &length) {
  return length == "l" || length == "ll" || length == "q" || length == "z" ||
         length == "j" || length == "t";
}

template <typename T>
void appendFormatted(std::string &out, const std::string &spec, T value) {
  char small[128];
  int needed = std::snprintf(small, sizeof(small), spec.c_str(), value);
  if (needed < 0)
    return;
  if (static_cast<size_t>(needed) < sizeof(small)) {
    out.append(small, needed);
    return;
  }
  std::string large(static_cast<size_t>(needed) + 1, '\0');
  std::snprintf(&large[0], large.size(), spec.c_str(), value);
  out.append(large.c_str(), needed);
}

void formatIntegerArgument(std::string &out, const Conversion &c,
                           ArgumentReader &args) {
  bool isSigned = c.specifier == 'd' || c.specifier == 'i';
  std::string spec = "%" + c.flagsAndWidth + "ll" + c.specifier;
  if (isWideInteger(c.length)) {
    uint64_t bits = args.next<uint64_t>();
    if (isSigned)
      appendFormatted(out, spec, static_cast<long long>(bits));
    else
      appendFormatted(out, spec, static_cast<unsigned long long>(bits));
    return;
  }
  // Promoted to int; hh and h narrow the value again, as printf does.
  uint32_t bits = args.next<uint32_t>();
  long long value = isSigned
                        ? static_cast<long long>(static_cast<int32_t>(bits))
                        : static_cast<long long>(bits);
  if (c.length == "hh")
    value = isSigned ? static_cast<signed char>(bits)
                     : static_cast<unsigned char>(bits);
  else if (c.length == "h")
    value =
        isSigned ? static_cast<short>(bits) : static_cast<unsigned short>(bits);
  if (isSigned)
    appendFormatted(out, spec, value);
  else
    appendFormatted(out, spec, static_cast<unsigned long long>(value));
}

void formatArgument(std::string &out, const Conversion &c,
                    ArgumentReader &args) {
  switch (c.specifier) {
  case 'd':
  case 'i':
  case 'u':
  case 'o':
  case 'x':
  case 'X':
    formatIntegerArgument(out, c, args);
    return;
  case 'c':
    appendFormatted(out, "%" + c.flagsAndWidth + "c", args.next<int>());
    return;
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
    // Device long double is double; floats were promoted to double.
    appendFormatted(out, "%" + c.flagsAndWidth + c.specifier,
                    args.next<double>());
    return;
  case 's': {
    const char *text = args.next<const char *>();
    appendFormatted(out, "%" + c.flagsAndWidth + "s", text ? text : "(null)");
    return;
  }
  case 'p':
    appendFormatted(out, "%" + c.flagsAndWidth + "p", args.next<void *>());
    return;
  case 'n': // writing through a device pointer from printf is not supported
    args.next<void *>();
    return;
  default: // unknown conversion: print it as written
    out += '%';
    out += c.flagsAndWidth + c.length;
    out += c.specifier;
    return;
  }
}

} // namespace

extern "C" int __respec_vprintf(const char *format, const char *buffer) {
  if (!format)
    return -1;
  ArgumentReader args(buffer);
  std::string out;
  for (const char *p = format; *p;) {
    if (*p != '%') {
      out += *p++;
      continue;
    }
    ++p;
    if (*p == '%') {
      out += *p++;
      continue;
    }
    Conversion conversion;
    if (!parseConversion(p, conversion, args))
      break;
    formatArgument(out, conversion, args);
  }
  flockfile(stdout);
  std::fwrite(out.data(), 1, out.size(), stdout);
  funlockfile(stdout);
  // CUDA's printf returns the number of arguments it parsed.
  return args.consumed();
}

//===- PrintfTest.cpp - Device printf formatting --------------------------===//

#include "RuntimeTest.h"

#include <cstring>
#include <string>
#include <unistd.h>

namespace {

/// Builds a vprintf argument buffer: each value aligned to its own size.
class ArgumentBuffer {
public:
  template <typename T> ArgumentBuffer &add(T value) {
    size_t offset = (size + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    std::memcpy(bytes + offset, &value, sizeof(T));
    size = offset + sizeof(T);
    return *this;
  }
  const char *data() const { return bytes; }

private:
  alignas(16) char bytes[256] = {};
  size_t size = 0;
};

/// Runs __respec_vprintf with stdout redirected to a temporary file.
std::string capture(const char *format, const ArgumentBuffer &args) {
  std::fflush(stdout);
  char path[] = "/tmp/respec_printf_XXXXXX";
  int file = mkstemp(path);
  int saved = dup(1);
  dup2(file, 1);
  __respec_vprintf(format, args.data());
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  std::string text;
  char chunk[512];
  lseek(file, 0, SEEK_SET);
  for (ssize_t n; (n = read(file, chunk, sizeof(chunk))) > 0;)
    text.append(chunk, size_t(n));
  close(file);
  unlink(path);
  return text;
}

void expectFormat(const char *format, const ArgumentBuffer &args,
                  const char *expected) {
  std::string got = capture(format, args);
  if (got != expected) {
    std::fprintf(stderr, "format \"%s\": got \"%s\", expected \"%s\"\n", format,
                 got.c_str(), expected);
    ++testFailures;
  }
}

} // namespace

int main() {
  expectFormat("plain %% text\n", ArgumentBuffer(), "plain % text\n");
  expectFormat("%d %i %u\n", ArgumentBuffer().add(-5).add(42).add(7u),
               "-5 42 7\n");
  // An int followed by a double: the double is aligned to 8 bytes.
  expectFormat("%d|%f|%.2e\n", ArgumentBuffer().add(1).add(2.5).add(1234.5),
               "1|2.500000|1.23e+03\n");
  expectFormat("[%5d][%-5d][%05d][%+d]\n",
               ArgumentBuffer().add(42).add(42).add(42).add(42),
               "[   42][42   ][00042][+42]\n");
  expectFormat("%ld %lld %llu %zu\n",
               ArgumentBuffer()
                   .add(-1234567890123LL)
                   .add(9000000000LL)
                   .add(18446744073709551615ULL)
                   .add(size_t(77)),
               "-1234567890123 9000000000 18446744073709551615 77\n");
  expectFormat("%x %X %#o %hhd %hu\n",
               ArgumentBuffer().add(255).add(0xabcu).add(8).add(300).add(70000),
               "ff ABC 010 44 4464\n");
  expectFormat(
      "%s=%c %.3s|%8.3f|%-6s|\n",
      ArgumentBuffer().add("name").add(int('x')).add("abcdef").add(3.14159).add(
          "ab"),
      "name=x abc|   3.142|ab    |\n");
  expectFormat("%*d|%.*f\n", ArgumentBuffer().add(6).add(12).add(2).add(1.005),
               "    12|1.00\n");
  expectFormat("%g %G %s\n",
               ArgumentBuffer().add(0.0001).add(1e20).add(
                   static_cast<const char *>(nullptr)),
               "0.0001 1E+20 (null)\n");
  return finishTest("PrintfTest");
}

//===- Diagnostics.cpp - Last-error state and RESPEC_VERBOSE messages -----===//

#include "Diagnostics.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace respec {

namespace {
// CUDA keeps the last error per host thread.
thread_local cudaError_t lastError = cudaSuccess;
} // namespace

bool verboseErrors() {
  static const bool verbose = [] {
    const char *value = std::getenv("RESPEC_VERBOSE");
    return value && std::strcmp(value, "0") != 0 && value[0] != '\0';
  }();
  return verbose;
}

cudaError_t reportError(cudaError_t error, const char *call, const char *format,
                        ...) {
  if (error == cudaSuccess)
    return error;
  lastError = error;
  if (!verboseErrors())
    return error;
  char detail[512] = "";
  if (format) {
    va_list args;
    va_start(args, format);
    std::vsnprintf(detail, sizeof(detail), format, args);
    va_end(args);
  }
  std::fprintf(stderr, "respec: %s failed: %s (%s)%s%s\n", call,
               cudaGetErrorName(error), cudaGetErrorString(error),
               detail[0] ? ": " : "", detail);
  return error;
}

cudaError_t takeLastError(bool clear) {
  cudaError_t error = lastError;
  if (clear)
    lastError = cudaSuccess;
  return error;
}

void warnAlways(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("respec: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

} // namespace respec

//===- Diagnostics.h - Error reporting shared by all runtime entry points -===//
//
// Every CUDA runtime entry point returns a cudaError_t and also records it as
// the calling host thread's last error (what cudaGetLastError returns). When
// RESPEC_VERBOSE=1, failures are also printed as one line naming the call.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_DIAGNOSTICS_H
#define RESPEC_RUNTIME_COMMON_DIAGNOSTICS_H

#include <cuda_runtime_api.h>

namespace respec {

/// Records `error` as the last error of the calling thread (unless it is
/// cudaSuccess, which never overwrites a pending error) and returns it.
/// `call` names the API function and `format` adds detail for RESPEC_VERBOSE.
cudaError_t reportError(cudaError_t error, const char *call,
                        const char *format = nullptr, ...)
    __attribute__((format(printf, 3, 4)));

/// Returns and clears (`clear`) the calling thread's last error.
cudaError_t takeLastError(bool clear);

/// True when `code` is one of the CUDA runtime's error codes.
bool isKnownError(int code);

/// True when RESPEC_VERBOSE=1 asks for messages about failed calls.
bool verboseErrors();

/// Prints a message that the user must see even without RESPEC_VERBOSE (an
/// unsupported feature the program depends on).
void warnAlways(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_DIAGNOSTICS_H

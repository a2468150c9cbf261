//===- ErrorStrings.cpp - cudaGetErrorName and cudaGetErrorString ---------===//

#include <cuda_runtime_api.h>

namespace {

struct ErrorDescription {
  cudaError_t code;
  const char *name;
  const char *text;
};

constexpr ErrorDescription errorDescriptions[] = {
#define RESPEC_ERROR(NAME, TEXT) {NAME, #NAME, TEXT},
#include "ErrorCodes.def"
#undef RESPEC_ERROR
};

const ErrorDescription *findError(cudaError_t code) {
  for (const ErrorDescription &description : errorDescriptions)
    if (description.code == code)
      return &description;
  return nullptr;
}

} // namespace

namespace respec {
bool isKnownError(int code) {
  return findError(static_cast<cudaError_t>(code)) != nullptr;
}
} // namespace respec

extern "C" const char *cudaGetErrorName(cudaError_t error) {
  const ErrorDescription *description = findError(error);
  // CUDA answers unknown codes with this fixed name rather than null.
  return description ? description->name : "cudaErrorUnknown";
}

extern "C" const char *cudaGetErrorString(cudaError_t error) {
  const ErrorDescription *description = findError(error);
  return description ? description->text : "unrecognized error code";
}

//===- OpenCLKernel.h - An OpenCL C kernel as the host sees it --*- C++ -*-===//

#ifndef RESPEC_SUPPORT_OPENCLKERNEL_H
#define RESPEC_SUPPORT_OPENCLKERNEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace respec {

/// The parameters of an OpenCL C kernel in its source: which are `__local`
/// pointers (the host passes a size, the kernel gets an offset into its
/// work-group's dynamic shared memory). The kernel's launch function takes
/// RESPEC_CL_HIDDEN_PARAMS more (respec_rt/abi.h).
struct OpenCLKernelSignature {
  std::string name;
  std::vector<uint8_t> paramIsLocal;
};

} // namespace respec

#endif // RESPEC_SUPPORT_OPENCLKERNEL_H

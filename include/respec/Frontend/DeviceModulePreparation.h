//===- DeviceModulePreparation.h - Device LLVM IR before raising -*- C++ -*-===//

#ifndef RESPEC_FRONTEND_DEVICEMODULEPREPARATION_H
#define RESPEC_FRONTEND_DEVICEMODULEPREPARATION_H

#include "llvm/IR/Module.h"

namespace respec {

/// Inlines every non-recursive device function into the kernels that use it,
/// so that reads of threadIdx & co. and uses of __shared__ variables sit in
/// kernels, where raising turns them into loop variables; and checks that
/// everything the device code refers to is defined in this translation unit
/// or provided by respec. Prints `file:line: error: ...` and returns false
/// on failure.
enum class DeviceLanguage { Cuda, OpenCL };
bool prepareDeviceModule(llvm::Module &module,
                         DeviceLanguage language = DeviceLanguage::Cuda);

/// For --target=nvptx: reports, as `file:line:col: error: ...`, each
/// conversion between an integer wider than 64 bits (`__int128`) and a
/// floating-point type, which LLVM's NVPTX code generator cannot compile
/// (it stops with "unsupported library call operation"). Returns true if
/// there was one.
bool reportWideIntegerFloatConversions(const llvm::Module &module);

/// For --target=nvptx: takes every function and variable out of its COMDAT
/// group (C++17 inline variables, `operator<=>`'s ordering constants, inline
/// functions), which PTX does not have and which the kernels' move into a
/// GPU module would leave referring to groups outside it.
void dropComdats(llvm::Module &module);

} // namespace respec

#endif

//===- TextureReferences.h - texture<> variables in device code -*- C++ -*-===//
//
// clang compiles a texture reference (a variable of CUDA 11's texture<>
// type) to a 64-bit device variable annotated as a PTX texture, and reads
// it through `llvm.nvvm.texsurf.handle.internal`. respec keeps a texture
// object in that variable (runtime/common/TextureReferences.cpp), so the
// handle is a plain load of it, on the CPU and on NVIDIA GPUs alike.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_TEXTUREREFERENCES_H
#define RESPEC_FRONTEND_TEXTUREREFERENCES_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Turns each texture reference of the device module `module` into an
/// ordinary zero-initialized 64-bit device variable, and each handle taken
/// of it into a load of the variable. Returns true if anything changed.
bool lowerTextureReferences(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_TEXTUREREFERENCES_H

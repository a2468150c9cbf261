//===- ManagedVariables.cpp - __managed__ variables -----------------------===//
//
// A `__managed__` variable is one object that host code and kernels both
// read and write. respec's headers spell it `__device__` plus an
// `annotate("respec.managed")` attribute (clang ignores `managed` outside
// HIP); the annotation list tells the back ends which device variables, and
// which host shadows, are managed.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/ManagedVariables.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {

static constexpr StringLiteral kAnnotationsName = "llvm.global.annotations";

/// The string a field of an annotation entry points at, or "".
static StringRef annotationString(Constant *field) {
  auto *global = dyn_cast<GlobalVariable>(field->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return "";
  auto *data = dyn_cast<ConstantDataSequential>(global->getInitializer());
  if (!data || !data->isString())
    return "";
  return data->getAsString().rtrim('\0');
}

std::vector<ManagedVariable> takeManagedVariables(Module &module) {
  std::vector<ManagedVariable> managed;
  GlobalVariable *annotations = module.getGlobalVariable(kAnnotationsName);
  if (!annotations || !annotations->hasInitializer())
    return managed;
  auto *entries = dyn_cast<ConstantArray>(annotations->getInitializer());
  if (!entries)
    return managed;
  // Each entry is { annotated value, annotation, file, line, arguments }.
  SmallVector<Constant *> kept;
  for (Use &use : entries->operands()) {
    auto *entry = dyn_cast<ConstantStruct>(use.get());
    auto *variable = entry && entry->getNumOperands() >= 4
                         ? dyn_cast<GlobalVariable>(
                               entry->getOperand(0)->stripPointerCasts())
                         : nullptr;
    if (!variable ||
        annotationString(entry->getOperand(1)) != kManagedAnnotation) {
      kept.push_back(cast<Constant>(use.get()));
      continue;
    }
    unsigned line = 0;
    if (auto *number = dyn_cast<ConstantInt>(entry->getOperand(3)))
      line = number->getZExtValue();
    managed.push_back({variable->getName().str(),
                       annotationString(entry->getOperand(2)).str(), line});
  }
  if (managed.empty())
    return managed;
  if (kept.empty()) {
    annotations->eraseFromParent();
    return managed;
  }
  auto *type =
      ArrayType::get(entries->getType()->getElementType(), kept.size());
  auto *replacement = new GlobalVariable(
      module, type, annotations->isConstant(), annotations->getLinkage(),
      ConstantArray::get(type, kept), "", annotations);
  replacement->setSection(annotations->getSection());
  replacement->takeName(annotations);
  annotations->eraseFromParent();
  return managed;
}

bool reportUnsupportedManagedVariables(ArrayRef<ManagedVariable> vars,
                                       StringRef target) {
  for (const ManagedVariable &var : vars) {
    if (!var.file.empty())
      errs() << var.file << ":" << var.line << ": ";
    errs() << "error: __managed__ variable '" << demangle(var.symbol)
           << "' is not supported for " << target
           << " yet (allocate it with cudaMallocManaged instead)\n";
  }
  return !vars.empty();
}

} // namespace respec

//===- RespecDialect.h - The respec dialect ---------------------*- C++ -*-===//

#ifndef RESPEC_DIALECT_RESPECDIALECT_H
#define RESPEC_DIALECT_RESPECDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "respec/Dialect/RespecOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "respec/Dialect/RespecOps.h.inc"

#endif // RESPEC_DIALECT_RESPECDIALECT_H

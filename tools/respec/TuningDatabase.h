//===- TuningDatabase.h - Reading respec's tuning database -----*- C++ -*-===//
//
// Programs built with `--tune=profile` append one line per (device, kernel,
// launch geometry, version) to a tuning database (runtime/cpu/Tuning.cpp
// documents the format). `--tune=use=FILE` turns it into, for each kernel,
// the versions that won for some geometry and which geometry gets which.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TOOLS_TUNINGDATABASE_H
#define RESPEC_TOOLS_TUNINGDATABASE_H

#include "respec/Transforms/Passes.h"

#include "llvm/ADT/StringRef.h"

namespace respec {

/// Reads `path` and fills `tuning` (kernel candidates and geometry tables)
/// with the fastest version per kernel and launch geometry among records of
/// devices whose key starts with `devicePrefix` ("cpu:"). Prints an error
/// naming the file and line and returns false if the file cannot be read
/// or a record is malformed.
bool applyTuningDatabase(llvm::StringRef path, llvm::StringRef devicePrefix,
                         mlir::respec::TuningOptions &tuning);

} // namespace respec

#endif

//===- RespecDialect.td - The respec dialect ---------------*- tablegen -*-===//

#ifndef RESPEC_DIALECT
#define RESPEC_DIALECT

include "mlir/IR/OpBase.td"

def Respec_Dialect : Dialect {
  let name = "respec";
  let cppNamespace = "::mlir::respec";
  let summary = "Parallel IR of respec: GPU kernels as explicit parallel loops";
  let description = [{
    A kernel is a function of its launch geometry and arguments whose body is
    an `scf.parallel` over blocks holding an `scf.parallel` over threads. The
    ops of this dialect express what the loops alone cannot: block-level
    synchronization, and the marking of which parallel loop is the grid and
    which the block of threads.
  }];
}

class Respec_Op<string mnemonic, list<Trait> traits = []>
    : Op<Respec_Dialect, mnemonic, traits>;

#endif // RESPEC_DIALECT

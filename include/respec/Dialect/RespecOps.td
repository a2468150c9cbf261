//===- RespecOps.td - Operations of the respec dialect -----*- tablegen -*-===//

#ifndef RESPEC_OPS
#define RESPEC_OPS

include "respec/Dialect/RespecDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Respec_BarrierOp : Respec_Op<"barrier"> {
  let summary = "Synchronizes the threads of a block (__syncthreads)";
  let description = [{
    All iterations of the enclosing thread-level `scf.parallel` whose
    induction variables are `threads` reach this point before any of them
    continues. Raised from `__syncthreads()`.

    Its memory effects are conservative (it reads and writes all memory) until
    the barrier analysis refines them to the effects of the code between the
    neighbouring barriers; that keeps CSE, LICM and canonicalization correct
    around it. The CPU back end does not lower barriers yet and rejects
    kernels that contain one.
  }];
  let arguments = (ins Variadic<Index>:$threads);
  let assemblyFormat = "`(` $threads `)` attr-dict";
  let hasVerifier = 1;
}

#endif // RESPEC_OPS

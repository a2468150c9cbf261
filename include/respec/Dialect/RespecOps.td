//===- RespecOps.td - Operations of the respec dialect -----*- tablegen -*-===//

#ifndef RESPEC_OPS
#define RESPEC_OPS

include "respec/Dialect/RespecDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Both barriers take their memory effects from the code around them: see
// getBarrierEffects in RespecDialect.cpp.
class Respec_BarrierLikeOp<string mnemonic, list<Trait> traits = []>
    : Respec_Op<mnemonic, traits # [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let hasVerifier = 1;
}

def Respec_BarrierOp : Respec_BarrierLikeOp<"barrier"> {
  let summary = "Synchronizes the threads of a block (__syncthreads)";
  let description = [{
    All iterations of the enclosing thread-level `scf.parallel` whose
    induction variables are `threads` reach this point before any of them
    continues. Raised from `__syncthreads()`.

    Its memory effects are those of the code between it and the neighbouring
    barriers of the same thread loop (the code whose order with respect to
    other threads it establishes), minus accesses to memory that is provably
    private to the thread (its own `llvm.alloca`s). An op with unknown effects
    in that interval makes the barrier read and write all memory. This keeps
    CSE, LICM and canonicalization correct around barriers while letting
    thread-private code move freely across them; a barrier with no effects
    orders nothing and may be removed.
  }];
  let arguments = (ins Variadic<Index>:$threads);
  let assemblyFormat = "`(` $threads `)` attr-dict";
}

def Respec_ReduceBarrierOp : Respec_BarrierLikeOp<"reduce_barrier"> {
  let summary = "Barrier that also reduces a predicate over the block";
  let description = [{
    A barrier (see `respec.barrier`) whose result is, for every thread, the
    reduction of `predicate` over all threads of the block:
    `popc` counts the threads whose predicate is true (`__syncthreads_count`),
    `and` is 1 iff it is true for all (`__syncthreads_and`), `or` is 1 iff it
    is true for any (`__syncthreads_or`).
  }];
  let arguments = (ins StrAttr:$kind, I1:$predicate, Variadic<Index>:$threads);
  let results = (outs I32:$result);
  let assemblyFormat =
      "$kind $predicate `(` $threads `)` attr-dict";
}

def Respec_AlternativesOp : Respec_Op<"alternatives", [NoTerminator]> {
  let summary = "Versions of the same computation, one of which runs";
  let description = [{
    Each region is a version of the launch of kernel `kernel` (for instance
    coarsened by different factors) with the same effect; `descriptions`
    names each version (`block=2,thread=1`). Any stage may drop regions; a
    single region left is inlined, several are chosen among at run time
    (by timing when profiling, by the geometry heuristic, or by
    `geometry_table`: launch geometries `gx,gy,gz,bx,by,bz` mapped to the
    version a tuning database found fastest for them).
  }];
  let arguments = (ins StrAttr:$kernel, StrArrayAttr:$descriptions,
                       OptionalAttr<DictionaryAttr>:$geometry_table);
  let regions = (region VariadicRegion<SizedRegion<1>>:$versions);
  let assemblyFormat = "$kernel $descriptions attr-dict-with-keyword $versions";
  let hasVerifier = 1;
}

#endif // RESPEC_OPS

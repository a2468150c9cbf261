//===- Passes.td - respec passes ---------------------------*- tablegen -*-===//
//
// Every pass of respec, from raising the imported device module to the
// parallel IR down to the CPU back end. The pass names are the flags of
// respec-opt; each pass has a test file test/Transforms/<pass-name>.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_PASSES
#define RESPEC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Raising: LLVM dialect (NVPTX flavour) -> parallel IR
//===----------------------------------------------------------------------===//

def StripAddressSpacesPass : Pass<"respec-strip-address-spaces", "ModuleOp"> {
  let summary = "Rewrite NVPTX address spaces to the CPU's single flat one";
  let description = [{
    Device code imported from clang's NVPTX output uses address spaces 1
    (global), 3 (shared), 4 (constant) and 5 (local). Host memory is one
    flat space, so every `!llvm.ptr<N>` becomes `!llvm.ptr`, address-space
    casts disappear, and globals keep their address space only as the
    `respec.address_space` attribute (shared-memory lowering needs it).
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def RaiseKernelsPass : Pass<"respec-raise-kernels", "ModuleOp"> {
  let summary = "Turn each kernel into a launch function over parallel loops";
  let description = [{
    For every kernel (`ptx_kernel` calling convention) builds a launch
    function `__respec_launch.<kernel>(gridX, gridY, gridZ, blockX, blockY,
    blockZ, dynamicSharedBytes, args)` whose body is an `scf.parallel` over
    the blocks (attribute `respec.parallel_level = "grid"`) containing the
    block's shared-memory allocation and an `scf.parallel` over the threads
    (`respec.parallel_level = "block"`). The kernel body becomes the
    per-thread function called inside the thread loop: thread and block ids
    and dimensions (`nvvm.read.ptx.sreg.*`) become its parameters, fed by the
    loop induction variables and bounds; `__shared__` variables become
    offsets into the block's shared allocation.

    Fails with an error at the user's source line when a special register is
    read outside a kernel (a device function that was not inlined).
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect"];
}

def StructureThreadBodiesPass
    : Pass<"respec-structure-thread-bodies", "ModuleOp"> {
  let summary = "Inline barrier kernels into their thread loop as scf";
  let description = [{
    For every kernel whose per-thread function uses a block barrier
    (`__syncthreads` and its `_count`, `_and`, `_or` forms), inlines that
    function into the thread loop, lifts its control-flow graph to
    structured control flow (`scf.if`, `scf.index_switch`, `scf.while`;
    irreducible graphs too) and replaces the barrier intrinsics by
    `respec.barrier` / `respec.reduce_barrier` naming the thread loop's
    induction variables. Named barriers with a thread count are rejected
    with an error at the user's line. Kernels without barriers whose
    per-thread function has a loop are inlined and structured the same way
    when their graph allows it (for the CPU back end's thread vectorizer);
    otherwise, and for the other kernels, the call stays. With
    `barrier-free-kernels`, every kernel whose graph allows it is inlined
    and structured (the CPU pipeline runs the pass a second time so, for
    its index-set splitting); the thread loops of kernels structured before
    hold no call of a thread function and are skipped.
  }];
  let options = [
    Option<"barrierFreeKernels", "barrier-free-kernels", "bool",
           /*default=*/"false",
           "Also structure kernels without barriers or loops">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "cf::ControlFlowDialect",
                           "respec::RespecDialect"];
}

//===----------------------------------------------------------------------===//
// CPU back end
//===----------------------------------------------------------------------===//

def LowerDeviceIntrinsicsToCPUPass
    : Pass<"respec-lower-device-intrinsics-cpu", "ModuleOp"> {
  let summary = "Map NVVM intrinsics and libdevice calls to CPU code";
  let description = [{
    Replaces what remains of the NVPTX flavour after raising: `__nv_*`
    libdevice math with LLVM intrinsics the CPU back end vectorizes (the rest
    are left as calls into respec's device math library), NVVM memory fences
    with `llvm.fence`, clock and timer registers with runtime calls, and
    target-specific `syncscope`s of atomics with system scope.

    Kernels that use features the CPU back end does not implement yet
    (block barriers, warp-level primitives) are rejected with an error naming
    the kernel and pointing at the user's source line.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def PredicateDivergentBarriersPass
    : Pass<"respec-predicate-divergent-barriers", "ModuleOp"> {
  let summary = "Make the control around barriers uniform";
  let description = [{
    In thread loops with barriers: demotes the results and loop-carried
    values of structured ops that contain a barrier to thread-private
    memory, then rewrites such ops whose control is not provably uniform
    (ThreadUniformity): an `scf.if`/`scf.index_switch` is flattened with the
    code between barriers guarded by the thread's own condition; a loop
    runs while any thread still iterates (`respec.reduce_barrier "or"`),
    with finished threads masked off. This gives the hardware's answer for
    early exits before barriers and never hangs on divergent barriers.
  }];
  let options = [
    Option<"hoistUniform", "hoist-uniform", "bool", /*default=*/"true",
           "Keep control that is provably uniform as block-level control "
           "flow (disable: predicate every op around a barrier)">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "respec::RespecDialect"];
}

def CoarsenPass : Pass<"respec-coarsen", "ModuleOp"> {
  let summary = "Thread and block coarsening by unroll-and-interleave";
  let description = [{
    Makes each thread (thread coarsening) and each block (block coarsening)
    of a kernel's launch function do the work of several, by
    unroll-and-interleave of the thread or grid `scf.parallel`: the body is
    emitted once per copy, statement by statement, so barriers stay aligned;
    structured ops that contain barriers or nested parallel loops are
    emitted once for all copies, which requires their control to agree
    between copies.

    Thread coarsening by f in a dimension runs n/f threads when f divides
    the block size n at run time and the original loop otherwise; it is not
    applied to kernels with warp primitives or with barriers under control
    that may differ between threads. Block coarsening by f runs the grid's
    blocks f at a time (their shared memory side by side); the remainder
    blocks of each dimension run in an epilogue loop of the original body.
    It is illegal, and not applied, when a barrier sits under control that
    depends on the block id. Kernels left uncoarsened get a warning.
  }];
  let options = [
    Option<"factors", "factors", "std::string", /*default=*/"\"\"",
           "Factors for every kernel: block=F,thread=F with F a total or "
           "XxYxZ">,
    ListOption<"kernelFactors", "kernel", "std::string",
               "Factors for one kernel: NAME:block=F,thread=F">,
    Option<"threadMapping", "thread-mapping", "std::string",
           /*default=*/"\"strided\"",
           "Threads each coarsened thread runs: strided (k*n/f+t, keeps "
           "accesses coalesced) or contiguous (t*f+k)">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "respec::RespecDialect"];
}

def ForwardSharedStoresPass : Pass<"respec-forward-shared-stores",
                                   "ModuleOp"> {
  let summary = "Replace reads of a shared-memory tile by the computation "
                "of the value the writing thread stored";
  let description = [{
    For the CPU back end, on thread loops with a constant block size
    (launch copies of respec-specialize-block-size), before barrier
    elimination. For a barrier at the top level of a thread body, every
    thread of the block is evaluated at compile time: the shared-memory
    stores before the barrier (their addresses and the branches around
    them) and each shared-memory read after it. A read whose location, for
    every thread reaching it, was last written by one store of one thread,
    and whose readers of each (store, writer - reader) pair form a box of
    thread indices, becomes a chain of tests on those boxes, each
    recomputing the store's value for the writer's thread index (pure
    operations, branches and loads from global memory of the code since
    the previous barrier). The code before the barrier may store only to
    shared memory; the code after it none to shared memory, and none to
    the objects the code before it reads, which is proved statically or
    tested at run time (`__respec_distinct_allocations`, selecting a copy
    of the thread loop). When every shared read after the barrier is
    replaced, the barrier is removed, and shared-memory stores that
    nothing reads any more are erased.

    A halo store's recomputation (the chain's last test) serves the
    readers of the last candidate too, without a test on the thread
    index, where it computes, along the branches its writers take, what
    their writers stored; a branch of it whose other region gives their
    value is taken for them also where its condition says otherwise.
    Proved per reader by evaluating both computations with the block
    index and kernel arguments as unknowns (integers as polynomials).
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect",
                           "LLVM::LLVMDialect"];
}

def EliminateBarriersPass : Pass<"respec-eliminate-barriers", "ModuleOp"> {
  let summary = "Remove block barriers that order no conflicting accesses";
  let description = [{
    A `respec.barrier` orders the memory accesses of the code before it
    (back to the previous barrier) against those of the code after it (up
    to the next) across threads. When no access before and access after can
    touch the same memory with at least one of them writing, the barrier
    orders nothing and is removed; every barrier removed on the CPU is one
    thread-loop fission less. Accesses to thread-private memory never
    conflict. Two addresses are known apart when they come from different
    objects: the block's shared memory, distinct `__device__` variables,
    distinct allocations; pointers from kernel arguments may alias each
    other and global variables but not shared memory. Code with unknown
    effects (calls, fences) keeps the barrier.
  }];
  let dependentDialects = ["respec::RespecDialect"];
}

def BuildAlternativesPass : Pass<"respec-build-alternatives", "ModuleOp"> {
  let summary = "Give kernels several coarsened versions to choose from";
  let description = [{
    Wraps each launch's grid loop in a `respec.alternatives` op with one
    version per candidate coarsening (`block=B,thread=T`). A candidate
    whose coarsening is not legal for the kernel (warned about) would be a
    copy of the uncoarsened version and is dropped; a launch left with one
    version gets no alternatives op. Per-kernel candidate lists and launch
    geometry tables (from a tuning database) override the defaults.
  }];
  let options = [
    ListOption<"candidates", "candidates", "std::string",
               "Coarsening of each version for every kernel "
               "(block=B,thread=T)">,
    ListOption<"kernelCandidates", "kernel-candidates", "std::string",
               "Versions of one kernel: NAME=REQUEST;REQUEST;...">,
    ListOption<"kernelGeometry", "kernel-geometry", "std::string",
               "Version of one kernel for one launch geometry: "
               "NAME=gx/gy/gz/bx/by/bz:INDEX, or NAME=default:INDEX">,
  ];
  let dependentDialects = ["respec::RespecDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "LLVM::LLVMDialect"];
}

def SimplifyLoopExitsPass : Pass<"respec-simplify-loop-exits"> {
  let summary = "Test the exit condition of lifted loops directly instead "
                "of through the exit multiplexer";
  let description = [{
    The CFG-to-SCF lifting leaves each rotated loop as an `scf.while` whose
    `scf.condition` tests a constant yielded by an `scf.if` on the real exit
    test, and forwards values that `scf.if` selects (next-iteration values
    or poison on one side, values live after the loop or poison on the
    other). This pass makes the terminator test the exit condition and
    forward the selected values where one side is poison or both agree,
    then applies the `scf.while` canonicalizations to the loops it changed
    (the multiplexer, unused and duplicated carried values go away). Loop
    counters and exit tests are then visible to the analyses that follow
    (thread-strided loops, uniform loop control).
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def UniformizeStridedLoopsPass : Pass<"respec-uniformize-strided-loops",
                                      "ModuleOp"> {
  let summary = "Run thread-strided loops around a counter all threads "
                "share";
  let description = [{
    For the CPU back end, on loops as respec-simplify-loop-exits leaves
    them. A loop whose counter starts at a value that differs between
    threads by a non-negative offset and grows by a positive step the same
    for all threads up to a bound the same for all threads (`for (i =
    threadIdx.x; i < n; i += blockDim.x)`) becomes a loop over the shared
    part of the counter that runs each thread's iteration under the guard
    `shared + offset < n`. Its control is then uniform: the thread
    vectorizer runs it without per-lane exit masks, the interchange can
    take it, and index-set splitting turns the guard into thread-loop
    bounds. The new loop computes in 64 bits; where the old loop's
    arithmetic is not proven exact (32-bit counters, 64-bit bounds of
    unknown magnitude), it runs under a test at run time and a copy of the
    old loop runs elsewhere.
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect",
                           "LLVM::LLVMDialect"];
}

def InterchangeSerialLoopsPass : Pass<"respec-interchange-serial-loops",
                                      "ModuleOp"> {
  let summary = "Run the threads of a block inside their uniform serial "
                "loops, so that the loop bodies vectorize across threads";
  let description = [{
    For the CPU back end. A serial loop that every thread of a block runs
    with the same iterations (uniform trip count), whose body is free of
    calls, atomics, local allocations and thread-dependent nested loops, and
    whose trip count is not a small constant, gets a barrier at the start of
    its body (marked `respec.interchange`). Barrier lowering then interchanges
    it with the thread loop: the loop runs once per block and the threads
    run inside each iteration, the innermost loop, which LLVM vectorizes
    across threads; each thread's carried state is kept in a per-thread
    array. Run before `respec-predicate-divergent-barriers`.
  }];
  let dependentDialects = ["respec::RespecDialect"];
}

def SplitThreadIndexSetsPass : Pass<"respec-split-thread-index-sets",
                                    "ModuleOp"> {
  let summary = "Split thread loops at the thread indices where a branch "
                "on the thread index changes";
  let description = [{
    For the CPU back end, after barrier lowering. A branch inside a thread
    loop whose condition compares a thread index (plus values the same for
    all threads, added without wrap-around) with a value the same for all
    threads (`tx == 0`, `tid < stride`, `blockIdx.x * blockDim.x +
    threadIdx.x < n`) is taken by a range of threads. The loop is split at
    the ends of that range into loops in which the condition is a constant
    and the branch is gone, so that LLVM can vectorize them. Switches on a
    thread index become chains of such branches first; the conditions of
    selects split the same way (the select then picks one value). Between
    barriers
    CUDA does not order the threads of a block, so running them in another
    order is correct. At most `max-pieces` loops come from one thread loop
    (4 if its bounds are not constants), and the parts may add at most
    twice the loop's size (or 600 operations).
  }];
  let options = [
    Option<"maxPieces", "max-pieces", "unsigned", "8",
           "Most loops one thread loop with constant bounds is split into "
           "(at most 4 for loops with run-time bounds)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "LLVM::LLVMDialect"];
}

def FuseBlockRowsPass : Pass<"respec-fuse-block-rows", "ModuleOp"> {
  let summary = "Run neighbouring blocks of a grid row together, row of "
                "threads by row of threads";
  let description = [{
    For the CPU back end, after the thread loops are final (hoisting and
    vectorization done) and before they are serialized. On grid loops of
    launch bodies specialized for a block size of several rows of threads
    (`respec.block_size`), whose blocks are narrow along x and whose thread
    loops access memory contiguously along x: each fused block runs C
    neighbouring blocks along x, and each thread loop becomes

        for (tz, ty) { for c < C { bx = first + c; for tx { body } } }

    so that one row of threads sweeps C * blockDim.x consecutive elements
    of each row it touches instead of blockDim.x. Each of the C blocks has
    its own shared memory and block-scope arrays (allocated once, C times
    the size) and recomputes what depends on its block index inside the c
    loop. C is chosen at launch: enough blocks for a row of about 1024
    threads, at most the grid's width, leaving at least 64 fused blocks to
    share among OpenMP threads where the grid has them, and keeping the
    fused block's storage under 96 KiB.

    With `merge-rows`, a thread loop whose body uses its x index and the
    block's only as the global index `bx * blockDim.x + tx`, and whose x
    bounds are each block's share of one range of global indices (bounds
    checks split by respec-split-thread-index-sets), becomes one loop over
    the global index instead of the loop over c and the loop over tx:

        for (tz, ty) { for k in [max(first * w, L), min(end * w, H)) { body } }

    the same iterations in the same order, which LLVM vectorizes as one
    row rather than C rows of blockDim.x.
  }];
  let options = [
    Option<"mergeRows", "merge-rows", "bool", /*default=*/"true",
           "Merge the loop over the fused blocks and the row of threads "
           "into one loop over the global index where the body needs only "
           "that">,
  ];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect",
                           "LLVM::LLVMDialect"];
}

def SplitThreadGroupsPass : Pass<"respec-split-thread-groups", "ModuleOp"> {
  let summary = "Run the threads of a block as groups of a power of two "
                "where the kernel divides its thread index by one";
  let description = [{
    For the CPU back end, on final thread loops (no barriers), before they
    are serialized. A thread loop over x in [0, N) whose body reads the
    thread index through `(g + tx) & (C - 1)`, `(g + tx) >> log2(C)`,
    `(g + tx) & -C` (or unsigned division and remainder by C), with g the
    same for all threads and a multiple of C and C a power of two of at
    least `min-group` that divides N, runs as two loops, tx = C * q + l
    with l innermost: those reads become l, (g + C * q) >> log2(C) and
    g + C * q, so that the addresses of a group's threads are affine in l
    and LLVM vectorizes the inner loop.
  }];
  let options = [
    Option<"minGroup", "min-group", "int64_t", /*default=*/"8",
           "Smallest group size worth an inner loop of its own">,
  ];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def VersionBoundsChecksPass : Pass<"respec-version-bounds-checks",
                                   "ModuleOp"> {
  let summary = "Run thread loops without bounds checks that hold for the "
                "whole block";
  let description = [{
    For the CPU back end, after index-set splitting. A branch inside a
    serial loop of a thread loop whose condition compares a value computed from thread indices,
    loop counters and values the same for all threads with a bound the
    same for all threads (`if (base + r * 256 + tid < n)` inside a loop
    over r) is tested once per block: intervals of the compared value over
    all threads and iterations, computed before the thread loop in 128-bit
    arithmetic, decide whether the branch is taken everywhere. If so, a
    copy of the thread loop without the branch runs; the loop as it was
    runs otherwise. Operations without a no-wrap flag for the signedness
    the comparison reads add a test that their interval fits their type.
  }];
  let dependentDialects = ["arith::ArithDialect", "scf::SCFDialect"];
}

def FreezeBlockIndicesPass : Pass<"respec-freeze-block-indices",
                                  "ModuleOp"> {
  let summary = "Make block indices opaque values computed once per block";
  let description = [{
    For the CPU back end, before the grid loop becomes an OpenMP loop. Each
    block index (induction variable of a grid loop) is replaced by a frozen
    copy made at the start of the block. The OpenMP lowering computes block
    indices from one collapsed counter by division; without the freeze,
    LLVM's loop strength reduction re-expands that division at uses inside
    the thread loops, once per thread.
  }];
  let dependentDialects = ["arith::ArithDialect", "LLVM::LLVMDialect"];
}

def FindIndependentThreadsPass
    : Pass<"respec-find-independent-threads", "ModuleOp"> {
  let summary = "Mark grid loops whose threads never synchronize within "
                "their block";
  let description = [{
    For the CPU back end, after barrier elimination and before warp
    primitives are lowered. A grid loop gets `respec.independent_threads`
    when nothing in it (nor in the functions it calls) is a block barrier or
    a warp primitive, and it makes no indirect calls: its threads then never
    wait for each other or exchange registers, so CUDA lets them run in any
    order, also side by side on different cores. Later passes keep the
    attribute on the grid loops they leave in place; a pass that rebuilds a
    grid loop drops it, which only forgoes
    `respec-parallelize-few-block-grids`.
  }];
}

def ParallelizeFewBlockGridsPass
    : Pass<"respec-parallelize-few-block-grids", "ModuleOp"> {
  let summary = "Split the blocks of grids with fewer blocks than cores into "
                "slices of threads that run on different cores";
  let description = [{
    For the CPU back end, after the thread-loop optimizations and before
    thread loops are serialized. The grid loop runs one block per OpenMP
    thread, so a grid of fewer blocks than cores leaves cores idle: a
    `<<<1, 1024>>>` launch runs on one core. For grid loops marked
    `respec.independent_threads` that use no shared memory, the pass adds a
    version taken when the grid has at most half as many blocks as OpenMP
    threads and the block at least `min-block-threads` threads along x: the
    grid loop gets one more dimension, the slice, and each thread loop of
    slice `s` runs only the threads whose x lies in the slice (slices are
    multiples of 64 threads, so that SIMD groups and warps stay whole; the
    last slice takes all threads above). Each slice then runs the block's
    code on its own core, with its own scratch storage.

    With `barrier-grids`, grids whose threads synchronize only at
    `__syncthreads()` (`respec.barrier_synchronized_threads`) get such a
    version too: their slices share one shared-memory allocation per block
    (`__respec_slice_groups_begin`, `__respec_slice_group_shared`,
    `__respec_slice_group_private` for per-thread storage) and wait for
    each other where the kernel's barriers were (`__respec_slice_barrier`
    at the marks `--respec-lower-barriers=mark-barriers` leaves), when
    their threads have work between barriers. It is taken only when the
    runtime says the parallel region will run that many threads at once
    (`__respec_slice_team_size`); a slice whose team turns out smaller
    (`__respec_slice_team_ready`) leaves its block to the first slice,
    which runs it whole.
  }];
  let options = [
    Option<"minBlockThreads", "min-block-threads", "unsigned",
           /*default=*/"128",
           "Fewest threads along x a block needs for its slices to run on "
           "several cores">,
    Option<"barrierGrids", "barrier-grids", "bool", /*default=*/"true",
           "Also slice blocks whose threads meet at barriers">,
  ];
  let dependentDialects = ["arith::ArithDialect", "LLVM::LLVMDialect",
                           "scf::SCFDialect"];
}

def HoistThreadInvariantsPass : Pass<"respec-hoist-thread-invariants",
                                     "ModuleOp"> {
  let summary = "Move thread-invariant operations and loads out of thread "
                "loops";
  let description = [{
    For the CPU back end, after block barriers are lowered. Operations at
    the top level of a thread loop whose operands do not depend on the
    thread move in front of the loop, to block scope: pure operations
    (those that may trap only out of loops known to run), and plain loads
    that no store, atomic, call or loop precedes in the thread body (out of
    loops known to run). In a thread loop without barriers a thread can see
    another thread's store only through a data race, so such a load reads
    what the location held when the loop began.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def LocalizeSharedAtomicsPass : Pass<"respec-localize-shared-atomics",
                                     "ModuleOp"> {
  let summary = "Turn atomics on shared memory into plain loads and stores";
  let description = [{
    For the CPU back end, where one OS thread runs all threads of a block
    and a block's shared memory is its own: an `llvm.atomicrmw` (exchange,
    integer and bitwise operations, min/max, floating-point add/sub) or
    `llvm.cmpxchg` whose address is the block's shared memory base plus
    offsets becomes a load, the operation and a store. Volatile atomics and
    addresses of unknown origin stay atomic.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def SpecializeBlockSizePass : Pass<"respec-specialize-block-size",
                                   "ModuleOp"> {
  let summary = "Give launches a version for the block sizes they are "
                "launched with";
  let description = [{
    CUDA programs almost always launch a kernel with block dimensions that
    are constants at the launch site, but the kernel's launch function
    receives them at run time, so its thread loops have unknown trip counts.
    For each launch function whose kernel is listed in `block-sizes` (the
    driver finds them in the host code), this pass adds one copy of the
    launch body per listed size, in which `blockDim` is that constant, and
    dispatches on the actual block size at launch; any other size runs the
    original body. Constant thread-loop bounds let the CPU back end unroll
    and vectorize thread loops and size per-thread storage statically.
  }];
  let options = [
    ListOption<"blockSizes", "block-sizes", "std::string",
               "A block size one kernel is launched with: NAME=BXxBYxBZ "
               "(mangled kernel name; repeatable)">,
    Option<"maxVersions", "max-versions", "unsigned", "2",
           "Most specialized copies per kernel (the sizes listed first)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect"];
}

def OutlineGPUKernelsPass : Pass<"respec-outline-gpu-kernels", "ModuleOp"> {
  let summary = "Turn each grid loop into an NVVM kernel";
  let description = [{
    For the NVIDIA back end: every grid `scf.parallel` of a launch function
    becomes an `llvm.func` with `nvvm.kernel` whose blocks are the loop's
    iterations (block ids from `%ctaid`) and whose threads are the
    iterations of the thread loop inside it (`%tid`). Values the loop uses
    from the launch function become kernel parameters (constants are
    cloned), barriers become `bar.sync` / `bar.red`, and the block's shared
    memory a `.shared` array (static when its size is a constant up to 48
    KiB, dynamic otherwise). Grid loops that branch on a launch-invariant
    condition around thread loops are unswitched first, one kernel per
    branch. The first kernel of a launch keeps the CUDA name; versions and
    epilogues get `_respecN` suffixes. Launch functions are removed: they
    are host code. With `host-launches`, they stay instead, each grid loop
    replaced by a call to the runtime's `__respec_cuda_launch` with the
    kernel's name, the grid and block sizes, the dynamic shared memory and
    the kernel's parameters: the launch function becomes the host side of
    a program built for the GPU.
  }];
  let options = [
    Option<"hostLaunches", "host-launches", "bool", /*default=*/"false",
           "Keep launch functions, launching the kernels through the runtime">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "NVVM::NVVMDialect",
                           "scf::SCFDialect", "arith::ArithDialect"];
}

def LowerAlternativesPass : Pass<"respec-lower-alternatives", "ModuleOp"> {
  let summary = "Choose among a kernel's versions at run time (CPU)";
  let description = [{
    Replaces each `respec.alternatives` op by its versions in an
    `scf.index_switch` whose index comes from the op's geometry table
    (compared with the launch function's grid and block sizes) or, without
    one, from the runtime (`__respec_tune_select`): round robin over the
    versions, timed, when profiling; the geometry heuristic otherwise. A
    single version is inlined.
  }];
  let options = [
    Option<"profile", "profile", "bool", /*default=*/"false",
           "Time every launch and record it in the tuning database">,
  ];
  let dependentDialects = ["scf::SCFDialect", "arith::ArithDialect",
                           "LLVM::LLVMDialect"];
}

def InterleaveWarpLanesPass
    : Pass<"respec-interleave-warp-lanes", "ModuleOp"> {
  let summary = "Run warps of register-cache kernels as interleaved lanes";
  let description = [{
    For thread loops without block barriers whose warp primitives (shuffles,
    votes, __reduce_*_sync, __syncwarp) are not in loops with lane-dependent
    trip counts, emits the thread body once per lane of a warp, operation
    by operation, with lane-varying arithmetic as 32-lane vector code, so
    that shuffles and votes combine the lanes' values without going through
    memory. Lane-dependent branches around primitives run under a lane
    mask; the partial last warp runs with its missing lanes masked off.

    Lanes that never exchange values with lanes outside their aligned
    group of G (every primitive a shuffle whose constant `width` and lane
    offsets stay within G lanes) can run in SIMD groups narrower than the
    warp: a group of `lanes` (a power of two from G to 32) holds lanes/G of
    the kernel's groups side by side (WG_PACK). With `lanes` = 0 and a
    known target (`vector-bits`), straight-line bodies take the narrowest
    group their exchanges allow (at least 4 lanes) and bodies with loops
    around primitives whole warps; with neither option, whole warps.

    Integer and address values whose lanes follow from the thread indices
    by exact arithmetic (LaneOffsets.h) are computed once when every lane
    gets the same value, and loads and stores whose lanes touch
    consecutive elements become vector (masked) loads and stores; other
    known lane distances (strides, arrays of structures) become one gather
    or scatter from lane 0's address. Addresses with lane-varying indices
    of no known pattern are one vector GEP, and their accesses gathers and
    scatters. A shuffle whose source lanes are known only at run time
    permutes through a stack copy with one gather. A `while` loop whose
    condition is the same in every lane (a rotated counted loop) runs once
    for all lanes with its lane-invariant values as scalars. These keep the
    emitted code a few operations per operation of the thread body instead
    of one per lane (compile time).
  }];
  let options = [
    Option<"lanes", "lanes", "unsigned", /*default=*/"0",
           "Lanes per SIMD group (a power of two up to 32; raised to what "
           "the kernel's shuffles need); 0: chosen by the pass">,
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"0",
           "Width of the target's vector registers in bits (0: unknown)">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect"];
}

def ExpandWarpIntrinsicsPass
    : Pass<"respec-expand-warp-intrinsics", "ModuleOp"> {
  let summary = "Implement warp primitives with barriers and shared slots";
  let description = [{
    Replaces the warp-level NVVM intrinsics in thread loops (shuffles with
    any width, ballot/any/all/uni votes, match_any/match_all,
    __reduce_*_sync, __syncwarp) by an exchange through a block-scope array between two
    `respec.barrier`s (marked `respec.warp_sync`), with PTX's results for
    every lane, including partial warps. Correct, not yet SIMD-fast.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "respec::RespecDialect"];
}

def ExpandReduceBarriersPass
    : Pass<"respec-expand-reduce-barriers", "ModuleOp"> {
  let summary = "Lower __syncthreads_count/_and/_or to barriers and a reduction";
  let description = [{
    Replaces each `respec.reduce_barrier` by a store of the thread's vote to
    a block-scope array, a barrier, a reduction of the votes by thread 0, a
    second barrier and a load of the result.
  }];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect", "respec::RespecDialect"];
}

def PromoteAcrossBarriersPass
    : Pass<"respec-promote-across-barriers", "ModuleOp"> {
  let summary = "Access thread-private variables in the barrier interval "
                "that uses them";
  let description = [{
    For the CPU back end, before `--respec-lower-barriers`. In thread loops
    with barriers, a thread-private variable in memory (an `llvm.alloca` at
    the top of the thread body whose address is only loaded from and stored
    to: the slots of loop-carried values demoted by
    `--respec-predicate-divergent-barriers`, say) is loaded just before the
    first use of the loaded value and stored just after the definition of
    the stored value, across the barriers in between, where no other access
    to it lies between. Barrier lowering then keeps the value in the
    variable's own storage instead of spilling the loaded or stored value
    at each barrier; a tiled loop's accumulator no longer costs two copy
    loops per iteration. Only the thread itself can see the variable, so
    the barriers order nothing about it.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def LowerBarriersPass : Pass<"respec-lower-barriers", "ModuleOp"> {
  let summary = "Remove block barriers by thread-loop fission and interchange";
  let description = [{
    Splits each thread loop at every `respec.barrier` directly in it
    (fission) and moves structured ops that contain a barrier out of the
    thread loop, with a thread loop in each of their regions (interchange),
    recursively. Their control must be uniform: run
    `--respec-predicate-divergent-barriers` and
    `--respec-expand-reduce-barriers` first. Values used across a split are
    kept in per-thread block-scope arrays or recomputed after it, chosen by
    a minimum cut over the SSA graph (fewest bytes kept); thread-private
    allocas used across a split become per-thread slices of a block-scope
    array.

    With `mark-barriers`, in grids marked
    `respec.barrier_synchronized_threads`, a call of
    `__respec_barrier_point` is left at block level where each of the
    kernel's barriers was (not those the interchange of serial loops
    inserted, which order no thread after another):
    `--respec-parallelize-few-block-grids` makes slices of a block wait
    for each other there, and removes every such call.
  }];
  let options = [
    Option<"minimizeCrossing", "min-cut", "bool", /*default=*/"true",
           "Recompute values across barriers where that keeps fewer bytes "
           "(disable: keep every crossing value in memory)">,
    Option<"markBarriers", "mark-barriers", "bool", /*default=*/"false",
           "Mark where the barriers of grids whose threads synchronize "
           "only at barriers were, for respec-parallelize-few-block-grids">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "scf::SCFDialect",
                           "arith::ArithDialect"];
}

def VectorizeThreadLoopsPass
    : Pass<"respec-vectorize-thread-loops", "ModuleOp"> {
  let summary = "Run consecutive threads of a block as the lanes of SIMD "
                "vectors where a serial loop keeps LLVM from vectorizing";
  let description = [{
    For the CPU back end, after barrier lowering (thread loops without
    barriers). A thread loop whose body contains a serial loop (`scf.for`,
    `scf.while`) is one LLVM's loop vectorizer leaves scalar: it vectorizes
    innermost loops only. This pass vectorizes the thread loop's x dimension
    itself: `lanes` consecutive threads run as the lanes of vectors, values
    that do not depend on the lane stay scalar, loads and stores become
    vector accesses where the lanes' addresses are consecutive and gathers
    or scatters elsewhere, branches whose condition differs between lanes
    run both sides under lane masks, and loops whose exit differs between
    lanes run until every lane has left. The threads beyond the last full
    vector run in the original loop. Loops with calls, atomics, localized
    shared-memory atomics or ops the pass cannot widen are left alone.
    A loop whose serial loop keeps more per-thread state than 256 32-bit
    words over `lanes` lanes (half of AVX-512's registers) gets half of
    `lanes`.
  }];
  let options = [
    Option<"lanes", "lanes", "unsigned", /*default=*/"8",
           "Threads per vector (at least 2; 1 turns the pass off)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "LLVM::LLVMDialect",
                           "arith::ArithDialect"];
}

def SerializeThreadLoopsPass
    : Pass<"respec-serialize-thread-loops", "ModuleOp"> {
  let summary = "Run the threads of a block as a counted loop nest";
  let description = [{
    Rewrites each thread-level `scf.parallel` (`respec.parallel_level =
    "block"`) into a nest of `scf.for` loops with x innermost, so that one
    CPU thread runs all GPU threads of a block in order and LLVM's loop
    vectorizer sees consecutive x as consecutive iterations. Legal only for
    thread loops without barriers, which the CPU pipeline guarantees. The
    loops carry LLVM loop metadata that disables unrolling, so that LLVM's
    loop vectorizer, not its full unrolling, handles short thread loops.

    With `parallel-accesses`, the memory accesses of each thread loop are
    put in an access group that the loops declare parallel
    (`llvm.loop.parallel_accesses`): between barriers the threads of a
    race-free block access no location one writes and another reads or
    writes, so LLVM may vectorize without run-time alias checks. Left out
    are atomics, volatile accesses and respec's block-serial accesses
    (localized shared atomics); a thread loop with block-serial accesses is
    not annotated, nor is one with an access that is neither the same for
    all threads nor contiguous along x (LLVM would use gathers), or with a
    call that takes the thread index. Accesses to thread-private stack
    memory are dropped from the groups in LLVM (DropPrivateAccessGroups),
    after inlining.
  }];
  let options = [
    Option<"parallelAccesses", "parallel-accesses", "bool",
           /*default=*/"true",
           "Declare the thread loops' accesses free of cross-thread "
           "dependences (LLVM parallel-loop metadata)">,
  ];
  let dependentDialects = ["scf::SCFDialect", "LLVM::LLVMDialect"];
}

def FindUnbalancedGridsPass : Pass<"respec-find-unbalanced-grids",
                                   "ModuleOp"> {
  let summary = "Mark launch functions whose blocks may differ in work";
  let description = [{
    For the CPU back end, on the parallel IR as raised (before coarsening
    and barrier lowering). Marks with `respec.unbalanced_blocks` each
    function with a grid loop whose blocks may do different amounts of
    work: a loop in the grid whose bounds or exit test depend on a value
    read from memory or on the block index, a loop under a branch on a
    value read from memory, or a branch that bounds the block's global
    index from below by a value other than a constant (`if (j > k)`: the
    leading blocks idle). `--respec-schedule-grid-loops` gives their grid
    loops a dynamic OpenMP schedule.
  }];
}

def ScheduleGridLoopsPass : Pass<"respec-schedule-grid-loops", "ModuleOp"> {
  let summary = "Share each grid loop's blocks among the OpenMP threads";
  let description = [{
    For the CPU back end, after `--convert-scf-to-openmp`. Chooses the
    schedule of each `omp.wsloop` (the blocks of a grid): with `auto`,
    dynamic in functions marked `respec.unbalanced_blocks`
    (`--respec-find-unbalanced-grids`), static (one contiguous run of
    blocks per core) elsewhere; or the schedule given. Static and dynamic
    schedules are built in the parallel region itself (each thread's share
    from `omp_get_thread_num`/`omp_get_num_threads`; a team counter taken
    in runs of about eight per thread under `auto`, one block at a time
    under `dynamic`), without libomp's worksharing calls, whose debug
    builds format trace strings on every call; `guided` keeps the
    `omp.wsloop`, as every schedule does with `inline-worksharing=false`.
  }];
  let options = [
    Option<"schedule", "schedule", "std::string", /*default=*/"\"auto\"",
           "auto, static, dynamic or guided">,
    Option<"inlineWorksharing", "inline-worksharing", "bool",
           /*default=*/"true",
           "build static and dynamic schedules in the parallel region "
           "(false: libomp's worksharing loop)">,
  ];
  let dependentDialects = ["omp::OpenMPDialect", "arith::ArithDialect",
                           "scf::SCFDialect", "LLVM::LLVMDialect"];
}

def EmitModuleTablePass : Pass<"respec-emit-module-table", "ModuleOp"> {
  let summary = "Emit the table that registers kernels and variables";
  let description = [{
    Emits `__respec_module_table`, the `respec_module` of
    runtime/include/respec_rt/abi.h: for each launch function its kernel
    name, parameter sizes and static shared-memory size; for each
    `__device__`/`__constant__` variable its name, address and size. The
    runtime finds kernels and symbols through it.
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

def OutlineLargeBlocksPass : Pass<"respec-outline-large-blocks", "ModuleOp"> {
  let summary = "Run the body of a grid loop with many loops as a call";
  let description = [{
    For the CPU back end, last before the grid loop becomes an OpenMP loop.
    The body of a grid loop (one block's code) that contains at least
    `min-loops` loops moves into an internal, non-inlinable function of its
    own, called once per block with the block indices and the values the
    body uses from outside (`index` values passed as `i64`).

    This is for compile time. After barrier lowering, a large kernel is one
    LLVM loop (the grid loop) around hundreds of thread loops: CUB's radix
    sort has over a thousand. Each time LLVM's loop passes change an inner
    loop (rotation, unswitching, CFG simplification) scalar evolution
    forgets what it knew about the outermost loop around it, which means
    every value the grid loop's induction variables reach, the whole kernel:
    quadratic in the kernel's size. With the block's code in a function of
    its own, the thread loops' outermost loops are the block's serial loops.

    Constants the body uses are recomputed in the function. Grid loops with
    results, bodies that use values of types other than `index` and LLVM
    types from outside, and functions with debug information are left
    alone.
  }];
  let options = [
    Option<"minLoops", "min-loops", "int64_t", /*default=*/"128",
           "loops (scf.for, scf.while, scf.parallel) a grid loop's body must "
           "contain to be outlined">,
  ];
  let dependentDialects = ["LLVM::LLVMDialect", "arith::ArithDialect"];
}

#endif // RESPEC_TRANSFORMS_PASSES

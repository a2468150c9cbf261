//===- Attributes.h - Names of discardable attributes -----------*- C++ -*-===//
//
// Attribute names shared by the passes that produce and consume them.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_ATTRIBUTES_H
#define RESPEC_TRANSFORMS_ATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::respec {

/// On scf.parallel: "grid" for the loop over blocks, "block" for the loop
/// over the threads of a block.
inline constexpr llvm::StringLiteral kParallelLevelAttr =
    "respec.parallel_level";
inline constexpr llvm::StringLiteral kGridLevel = "grid";
inline constexpr llvm::StringLiteral kBlockLevel = "block";
/// On grid loops of a launch body specialized for one block size
/// (respec-specialize-block-size): blockDim as (x, y, z)
/// (DenseI64ArrayAttr).
inline constexpr llvm::StringLiteral kBlockSizeAttr = "respec.block_size";

/// On launch functions: the kernel's device-side name (StringAttr), the byte
/// size of each parameter (DenseI64ArrayAttr) and its static shared memory
/// in bytes (IntegerAttr).
inline constexpr llvm::StringLiteral kKernelNameAttr = "respec.kernel_name";
inline constexpr llvm::StringLiteral kParamSizesAttr = "respec.param_sizes";
inline constexpr llvm::StringLiteral kStaticSharedAttr =
    "respec.static_shared_bytes";
/// On launch functions (UnitAttr) whose blocks may do different amounts of
/// work (respec-find-unbalanced-grids): their grid loops get a dynamic
/// OpenMP schedule (respec-schedule-grid-loops).
inline constexpr llvm::StringLiteral kUnbalancedBlocksAttr =
    "respec.unbalanced_blocks";
/// On launch functions (UnitAttr) of kernels that synchronize their whole
/// grid (they read the cooperative launch's grid workspace): every block
/// must run on a thread of its own, so nothing may merge blocks (row fusion,
/// coarsening) or hand a thread more than one (dynamic schedules).
inline constexpr llvm::StringLiteral kSyncsGridAttr = "respec.syncs_grid";
/// The runtime function that gives device code the grid workspace (abi.h).
inline constexpr llvm::StringLiteral kGridWorkspaceFunction =
    "__respec_grid_workspace";

/// Device code's stand-in for the start of its block's shared memory. PTX
/// addresses shared memory by offsets into a window (`__cvta_generic_to_
/// shared`, `cp.async`, `ld.shared [%r]`); the CPU front end computes such
/// offsets from this base, which raising replaces by the block's shared
/// allocation.
inline constexpr llvm::StringLiteral kSharedWindowFunction =
    "__respec_shared_window";

/// The shared-memory scratch area through which the CPU's wmma mma_sync
/// exchanges a warp's operands (Frontend/WarpMatrixOps.cpp). Shared
/// variables whose names start with kInternalSharedPrefix are respec's own:
/// allocated with the block's shared memory, but not counted in the static
/// shared memory the program sees (cudaFuncGetAttributes, launch limits).
inline constexpr llvm::StringLiteral kInternalSharedPrefix = "__respec_";
inline constexpr llvm::StringLiteral kWarpMatrixScratchName =
    "__respec_wmma_scratch";

/// On grid loops (UnitAttr) whose threads never wait for or exchange data
/// with other threads of their block: no barriers, no warp primitives
/// (respec-find-independent-threads). A block's threads may then run on
/// several cores (respec-parallelize-few-block-grids).
inline constexpr llvm::StringLiteral kIndependentThreadsAttr =
    "respec.independent_threads";
/// On grid loops (UnitAttr) whose threads synchronize only at plain block
/// barriers (`__syncthreads()`): no warp primitives, no reducing barriers
/// (respec-find-independent-threads). A block's threads may then run as
/// slices on several cores that meet at each barrier
/// (respec-parallelize-few-block-grids).
inline constexpr llvm::StringLiteral kBarrierSynchronizedThreadsAttr =
    "respec.barrier_synchronized_threads";
/// The runtime functions of blocks whose slices run on several cores and
/// meet at barriers (runtime/cpu/SliceGroups.cpp).
inline constexpr llvm::StringLiteral kSliceGroupsBeginFunction =
    "__respec_slice_groups_begin";
inline constexpr llvm::StringLiteral kSliceTeamReadyFunction =
    "__respec_slice_team_ready";
inline constexpr llvm::StringLiteral kSliceGroupSharedFunction =
    "__respec_slice_group_shared";
inline constexpr llvm::StringLiteral kSliceGroupPrivateFunction =
    "__respec_slice_group_private";
inline constexpr llvm::StringLiteral kSliceBarrierFunction =
    "__respec_slice_barrier";
inline constexpr llvm::StringLiteral kSliceTeamSizeFunction =
    "__respec_slice_team_size";
/// The runtime's answer to `__isShared`, `__isLocal` & co. (PTX `isspacep`):
/// which space a pointer is in, judged from the running core's shared
/// memory and block storage.
inline constexpr llvm::StringLiteral kAddressSpaceQueryFunction =
    "__respec_address_space";
/// The runtime's `%smid`: the core running the calling thread, the same for
/// all threads of a block unless the block runs as slices.
inline constexpr llvm::StringLiteral kSmidFunction = "__respec_smid";
/// Marks, at block level after barrier lowering, where a barrier of the
/// kernel was (respec-lower-barriers=mark-barriers); never reaches LLVM:
/// respec-parallelize-few-block-grids removes every call.
inline constexpr llvm::StringLiteral kBarrierPointFunction =
    "__respec_barrier_point";
/// On launch functions of kernels with `__launch_bounds__(N)`: N, the most
/// threads per block the kernel may be launched with (IntegerAttr).
inline constexpr llvm::StringLiteral kMaxThreadsPerBlockAttr =
    "respec.max_threads_per_block";
/// In launch functions, on the load of a by-value (struct) parameter's
/// address from the launch's argument array: the parameter's type
/// (TypeAttr). Kernels on the CPU read the struct through that host
/// address; a GPU kernel must receive the struct itself.
inline constexpr llvm::StringLiteral kByValParamAttr = "respec.byval_param";

/// On llvm.mlir.global: the NVPTX address space the variable was declared in
/// (1 global, 3 shared, 4 constant).
inline constexpr llvm::StringLiteral kAddressSpaceAttr =
    "respec.address_space";

/// On the per-thread function: the kernel it was made from.
inline constexpr llvm::StringLiteral kThreadFunctionOfAttr =
    "respec.thread_function_of";

/// The global a CPU device module lists its kernels and variables in (a
/// `respec_module`, runtime/include/respec/abi.h), which clang's fat-binary
/// wrapper points at once device code is linked into host code.
inline constexpr llvm::StringLiteral kModuleTableName = "__respec_module_table";

/// The runtime function that returns a block's shared memory
/// (`void *__respec_shared_memory(uint64_t bytes)`); every call made while
/// one block runs returns the same storage.
inline constexpr llvm::StringLiteral kSharedMemoryFunction =
    "__respec_shared_memory";

/// On GPU kernels outlined from a version of a `respec.alternatives` op:
/// the version's description (`block=2,thread=1`).
inline constexpr llvm::StringLiteral kKernelVersionAttr = "respec.version";
/// ... and the CUDA kernel it is a version of.
inline constexpr llvm::StringLiteral kKernelVersionOfAttr =
    "respec.version_of";

/// On GPU kernels: the bytes of shared memory each block uses, when known
/// at compile time (large allocations become dynamic shared memory, which
/// ptxas does not count).
inline constexpr llvm::StringLiteral kKernelSharedBytesAttr =
    "respec.shared_bytes";

/// On loads and stores that replace an atomic operation on shared memory
/// (respec-localize-shared-atomics): correct only while the threads of a
/// block run one after the other, so passes that run threads side by side
/// (respec-vectorize-thread-loops) leave their thread loops alone.
inline constexpr llvm::StringLiteral kBlockSerialAttr = "respec.block_serial";

/// Prefix of launch function names.
inline constexpr llvm::StringLiteral kLaunchPrefix = "__respec_launch.";

/// On the device module (StringAttr): the PTX ISA version clang compiled
/// the device code for ("+ptx88", from the CUDA toolkit's version), kept
/// for the NVPTX back end, whose `.version` must be at least that: CUDA's
/// headers and users' inline assembly use instructions of that version.
inline constexpr llvm::StringLiteral kPTXVersionAttr = "respec.ptx_version";

/// NVPTX address spaces.
enum NVPTXAddressSpace : unsigned {
  kGeneric = 0,
  kGlobal = 1,
  kShared = 3,
  kConstant = 4,
  kLocal = 5,
};

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_ATTRIBUTES_H

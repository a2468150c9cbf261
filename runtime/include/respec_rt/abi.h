//===- abi.h - Contract between respec-compiled code and the runtime ------===//
//
// respec compiles every CUDA translation unit into one host object. Its device
// part (kernels lowered for the CPU) is described by one `respec_module`
// table. Clang's ordinary CUDA host code generation registers the translation
// unit with `__cudaRegisterFatBinary(&wrapper)`; respec points the wrapper's
// data field at the table instead of at a GPU fat binary, so the runtime finds
// each kernel's launch function by the device-side (mangled) kernel name that
// `__cudaRegisterFunction` passes, and each `__device__`/`__constant__`
// variable by the name `__cudaRegisterVar` passes.
//
// This header is plain C so that both the C++ runtime and the compiler (which
// emits the table as LLVM IR) agree on one layout.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RT_ABI_H
#define RESPEC_RT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// "RSPC" little endian: marks a fat-binary wrapper whose data is a
/// respec_module rather than an NVIDIA fat binary.
#define RESPEC_MODULE_MAGIC 0x43505352u
#define RESPEC_MODULE_VERSION 1u

/// Magic of clang's __cuda_fatbin_wrapper ({i32 magic, i32 version, ptr data,
/// ptr unused}); the same value NVIDIA's toolchain uses.
#define RESPEC_FATBIN_WRAPPER_MAGIC 0x466243b1u

/// Runs a whole grid of one kernel on the calling host thread's OpenMP team:
/// every block of (gridX, gridY, gridZ), each with (blockX, blockY, blockZ)
/// threads, with `dynamicSharedBytes` of `extern __shared__` memory per block.
/// `args[i]` points to the value of kernel parameter i (as cudaLaunchKernel's
/// `args`). The launch parameters are validated by the runtime beforehand.
typedef void (*respec_launch_fn)(uint32_t gridX, uint32_t gridY, uint32_t gridZ,
                                 uint32_t blockX, uint32_t blockY,
                                 uint32_t blockZ, uint64_t dynamicSharedBytes,
                                 void **args);

typedef struct respec_kernel_entry {
  const char *name;           ///< device-side (mangled) kernel name
  respec_launch_fn launch;    ///< runs the grid
  uint64_t staticSharedBytes; ///< bytes of static __shared__ per block
  uint32_t numParams;         ///< number of kernel parameters
  /// __launch_bounds__ thread count (0: none). Objects of respec 0.8.0 and
  /// before have 0 here (the field was reserved).
  uint16_t maxThreadsPerBlock;
  /// RESPEC_KERNEL_* bits. Until 0.25.0 this and maxThreadsPerBlock were one
  /// 32-bit count of at most 1024, whose high half reads as no flags.
  uint16_t flags;
  const uint32_t *paramSizes; ///< size in bytes of each parameter's value
} respec_kernel_entry;

/// The kernel synchronizes its whole grid (cooperative groups'
/// `this_grid().sync()`): its blocks must all run at once, so it must be
/// launched with cudaLaunchCooperativeKernel, and the CPU runs each of its
/// blocks on a thread of its own.
#define RESPEC_KERNEL_SYNCS_GRID 1u

typedef struct respec_var_entry {
  const char *name; ///< device-side (mangled) variable name
  void *address;    ///< the device copy's storage
  uint64_t size;    ///< bytes
} respec_var_entry;

typedef struct respec_module {
  uint32_t magic;   ///< RESPEC_MODULE_MAGIC
  uint32_t version; ///< RESPEC_MODULE_VERSION
  uint32_t numKernels;
  uint32_t numVars;
  const respec_kernel_entry *kernels;
  const respec_var_entry *vars;
} respec_module;

//===----------------------------------------------------------------------===//
// Programs built for NVIDIA GPUs (--target=nvptx)
//
// The fat-binary wrapper's data points at a respec_gpu_module instead of a
// respec_module. Its `module` is an ordinary respec_module whose kernel
// entries' `launch` functions run on the host: they compute the launch
// geometry (coarsening may change it) and the kernel's parameters, and call
// __respec_cuda_launch once per GPU kernel they need (an epilogue launch
// after a block-coarsened one, for instance). Its variable entries give each
// __device__/__constant__ variable's name and size; their `address` is not
// used (the device copy lives in the loaded GPU module). Such programs link
// librespec_cudart_gpu.a, which implements the CUDA runtime API with the CUDA
// driver API (libcuda.so.1, loaded at run time).
//===----------------------------------------------------------------------===//

/// "RSPG" little endian.
#define RESPEC_GPU_MODULE_MAGIC 0x47505352u
#define RESPEC_GPU_MODULE_VERSION 1u

/// What `image` of a respec_gpu_module holds.
#define RESPEC_GPU_IMAGE_PTX 0u

typedef struct respec_gpu_module {
  uint32_t magic;      ///< RESPEC_GPU_MODULE_MAGIC
  uint32_t version;    ///< RESPEC_GPU_MODULE_VERSION
  uint32_t imageKind;  ///< RESPEC_GPU_IMAGE_PTX
  uint32_t reserved;   ///< zero
  const respec_module *module;
  const char *image;   ///< PTX text, NUL-terminated
  uint64_t imageSize;  ///< bytes of `image`, the NUL included
  const char *gpuArch; ///< the architecture it was built for, e.g. "sm_80"
  /// The PTX assembled by ptxas for `gpuArch` (an ELF cubin), or null when
  /// the toolkit had no ptxas. The runtime loads it on a GPU of that
  /// architecture and JIT-compiles the PTX on any other, as with nvcc's
  /// fat binaries.
  const void *cubin;
  uint64_t cubinSize;
} respec_gpu_module;

/// Called by the host-side launch functions of a respec_gpu_module, only
/// while the runtime runs one of them for a cudaLaunchKernel (or a <<<>>>
/// launch): launches the GPU kernel `kernel` (its PTX entry name) of the
/// module of the kernel being launched, on the launch's stream, with grid
/// (gridX, gridY, gridZ), blocks of (blockX, blockY, blockZ) threads,
/// `sharedBytes` of dynamic shared memory, and `params[i]` pointing at the
/// value of parameter i (as cuLaunchKernel's kernelParams). Errors are
/// recorded as the launch's result (cudaGetLastError).
void __respec_cuda_launch(const char *kernel, uint32_t gridX, uint32_t gridY,
                          uint32_t gridZ, uint32_t blockX, uint32_t blockY,
                          uint32_t blockZ, uint64_t sharedBytes,
                          void **params);

//===----------------------------------------------------------------------===//
// OpenCL C programs
//
// An OpenCL C source has no host code of its own: its object registers its
// module from a constructor with __respec_cl_register_program, and the host
// API (respec/opencl.h) finds kernels by name. Each OpenCL kernel's launch
// function takes the kernel's parameters, where each `__local` pointer has
// become a 64-bit offset into the block's dynamic shared memory, followed
// by the hidden parameters (uint32 work_dim, uint64 global offset x, y, z).
//===----------------------------------------------------------------------===//

/// "RSCL" little endian.
#define RESPEC_CL_PROGRAM_MAGIC 0x4c435352u
#define RESPEC_CL_HIDDEN_PARAMS 4u

typedef struct respec_cl_kernel_info {
  const char *name;            ///< the kernel's name (OpenCL C: unmangled)
  uint32_t numParams;          ///< parameters in the source
  uint32_t reserved;           ///< zero
  const uint8_t *paramIsLocal; ///< 1 for each `__local` pointer parameter
} respec_cl_kernel_info;

typedef struct respec_cl_program {
  uint32_t magic;      ///< RESPEC_CL_PROGRAM_MAGIC
  uint32_t numKernels; ///< entries of `kernels`
  const respec_module *module;
  const respec_cl_kernel_info *kernels;
} respec_cl_program;

/// Called by the constructor of each OpenCL C object.
void __respec_cl_register_program(const respec_cl_program *program);

//===----------------------------------------------------------------------===//
// Runtime entry points called by generated device code.
//===----------------------------------------------------------------------===//

/// Returns storage of at least `bytes` bytes, 64-byte aligned, for the shared
/// memory of the block the calling host thread is about to run. The storage
/// belongs to the calling host thread and is reused by its next block.
void *__respec_shared_memory(uint64_t bytes);

/// Block-scope scratch storage for barrier lowering (per-thread values kept
/// across __syncthreads): `bytes` bytes, 64-byte aligned, valid until the
/// calling host thread's next __respec_block_scratch_reset, which generated
/// code calls at the start of every block.
void *__respec_block_scratch(uint64_t bytes);
void __respec_block_scratch_reset(void);

/// Nonzero if accesses through `a` and through `b` cannot meet: one points
/// into memory the runtime allocated (cudaMalloc, cudaMallocManaged,
/// cudaMallocHost, cudaHostAlloc) and the other anywhere outside that
/// allocation. Zero otherwise: both in one allocation, or both in host
/// memory of the program (registered with cudaHostRegister or not), which
/// may be one array. Generated code (respec-forward-shared-stores) tests
/// this once per launch.
int32_t __respec_distinct_allocations(const void *a, const void *b);

/// Device-side printf: `args` is the argument buffer clang builds for CUDA's
/// vprintf (each argument aligned to its size, float promoted to double).
int __respec_vprintf(const char *format, const char *args);

/// Device-side assert failure (CUDA's __assertfail).
void __respec_assertfail(const char *message, const char *file, uint32_t line,
                         const char *function, uint64_t charSize);

/// Device-side __trap() (PTX `trap`): CUDA aborts the kernel and reports an
/// unspecified launch failure; respec stops the process with a message.
void __respec_trap(void);

/// Kernels built with several versions (respec --tune): the index of the
/// version to run for this launch. `descriptions` holds the `count`
/// versions' names, one per line; `mode` 0 cycles through them (profiling),
/// 1 applies the geometry heuristic. The geometry is the launch's grid and
/// block sizes.
int32_t __respec_tune_select(const char *kernel, const char *descriptions,
                             int32_t count, int32_t mode, uint32_t gx,
                             uint32_t gy, uint32_t gz, uint32_t bx,
                             uint32_t by, uint32_t bz);

/// Profiling: starts timing the launches that follow and returns a token for
/// them; the record of one launch of version `index` whose timing `start`
/// started (written to the tuning database at exit). The time is the
/// device's: wall clock on the CPU, CUDA events on the launch's stream on a
/// GPU.
uint64_t __respec_tune_start(void);
void __respec_tune_record(const char *kernel, const char *descriptions,
                          int32_t index, uint32_t gx, uint32_t gy, uint32_t gz,
                          uint32_t bx, uint32_t by, uint32_t bz,
                          uint64_t start);

/// Texture and surface access (PTX tex, suld.b, sust.b). A texel's four
/// 32-bit result lanes: float bits for float results (float texels, or
/// integer texels read as normalized floats), sign- or zero-extended
/// integers otherwise; absent channels read 0, an absent alpha 1.
typedef uint32_t respec_texel __attribute__((vector_size(16)));

/// The start of every texture object; a texture handle is its address.
/// Generated code reads linear textures of 32-bit channels (tex1Dfetch of
/// float, int, float2, ...) through it without a call.
typedef struct respec_texture_header {
  uint32_t tag;
  /// Nonzero: `texels` texels of `channels` 32-bit channels at `data`, read
  /// as they are stored (linear memory, no normalized read).
  uint32_t linearWords;
  const char *data;
  uint64_t texels;
  uint32_t channels;
  /// The fourth result lane when there are fewer than 4 channels.
  uint32_t alpha;
  /// Nonzero: generated code samples float coordinates itself, 1 with
  /// point and 2 with linear filtering (single-channel 32-bit float texels,
  /// clamp or border addressing). The texel at integer position (i, j, k)
  /// of layer l is the float at data + l * slicePitch + k * slicePitch +
  /// j * rowPitch + 4 i (a layered texture has one slice per layer).
  uint32_t inlineSampling;
  uint32_t dims;       ///< addressed dimensions, layers aside
  uint32_t borderMask; ///< bit d: dimension d has the border address mode
  int32_t layers;      ///< 1 unless layered
  int32_t size[3];     ///< texels per dimension (1 past `dims`)
  /// Texels per coordinate unit: the size for normalized coordinates.
  float scale[3];
  float borderColor; ///< the border color's first channel
  uint64_t rowPitch;
  uint64_t slicePitch;
} respec_texture_header;

/// Which memory `pointer` points into, for device code's `__isGlobal`,
/// `__isShared`, `__isLocal` and `__isConstant`: the calling block's shared
/// memory, the calling thread's stack or block scratch (local), or else
/// global memory. `__constant__` variables count as global.
#define RESPEC_ADDRESS_SPACE_GLOBAL 1
#define RESPEC_ADDRESS_SPACE_SHARED 3
#define RESPEC_ADDRESS_SPACE_CONST 4
#define RESPEC_ADDRESS_SPACE_LOCAL 5
int32_t __respec_address_space(const void *pointer);

/// The "streaming multiprocessor" running the calling block (PTX %smid),
/// below __respec_nsmid(): the OpenMP thread's number modulo the cores.
uint32_t __respec_smid(void);
/// The number of "streaming multiprocessors" (%nsmid): the online cores,
/// as cudaDeviceProp::multiProcessorCount.
uint32_t __respec_nsmid(void);

/// Registers a `__managed__` variable, called by host code where clang's
/// registration calls __cudaRegisterVar (same arguments). The CPU back end
/// makes the variable's device copy and its host shadow one object.
void __respec_register_managed_var(void **handle, char *hostVar,
                                   char *deviceAddress, const char *deviceName,
                                   int ext, size_t size, int constant,
                                   int global);

/// The grid workspace of the cooperative launch running now (cooperative
/// groups read its address from %envreg1 and %envreg2 and keep their grid
/// barrier in it), or null outside cooperative launches.
void *__respec_grid_workspace(void);

/// Called after each load that acquires at GPU or system scope (a block
/// polling what another block writes): gives up the core while a
/// cooperative launch runs more blocks than there are cores.
void __respec_acquire_poll(void);

/// The header of `texture`, or a header that samples nothing inline where
/// `texture` is not a live texture object. Generated code may call it for
/// any handle, also where it samples nothing (LLVM may hoist the call).
const respec_texture_header *__respec_tex_header(uint64_t texture);

/// Samples `texture` at (x, y, z) of `layer`, with its filter and address
/// modes; coordinates past the texture's dimensions are ignored.
respec_texel __respec_tex_sample(uint64_t texture, float x, float y, float z,
                                 int32_t layer);
/// Reads the texel at integer coordinates (tex1Dfetch and PTX tex with
/// .s32 coordinates): no filtering; linear memory reads 0 out of range.
respec_texel __respec_tex_fetch(uint64_t texture, int32_t x, int32_t y,
                                int32_t z, int32_t layer);

/// Surface boundary modes (PTX .trap, .clamp, .zero).
#define RESPEC_SURFACE_TRAP 0
#define RESPEC_SURFACE_CLAMP 1
#define RESPEC_SURFACE_ZERO 2

/// Loads or stores the first `bytes` bytes (at most 16) of a texel lane
/// vector at `x` bytes into row y of slice z of `layer` of `surface`.
respec_texel __respec_surf_load(uint64_t surface, int32_t x, int32_t y,
                                int32_t z, int32_t layer, uint32_t bytes,
                                int32_t mode);
void __respec_surf_store(uint64_t surface, int32_t x, int32_t y, int32_t z,
                         int32_t layer, uint32_t bytes, int32_t mode,
                         respec_texel value);

/// clock64(), clock() and %globaltimer on the CPU.
uint64_t __respec_clock64(void);
uint64_t __respec_globaltimer_ns(void);

#ifdef __cplusplus
}
#endif

#endif // RESPEC_RT_ABI_H

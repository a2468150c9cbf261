//===- PerThreadStreamAliases.cpp - _ptds/_ptsz entry points --------------===//
//
// With CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread)
// CUDA's headers rename stream-ordered calls to name_ptds / name_ptsz. On the
// CPU device every stream, the per-thread default stream included, runs on
// one in-order queue, which satisfies the per-thread stream's (weaker)
// ordering rules, so each alias forwards to the ordinary entry point.
//
//===----------------------------------------------------------------------===//

// Each alias is a one-instruction trampoline that tail-jumps to its target
// with the arguments untouched (a C++ alias attribute would need the target
// in this translation unit).
#if defined(__x86_64__)
#define RESPEC_TAIL_JUMP(TARGET) "jmp " #TARGET "@PLT\n"
#elif defined(__aarch64__)
#define RESPEC_TAIL_JUMP(TARGET) "b " #TARGET "\n"
#else
#error "add a tail-jump instruction for this architecture"
#endif

#define RESPEC_ALIAS(ALIAS, TARGET)                                            \
  __asm__(".text\n.globl " #ALIAS "\n.type " #ALIAS ",@function\n"             \
          ".p2align 4\n" #ALIAS ":\n" RESPEC_TAIL_JUMP(TARGET) ".size " #ALIAS \
                                                               ", . - " #ALIAS \
                                                               "\n");

RESPEC_ALIAS(cudaMemcpy_ptds, cudaMemcpy)
RESPEC_ALIAS(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
RESPEC_ALIAS(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
RESPEC_ALIAS(cudaMemcpy2D_ptds, cudaMemcpy2D)
RESPEC_ALIAS(cudaMemcpy3D_ptds, cudaMemcpy3D)
RESPEC_ALIAS(cudaMemset_ptds, cudaMemset)
RESPEC_ALIAS(cudaMemset2D_ptds, cudaMemset2D)
RESPEC_ALIAS(cudaMemset3D_ptds, cudaMemset3D)
RESPEC_ALIAS(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
RESPEC_ALIAS(cudaMemcpyPeerAsync_ptsz, cudaMemcpyPeerAsync)
RESPEC_ALIAS(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute)
RESPEC_ALIAS(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute)
RESPEC_ALIAS(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync)
RESPEC_ALIAS(cudaStreamGetId_ptsz, cudaStreamGetId)
RESPEC_ALIAS(cudaStreamGetDevice_ptsz, cudaStreamGetDevice)
RESPEC_ALIAS(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
RESPEC_ALIAS(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
RESPEC_ALIAS(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync)
RESPEC_ALIAS(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync)
RESPEC_ALIAS(cudaMemsetAsync_ptsz, cudaMemsetAsync)
RESPEC_ALIAS(cudaMemset2DAsync_ptsz, cudaMemset2DAsync)
RESPEC_ALIAS(cudaMemset3DAsync_ptsz, cudaMemset3DAsync)
RESPEC_ALIAS(cudaStreamQuery_ptsz, cudaStreamQuery)
RESPEC_ALIAS(cudaStreamGetFlags_ptsz, cudaStreamGetFlags)
RESPEC_ALIAS(cudaStreamGetPriority_ptsz, cudaStreamGetPriority)
RESPEC_ALIAS(cudaEventRecord_ptsz, cudaEventRecord)
RESPEC_ALIAS(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
RESPEC_ALIAS(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
RESPEC_ALIAS(cudaStreamAddCallback_ptsz, cudaStreamAddCallback)
RESPEC_ALIAS(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
RESPEC_ALIAS(cudaLaunchKernel_ptsz, cudaLaunchKernel)
RESPEC_ALIAS(cudaLaunchKernelExC_ptsz, cudaLaunchKernelExC)
RESPEC_ALIAS(cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel)
RESPEC_ALIAS(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc)
RESPEC_ALIAS(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)
// CUDA 12.2+ headers name the location-taking variants _v2.
RESPEC_ALIAS(cudaMemPrefetchAsync_v2, cudaMemPrefetchAsync)
RESPEC_ALIAS(cudaMemPrefetchAsync_v2_ptsz, cudaMemPrefetchAsync)
RESPEC_ALIAS(cudaMemAdvise_v2, cudaMemAdvise)
RESPEC_ALIAS(cudaMallocAsync_ptsz, cudaMallocAsync)
RESPEC_ALIAS(cudaFreeAsync_ptsz, cudaFreeAsync)
RESPEC_ALIAS(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync)
RESPEC_ALIAS(cudaMemcpyToArray_ptds, cudaMemcpyToArray)
RESPEC_ALIAS(cudaMemcpy2DToArray_ptds, cudaMemcpy2DToArray)
RESPEC_ALIAS(cudaMemcpyFromArray_ptds, cudaMemcpyFromArray)
RESPEC_ALIAS(cudaMemcpy2DFromArray_ptds, cudaMemcpy2DFromArray)
RESPEC_ALIAS(cudaMemcpyArrayToArray_ptds, cudaMemcpyArrayToArray)
RESPEC_ALIAS(cudaMemcpy2DArrayToArray_ptds, cudaMemcpy2DArrayToArray)
RESPEC_ALIAS(cudaMemcpyToArrayAsync_ptsz, cudaMemcpyToArrayAsync)
RESPEC_ALIAS(cudaMemcpy2DToArrayAsync_ptsz, cudaMemcpy2DToArrayAsync)
RESPEC_ALIAS(cudaMemcpyFromArrayAsync_ptsz, cudaMemcpyFromArrayAsync)
RESPEC_ALIAS(cudaMemcpy2DFromArrayAsync_ptsz, cudaMemcpy2DFromArrayAsync)
RESPEC_ALIAS(cudaStreamBeginCapture_ptsz, cudaStreamBeginCapture)
RESPEC_ALIAS(cudaStreamEndCapture_ptsz, cudaStreamEndCapture)
RESPEC_ALIAS(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing)
RESPEC_ALIAS(cudaStreamGetCaptureInfo_ptsz, cudaStreamGetCaptureInfo)
RESPEC_ALIAS(cudaGraphLaunch_ptsz, cudaGraphLaunch)
RESPEC_ALIAS(cudaGraphUpload_ptsz, cudaGraphUpload)

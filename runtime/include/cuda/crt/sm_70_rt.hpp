//===- crt/sm_70_rt.hpp - placeholder for clang's CUDA intrinsics header --===//
//
// clang's __clang_cuda_intrinsics.h includes this CUDA toolkit file after its
// own __match*_sync builtins. The toolkit's version adds typed overloads of
// __match_any_sync/__match_all_sync; respec has no toolkit to take them from,
// and declares only what its compiler lowers, so this file is empty.
//
//===----------------------------------------------------------------------===//

// The alignment clang states for an access comes from the C++ type it goes
// through; a GPU checks only the access's own width. For the CPU, respec
// keeps only what a GPU checks: loads and stores at most their natural
// alignment (16 bytes at most), memory intrinsics 16 bytes, and no
// alignment facts on pointers (parameters, returns, loaded pointers).
// --target=nvptx keeps clang's claims.
// RUN: %respec --emit=llvm %s -o - | FileCheck %s
// RUN: %respec --target=nvptx --emit=llvm %s -o - | FileCheck %s --check-prefix=GPU

// An `__align__(32)` struct aliased onto 16-byte words, as CUB's temp
// storage is: its fields are 16-byte aligned, clang says 32.
struct __align__(32) Wide {
  int values[8];
};
struct Words {
  int4 words[5];
};

__device__ __noinline__ int sumWide(const Wide &wide) {
  int sum = 0;
  for (int i = 0; i < 8; ++i)
    sum += wide.values[i];
  return sum;
}

// The int4 store and loads go as i32 accesses: each 4-byte aligned.
// CHECK-LABEL: define {{.*}}@_Z9sumFieldsPi(
// CHECK-NOT: align {{8|16|32}}
// CHECK: load i32, ptr {{.*}}, align 4
// CHECK-NOT: align {{8|16|32}}
// CHECK: ret void
__global__ void sumFields(int *out) {
  __shared__ Words storage;
  if (threadIdx.x < 5)
    storage.words[threadIdx.x] = make_int4(threadIdx.x, 1, 2, 3);
  __syncthreads();
  const Wide &wide = *reinterpret_cast<const Wide *>(&storage.words[1]);
  int4 word = storage.words[threadIdx.x % 5];
  out[threadIdx.x] = wide.values[threadIdx.x % 8] + word.x + word.w;
}

// A struct copy states the struct's alignment; a GPU copies it in accesses
// of at most 16 bytes.
struct __align__(64) Big {
  float values[32];
};
// CHECK-LABEL: define {{.*}}@_Z7copyBigP3BigS0_(
// CHECK: call void @llvm.memcpy{{.*}}(ptr {{.*}}align 16 {{.*}}, ptr {{.*}}align 16 {{.*}}, i64 128
// GPU-LABEL: define {{.*}}@_Z7copyBigP3BigS0_(
// GPU: call void @llvm.memcpy{{.*}}(ptr {{.*}}align 64 {{.*}}, ptr {{.*}}align 64 {{.*}}, i64 128
__global__ void copyBig(Big *to, Big *from) {
  to[threadIdx.x] = from[threadIdx.x];
}

// Through the reference parameter of a function respec inlines (clang
// keeps it out of line): the field at
// byte 16 of the storage is said to be 32-byte aligned.
// CHECK-LABEL: define {{.*}}@_Z7callSumPi(
// CHECK: load i32, ptr getelementptr {{.*}}@_ZZ7callSumPiE7storage{{.*}}, i64 16), align 4
// GPU-LABEL: define {{.*}}@_Z7callSumPi(
// GPU: load i32, ptr getelementptr {{.*}}@_ZZ7callSumPiE7storage{{.*}}, i64 16), align 32
__global__ void callSum(int *out) {
  __shared__ Words storage;
  storage.words[threadIdx.x % 5] = make_int4(1, 2, 3, 4);
  __syncthreads();
  out[threadIdx.x] =
      sumWide(*reinterpret_cast<const Wide *>(&storage.words[1]));
}

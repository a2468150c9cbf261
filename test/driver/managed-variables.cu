// __managed__ variables. clang honours the `managed` attribute only for HIP,
// so respec's headers make `__managed__` a device variable with an
// annotation. For the CPU, the device copy (which holds the initializer)
// replaces the host's shadow, and clang's registration of the variable
// becomes the runtime's registration of a managed variable. For GPUs,
// managed variables are not supported yet: an error at each one's line.
// REQUIRES: cuda-toolkit
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec --keep -c %s -o %t.dir/managed.o
// RUN: FileCheck %s < %t.dir/managed-variables.cpu.ll
// RUN: %respec --cuda-path=/nonexistent --keep -c %s -o %t.dir/own.o
// RUN: FileCheck %s < %t.dir/managed-variables.cpu.ll
// RUN: not %respec --target=nvptx -c %s -o %t.dir/gpu.o 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not %respec --target=nvptx --emit=ptx %s -o %t.dir/gpu.ptx 2>&1 | FileCheck %s --check-prefix=GPU

// One object per variable, initialized as declared, no copy left over.
// CHECK-DAG: @counter = internal global i32 7
// CHECK-DAG: @_ZL6scales = internal global [4 x float] [float 1.000000e+00, float 2.000000e+00, float 0.000000e+00, float 0.000000e+00]
// CHECK-NOT: __respec_managed.
// CHECK-NOT: respec.managed
// An ordinary __device__ variable keeps its shadow and registration.
// CHECK-DAG: call void @__respec_register_managed_var(ptr %{{.*}}, ptr @counter,
// CHECK-DAG: call void @__respec_register_managed_var(ptr %{{.*}}, ptr @_ZL6scales,
// CHECK-DAG: call void @__cudaRegisterVar(ptr %{{.*}}, ptr @plain,

// GPU: managed-variables.cu:[[@LINE+2]]: error: __managed__ variable 'counter' is not supported for --target=nvptx yet (allocate it with cudaMallocManaged instead)
// GPU: managed-variables.cu:[[@LINE+2]]: error: __managed__ variable 'scales' is not supported for --target=nvptx yet
__managed__ int counter = 7;
static __managed__ float scales[4] = {1.0f, 2.0f};
__device__ int plain;

__global__ void bump(float x) {
  atomicAdd(&counter, 1);
  scales[threadIdx.x & 3] += x + plain;
}

int readCounter() { return counter + (int)scales[0]; }

// With --grid-schedule=auto (the default since 0.22.0) the blocks of a
// kernel run under a dynamic schedule where they may do different amounts
// of work (here: a row of a CSR matrix, whose length is loaded from
// memory), in runs of blocks sized from the team (about eight per thread),
// under a static one otherwise (the same loop for every block);
// --grid-schedule=X picks X for every kernel, and `dynamic` hands out one
// block at a time. respec builds the static and dynamic schedules itself
// (each thread's share from omp_get_thread_num/omp_get_num_threads; blocks
// taken from a counter with an atomic add), without libomp's worksharing
// calls; the guided schedule lowers to libomp's dispatch calls, and every
// schedule to libomp's worksharing calls with
// --disable-opt=inline-worksharing.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/auto %t.dir/default %t.dir/static %t.dir/dynamic %t.dir/guided
// RUN: %respec -O2 --keep --grid-schedule=auto -c %s -o %t.dir/auto/s.o
// RUN: FileCheck %s --check-prefix=AUTO < %t.dir/auto/grid-schedule.cpu.ll
// RUN: %respec -O2 --keep -c %s -o %t.dir/default/s.o
// RUN: FileCheck %s --check-prefix=AUTO < %t.dir/default/grid-schedule.cpu.ll
// RUN: %respec -O2 --keep --grid-schedule=static -c %s -o %t.dir/static/s.o
// RUN: FileCheck %s --check-prefix=STATIC < %t.dir/static/grid-schedule.cpu.ll
// RUN: %respec -O2 --keep --grid-schedule=dynamic -c %s -o %t.dir/dynamic/s.o
// RUN: FileCheck %s --check-prefix=DYNAMIC < %t.dir/dynamic/grid-schedule.cpu.ll
// RUN: %respec -O2 --keep --grid-schedule guided -c %s -o %t.dir/guided/s.o
// RUN: FileCheck %s --check-prefix=GUIDED < %t.dir/guided/grid-schedule.cpu.ll
// RUN: mkdir -p %t.dir/libomp && %respec -O2 --keep --disable-opt=inline-worksharing -c %s -o %t.dir/libomp/s.o
// RUN: FileCheck %s --check-prefix=LIBOMP < %t.dir/libomp/grid-schedule.cpu.ll
// RUN: not %respec --grid-schedule=fast -c %s -o %t.dir/bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// AUTO: define {{.*}}@__respec_launch._Z5scalePfPKfi..omp_par(
// AUTO-NOT: __kmpc_{{dispatch|for_static}}
// AUTO: call i32 @omp_get_thread_num()
// AUTO-NOT: __kmpc_{{dispatch|for_static}}
// AUTO: define {{.*}}@__respec_launch._Z7spmvRowPKiPKfS2_Pf..omp_par(
// AUTO-NOT: __kmpc_{{dispatch|for_static}}
// AUTO: call i32 @omp_get_num_threads()
// AUTO-NOT: __kmpc_{{dispatch|for_static}}
// AUTO: atomicrmw add ptr %{{.*}}, i64 %{{.*}} monotonic
// DYNAMIC: define {{.*}}@__respec_launch._Z5scalePfPKfi..omp_par(
// DYNAMIC: atomicrmw add ptr %{{.*}}, i64 1 monotonic
// DYNAMIC: define {{.*}}@__respec_launch._Z7spmvRowPKiPKfS2_Pf..omp_par(
// DYNAMIC: atomicrmw add ptr %{{.*}}, i64 1 monotonic
// STATIC-NOT: __kmpc_{{dispatch|for_static}}
// STATIC: call i32 @omp_get_thread_num()
// STATIC-NOT: __kmpc_{{dispatch|for_static}}
// STATIC-NOT: atomicrmw add ptr %{{.*}}, i64
// LIBOMP-COUNT-2: call void @__kmpc_for_static_init_8u(
// GUIDED-COUNT-2: call void @__kmpc_dispatch_init_8u(
// BAD: respec: error: --grid-schedule=fast is not auto, static, dynamic or guided

#include <cuda_runtime.h>

// One block per row of a CSR matrix: blocks differ in work.
__global__ void spmvRow(const int *rowStart, const float *values,
                        const float *x, float *y) {
  int row = blockIdx.x;
  float sum = 0.0f;
  for (int k = rowStart[row] + threadIdx.x; k < rowStart[row + 1];
       k += blockDim.x)
    sum += values[k] * x[k];
  atomicAdd(&y[row], sum);
}

// Every block scales `n` elements of its own slice: the same work.
__global__ void scale(float *out, const float *in, int n) {
  for (int k = 0; k < n; ++k) {
    int i = (blockIdx.x * n + k) * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
  }
}

// RUN: respec-opt --convert-scf-to-openmp --respec-schedule-grid-loops %s | FileCheck %s
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=guided" %s | FileCheck %s --check-prefix=GUIDED
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=dynamic" %s | FileCheck %s --check-prefix=DYNAMIC
// RUN: respec-opt --convert-scf-to-openmp --respec-schedule-grid-loops --finalize-memref-to-llvm --convert-scf-to-cf --convert-arith-to-llvm --convert-index-to-llvm --convert-cf-to-llvm --convert-openmp-to-llvm --reconcile-unrealized-casts %s | FileCheck %s --check-prefix=LLVM
// RUN: respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=inline-worksharing=false" %s | FileCheck %s --check-prefix=LIBOMP
// RUN: not respec-opt --convert-scf-to-openmp "--respec-schedule-grid-loops=schedule=fast" %s 2>&1 | FileCheck %s --check-prefix=BAD

// A function marked by respec-find-unbalanced-grids gets a dynamic
// schedule: the team takes runs of blocks from a counter that the starting
// thread zeroes before the region, each run total / (8 * threads) blocks
// long, at least one (with schedule=dynamic, one block at a time). The
// others get a static one:
// each thread runs one contiguous run of the blocks, of total / threads
// blocks, one more for the first total % threads threads. Neither is an
// omp.wsloop (libomp's worksharing calls format debug traces on every
// call); the guided schedule is.
// CHECK-LABEL: func.func @unbalanced(
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[COUNTER:.*]] = llvm.alloca %[[ONE]] x i64 {alignment = 64 : i64}
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.store %[[ZERO]], %[[COUNTER]] : i64, !llvm.ptr
// CHECK-NEXT: omp.parallel {
// CHECK-NOT: omp.wsloop
// CHECK: %[[TOTAL:.*]] = arith.ceildivui
// CHECK: %[[NTH:.*]] = llvm.call @omp_get_num_threads() : () -> i32
// CHECK: %[[N:.*]] = arith.index_castui %[[NTH]] : i32 to index
// CHECK: %[[CHUNKS:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[SHARE:.*]] = arith.divui %[[TOTAL]], %[[CHUNKS]] : index
// CHECK: %[[CHUNK:.*]] = arith.maxui %[[SHARE]], %{{.*}} : index
// CHECK: scf.while : () -> index {
// CHECK: %[[STEP:.*]] = arith.index_castui %[[CHUNK]] : index to i64
// CHECK: %[[TAKEN:.*]] = llvm.atomicrmw add %[[COUNTER]], %[[STEP]] monotonic : !llvm.ptr, i64
// CHECK: %[[NEXT:.*]] = arith.index_castui %[[TAKEN]] : i64 to index
// CHECK: %[[LEFT:.*]] = arith.cmpi ult, %[[NEXT]], %[[TOTAL]] : index
// CHECK: scf.condition(%[[LEFT]]) %[[NEXT]] : index
// CHECK: } do {
// CHECK: ^bb0(%[[FIRST:.*]]: index):
// CHECK: %[[PAST:.*]] = arith.addi %[[FIRST]], %[[CHUNK]] : index
// CHECK: %[[END:.*]] = arith.minui %[[PAST]], %[[TOTAL]] : index
// CHECK: scf.for %{{.*}} = %[[FIRST]] to %[[END]] step
// CHECK: llvm.intr.stacksave
// CHECK: llvm.load
// CHECK: omp.terminator
//
// CHECK-LABEL: func.func @balanced(
// CHECK: omp.parallel {
// CHECK-NOT: omp.wsloop
// CHECK: %[[TID:.*]] = llvm.call @omp_get_thread_num() : () -> i32
// CHECK: %[[T:.*]] = arith.index_castui %[[TID]] : i32 to index
// CHECK: %[[NTH:.*]] = llvm.call @omp_get_num_threads() : () -> i32
// CHECK: %[[N:.*]] = arith.index_castui %[[NTH]] : i32 to index
// CHECK: %[[Q:.*]] = arith.divui %[[TOTAL:.*]], %[[N]] : index
// CHECK: %[[R:.*]] = arith.remui %[[TOTAL]], %[[N]] : index
// CHECK: %[[TQ:.*]] = arith.muli %[[T]], %[[Q]] : index
// CHECK: %[[MIN:.*]] = arith.minui %[[T]], %[[R]] : index
// CHECK: %[[LO:.*]] = arith.addi %[[TQ]], %[[MIN]] : index
// CHECK: %[[EXTRA:.*]] = arith.cmpi ult, %[[T]], %[[R]] : index
// CHECK: %[[E:.*]] = arith.index_castui %[[EXTRA]] : i1 to index
// CHECK: %[[LEN:.*]] = arith.addi %[[Q]], %[[E]] : index
// CHECK: %[[HI:.*]] = arith.addi %[[LO]], %[[LEN]] : index
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %{{.*}} {
// CHECK: llvm.intr.stacksave
// CHECK: omp.terminator
//
// Three dimensions, the last varying fastest; bounds other than (0, 1):
// iteration l is (l / (t1 * t2), l / t2 % t1, l % t2) scaled by the steps.
// CHECK-LABEL: func.func @three_dimensions(
// CHECK: %[[T0:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK: %[[T1:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK: %[[T2:.*]] = arith.ceildivui %{{.*}}, %[[C3:.*]] : index
// CHECK: %[[T01:.*]] = arith.muli %[[T0]], %[[T1]] : index
// CHECK: %[[ALL:.*]] = arith.muli %[[T01]], %[[T2]] : index
// CHECK: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[I2:.*]] = arith.remui %[[L]], %[[T2]] : index
// CHECK-NEXT: %[[L1:.*]] = arith.divui %[[L]], %[[T2]] : index
// CHECK-NEXT: %[[S2:.*]] = arith.muli %[[I2]], %[[C3]] : index
// CHECK-NEXT: %[[Z:.*]] = arith.addi %[[C2:.*]], %[[S2]] : index
// CHECK-NEXT: %[[I1:.*]] = arith.remui %[[L1]], %[[T1]] : index
// CHECK-NEXT: %[[L0:.*]] = arith.divui %[[L1]], %[[T1]] : index
// CHECK-NEXT: %[[S1:.*]] = arith.muli %[[I1]], %{{.*}} : index
// CHECK-NEXT: %[[Y:.*]] = arith.addi %{{.*}}, %[[S1]] : index
// CHECK-NEXT: %[[S0:.*]] = arith.muli %[[L0]], %{{.*}} : index
// CHECK-NEXT: %[[X:.*]] = arith.addi %{{.*}}, %[[S0]] : index
// CHECK-NEXT: llvm.intr.stacksave
// CHECK-NEXT: arith.index_cast %[[X]]
// CHECK-NEXT: arith.index_cast %[[Y]]
// CHECK-NEXT: arith.index_cast %[[Z]]
//
// A grid loop with a reduction keeps libomp's worksharing loop.
// CHECK-LABEL: func.func @reduction(
// CHECK: omp.wsloop schedule(static) reduction(
//
// GUIDED-COUNT-2: omp.wsloop schedule(guided)
// DYNAMIC-NOT: omp_get_num_threads
// DYNAMIC: %[[STEP:.*]] = arith.index_castui %c1{{[_0-9]*}} : index to i64
// DYNAMIC: llvm.atomicrmw add %{{.*}}, %[[STEP]] monotonic
// DYNAMIC-COUNT-2: llvm.atomicrmw add
// DYNAMIC: omp.wsloop schedule(dynamic) reduction(
// With inline-worksharing=false every grid loop stays libomp's.
// LIBOMP: omp.wsloop schedule(dynamic)
// LIBOMP: omp.wsloop schedule(static)
// LIBOMP: omp.wsloop schedule(static)
// LIBOMP: omp.wsloop schedule(static) reduction(
// LIBOMP-NOT: omp_get_thread_num
// LLVM-NOT: omp.wsloop
// LLVM-DAG: llvm.func @omp_get_thread_num() -> i32
// LLVM-DAG: llvm.func @omp_get_num_threads() -> i32
// LLVM-DAG: llvm.intr.stacksave
// LLVM-DAG: llvm.intr.stackrestore
// BAD: unknown grid schedule 'fast' (expected auto, static, dynamic or guided)
func.func @unbalanced(%grid: index, %p: !llvm.ptr)
    attributes {respec.unbalanced_blocks} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %i = arith.index_cast %b : index to i64
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.store %v, %q : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @balanced(%grid: index, %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%grid) step (%c1) {
    %i = arith.index_cast %b : index to i64
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.store %v, %q : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @three_dimensions(%gx: index, %gy: index, %gz: index,
                            %p: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%x, %y, %z) = (%c0, %c1, %c2) to (%gx, %gy, %gz)
      step (%c1, %c2, %c3) {
    %xi = arith.index_cast %x : index to i64
    %yi = arith.index_cast %y : index to i64
    %zi = arith.index_cast %z : index to i64
    %xy = llvm.add %xi, %yi : i64
    %xyz = llvm.add %xy, %zi : i64
    %q = llvm.getelementptr %p[%xyz] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.store %v, %q : f32, !llvm.ptr
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

func.func @reduction(%grid: index, %p: !llvm.ptr) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%b) = (%c0) to (%grid) step (%c1) init (%zero) -> f32 {
    %i = arith.index_cast %b : index to i64
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  } {respec.parallel_level = "grid"}
  return %sum : f32
}

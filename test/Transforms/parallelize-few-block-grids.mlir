// RUN: %respec-opt --respec-parallelize-few-block-grids -split-input-file %s | FileCheck %s
// RUN: %respec-opt --respec-parallelize-few-block-grids=min-block-threads=512 -split-input-file %s | FileCheck %s --check-prefix=MIN
// RUN: %respec-opt --respec-parallelize-few-block-grids --respec-serialize-thread-loops --convert-scf-to-openmp -split-input-file %s | FileCheck %s --check-prefix=OMP
// RUN: %respec-opt --respec-parallelize-few-block-grids=barrier-grids=false -split-input-file %s | FileCheck %s --check-prefix=NOBAR

// Independent threads, a vectorized main loop (16 lanes) and its remainder
// loop, per-thread scratch storage at block level. With at most half as
// many blocks as OpenMP threads and at least 128 threads along x, the grid
// runs sliced: a second grid dimension is the slice, min(cores / blocks,
// ceil(width / 64)) slices (width: the x extent of the first thread loop) of a multiple of 64 threads each, and each thread
// loop runs the threads of its slice (the last slice all threads above).
// Otherwise the original grid loop runs.
// CHECK-LABEL: llvm.func @__respec_launch.sliced(
// CHECK-SAME: %[[GX32:[^:]*]]: i32, %[[BX32:[^:]*]]: i32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[GX:.*]] = arith.index_castui %[[GX32]]
// CHECK-DAG: %[[BX:.*]] = arith.index_castui %[[BX32]]
// CHECK-DAG: %[[REM:.*]] = arith.remui %[[BX]], %[[C16]]
// CHECK-DAG: %[[MAIN:.*]] = arith.subi %[[BX]], %[[REM]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[BLOCKS:.*]] = arith.muli %{{.*}}, %[[GX]] : index
// CHECK: %[[CORES32:.*]] = llvm.call @omp_get_max_threads() : () -> i32
// CHECK: %[[CORES:.*]] = arith.index_cast %[[CORES32]] : i32 to index
// CHECK: %[[TWICE:.*]] = arith.muli %[[BLOCKS]], %{{.*}} : index
// CHECK: %[[FEW:.*]] = arith.cmpi sle, %[[TWICE]], %[[CORES]] : index
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[WIDE:.*]] = arith.cmpi uge, %[[MAIN]], %[[C128]] : index
// CHECK: %[[SLICED:.*]] = arith.andi %[[FEW]], %[[WIDE]] : i1
// CHECK: %[[NONZERO:.*]] = arith.maxui %[[BLOCKS]], %[[ONE]] : index
// CHECK: %[[SHARE:.*]] = arith.divui %[[CORES]], %[[NONZERO]] : index
// CHECK: %[[PER:.*]] = arith.maxui %[[SHARE]], %[[ONE]] : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[GRANULES:.*]] = arith.ceildivui %[[MAIN]], %[[C64]] : index
// CHECK: %[[FEWEST:.*]] = arith.minui %[[PER]], %[[GRANULES]] : index
// CHECK: %[[TARGET:.*]] = arith.maxui %[[FEWEST]], %[[ONE]] : index
// CHECK: %[[SPREAD:.*]] = arith.ceildivui %[[MAIN]], %[[TARGET]] : index
// CHECK: %[[ROUNDED:.*]] = arith.ceildivui %[[SPREAD]], %{{.*}} : index
// CHECK: %[[ROUNDUP:.*]] = arith.muli %[[ROUNDED]], %{{.*}} : index
// CHECK: %[[WIDTH:.*]] = arith.maxui %[[ROUNDUP]], %{{.*}} : index
// CHECK: %[[NEEDED:.*]] = arith.ceildivui %[[MAIN]], %[[WIDTH]] : index
// CHECK: %[[SLICES:.*]] = arith.maxui %[[NEEDED]], %[[ONE]] : index
// CHECK: scf.if %[[SLICED]] {
// CHECK: scf.parallel (%[[B:.*]], %[[S:.*]]) = (%[[C0]], %{{.*}}) to (%[[GX]], %[[SLICES]]) step (%[[C1]], %{{.*}}) {
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[S]], %[[WIDTH]] : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[FIRST]], %[[WIDTH]] : index
// CHECK-NEXT: %[[LASTINDEX:.*]] = arith.subi %[[SLICES]], %{{.*}} : index
// CHECK-NEXT: %[[ISLAST:.*]] = arith.cmpi eq, %[[S]], %[[LASTINDEX]] : index
// CHECK-NEXT: llvm.call @__respec_block_scratch
// CHECK-NEXT: %[[LO:.*]] = arith.maxui %[[C0]], %[[FIRST]] : index
// CHECK-NEXT: %[[CUT:.*]] = arith.minui %[[MAIN]], %[[END]] : index
// CHECK-NEXT: %[[HI:.*]] = arith.select %[[ISLAST]], %[[MAIN]], %[[CUT]] : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[LO]]) to (%[[HI]]) step (%[[C16]]) {
// CHECK: } {respec.parallel_level = "block"}
// CHECK-NEXT: %[[LO2:.*]] = arith.maxui %[[MAIN]], %[[FIRST]] : index
// CHECK-NEXT: %[[CUT2:.*]] = arith.minui %[[BX]], %[[END]] : index
// CHECK-NEXT: %[[HI2:.*]] = arith.select %[[ISLAST]], %[[BX]], %[[CUT2]] : index
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[LO2]]) to (%[[HI2]]) step (%[[C1]]) {
// CHECK: } {respec.parallel_level = "block"}
// CHECK: } {respec.independent_threads, respec.parallel_level = "grid"}
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%[[C0]]) to (%[[GX]]) step (%[[C1]]) {
// CHECK: } {respec.independent_threads, respec.parallel_level = "grid"}
// CHECK-NEXT: }
// CHECK-NEXT: llvm.return
// CHECK: llvm.func @omp_get_max_threads() -> i32

// MIN-LABEL: llvm.func @__respec_launch.sliced(
// MIN: %[[C512:.*]] = arith.constant 512 : index
// MIN: arith.cmpi uge, %{{.*}}, %[[C512]] : index

// After the OpenMP lowering the sliced grid is one worksharing loop over
// blocks and slices, and the thread loops are serial loops over the slice.
// OMP-LABEL: llvm.func @__respec_launch.sliced(
// OMP: scf.if
// OMP: omp.parallel
// OMP: omp.wsloop
// OMP-NEXT: omp.loop_nest (%{{.*}}, %{{.*}}) : index =
// OMP: scf.for
// OMP: scf.for
// OMP: } else {
// OMP: omp.parallel
// OMP: omp.wsloop
// OMP-NEXT: omp.loop_nest (%{{.*}}) : index =
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_launch.sliced(%gx32: i32, %bx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %rem = arith.remui %bx, %c16 : index
  %main = arith.subi %bx, %rem : index
  %bytes = llvm.mlir.constant(4096 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %scratch = llvm.call @__respec_block_scratch(%bytes) {respec.thread_private} : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%main) step (%c16) {
      %xi = arith.index_castui %x : index to i64
      %slot = llvm.getelementptr %scratch[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %slot : !llvm.ptr -> vector<16xf32>
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : vector<16xf32>, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.parallel (%x) = (%main) to (%bx) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = arith.uitofp %xi : i64 to f32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Grids whose threads may synchronize (not marked by
// respec-find-independent-threads) are left alone.
// CHECK-LABEL: llvm.func @__respec_launch.not_independent(
// CHECK-NOT: omp_get_max_threads
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_launch.not_independent(%gx32: i32, %bx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = arith.uitofp %xi : i64 to f32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Shared memory comes from the running core's arena (slices would each
// get their own), directly or through a called function; plain loads and
// stores that replace a shared atomic rely on one thread at a time; a
// block-level store to global memory would run once per slice. None of
// these grids is sliced.
// CHECK-LABEL: llvm.func @__respec_launch.shared_memory(
// CHECK-NOT: scf.if
// CHECK-LABEL: llvm.func @__respec_launch.shared_memory_in_call(
// CHECK-NOT: scf.if
// CHECK-LABEL: llvm.func @__respec_launch.block_serial(
// CHECK-NOT: scf.if
// CHECK-LABEL: llvm.func @__respec_launch.block_level_store(
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
llvm.func @__respec_launch.shared_memory(%gx32: i32, %bx32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %bytes = llvm.mlir.constant(4096 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %one = llvm.mlir.constant(1 : i32) : i32
      %old = llvm.atomicrmw add %shared, %one monotonic : !llvm.ptr, i32
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @count(%x: i64) {
  %bytes = llvm.mlir.constant(64 : i64) : i64
  %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
  %one = llvm.mlir.constant(1 : i32) : i32
  %old = llvm.atomicrmw add %shared, %one monotonic : !llvm.ptr, i32
  llvm.return
}
llvm.func @__respec_launch.shared_memory_in_call(%gx32: i32, %bx32: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      llvm.call @count(%xi) : (i64) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @__respec_launch.block_serial(%gx32: i32, %bx32: i32, %counter: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      %one = llvm.mlir.constant(1 : i32) : i32
      %old = llvm.load %counter {respec.block_serial} : !llvm.ptr -> i32
      %new = llvm.add %old, %one : i32
      llvm.store %new, %counter {respec.block_serial} : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @__respec_launch.block_level_store(%gx32: i32, %bx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %bi = arith.index_castui %b : index to i64
    %flag = llvm.getelementptr %out[%bi] : (!llvm.ptr, i64) -> !llvm.ptr, i64
    %old = llvm.load %flag : !llvm.ptr -> i64
    %one = llvm.mlir.constant(1 : i64) : i64
    %new = llvm.add %old, %one : i64
    llvm.store %new, %flag : i64, !llvm.ptr
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A thread loop whose step does not divide the 64-thread slices would start
// a slice between two of its iterations: left alone.
// CHECK-LABEL: llvm.func @__respec_launch.odd_step(
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_launch.odd_step(%gx32: i32, %bx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%bx) step (%c3) {
      %xi = arith.index_castui %x : index to i64
      %v = arith.uitofp %xi : i64 to f32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Thread loops nested in one another (fused block rows): restricting both
// to a slice would cut the outer loop's dimension too. Left alone.
// CHECK-LABEL: llvm.func @__respec_launch.nested(
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_launch.nested(%gx32: i32, %bx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%y) = (%c0) to (%c4) step (%c1) {
      scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
        %xi = arith.index_castui %x : index to i64
        %v = arith.uitofp %xi : i64 to f32
        %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %dst : f32, !llvm.ptr
        scf.reduce
      } {respec.parallel_level = "block"}
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Block storage that carries values between threads: a flag per thread
// that thread 0 combines (barrier lowering's reduction for a loop some
// threads leave early), and a block-level read of thread 0's per-thread
// copy (a value all threads computed alike). A slice without thread 0
// would read what no thread of it wrote. Neither grid is sliced.
// CHECK-LABEL: llvm.func @__respec_launch.combined_flags(
// CHECK-NOT: scf.if
// CHECK-LABEL: llvm.func @__respec_launch.thread0_copy(
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_launch.combined_flags(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %flags = llvm.call @__respec_block_scratch(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %flag = arith.trunci %xi : i64 to i32
      %slot = llvm.getelementptr %flags[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %flag, %slot : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.parallel (%x) = (%c0) to (%c1) step (%c1) {
      %any = scf.for %k = %c0 to %c256 step %c1 iter_args(%acc = %c0) -> (index) {
        %ki = arith.index_castui %k : index to i64
        %slot = llvm.getelementptr %flags[%ki] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %v = llvm.load %slot : !llvm.ptr -> i32
        %vi = arith.index_castui %v : i32 to index
        %next = arith.ori %acc, %vi : index
        scf.yield %next : index
      }
      %anyi = arith.index_castui %any : index to i64
      llvm.store %anyi, %out : i64, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}
llvm.func @__respec_launch.thread0_copy(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %copies = llvm.call @__respec_block_scratch(%bytes) {respec.thread_private} : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = llvm.load %out : !llvm.ptr -> f32
      %slot = llvm.getelementptr %copies[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    %first = llvm.load %copies : !llvm.ptr -> f32
    %limit = arith.fptoui %first : f32 to i64
    %n = arith.index_castui %limit : i64 to index
    scf.for %k = %c0 to %n step %c1 {
      scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
        %xi = arith.index_castui %x : index to i64
        %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %w = llvm.load %dst : !llvm.ptr -> f32
        %y = llvm.fadd %w, %w : f32
        llvm.store %y, %dst : f32, !llvm.ptr
        scf.reduce
      } {respec.parallel_level = "block"}
    }
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Thread 0's entry of a value all threads computed alike, read at block
// level (barrier lowering marks the load): each slice reads the entry of
// its own first thread, (0, 0, first), whose linear index is first.
// CHECK-LABEL: llvm.func @__respec_launch.thread0_entry(
// CHECK: scf.if
// CHECK: scf.parallel (%{{.*}}, %[[S:.*]]) =
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[S]], %{{.*}} : index
// CHECK: %[[COPIES:.*]] = llvm.call @__respec_block_scratch(%{{.*}}) {respec.thread_private}
// CHECK: } {respec.parallel_level = "block"}
// CHECK: %[[INDEX:.*]] = arith.index_castui %[[FIRST]] : index to i64
// CHECK-NEXT: %[[ENTRY:.*]] = llvm.getelementptr %[[COPIES]][%[[INDEX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.load %[[ENTRY]] {respec.thread_zero_entry} : !llvm.ptr -> f32
// CHECK: } else {
// CHECK: llvm.load %{{.*}} {respec.thread_zero_entry} : !llvm.ptr -> f32
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_launch.thread0_entry(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %copies = llvm.call @__respec_block_scratch(%bytes) {respec.thread_private} : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = llvm.load %out : !llvm.ptr -> f32
      %slot = llvm.getelementptr %copies[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    %zero = arith.constant 0 : index
    %zero64 = arith.index_castui %zero : index to i64
    %entry0 = llvm.getelementptr %copies[%zero64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %first = llvm.load %entry0 {respec.thread_zero_entry} : !llvm.ptr -> f32
    %limit = arith.fptoui %first : f32 to i64
    %n = arith.index_castui %limit : i64 to index
    scf.for %k = %c0 to %n step %c1 {
      scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
        %xi = arith.index_castui %x : index to i64
        %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %w = llvm.load %dst : !llvm.ptr -> f32
        %y = llvm.fadd %w, %w : f32
        llvm.store %y, %dst : f32, !llvm.ptr
        scf.reduce
      } {respec.parallel_level = "block"}
    }
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A block-level read of thread 0's copy whose result nothing uses (what the
// interchange of a uniform loop leaves of the loop's prologue, evaluated as
// thread 0 would) is erased, with the arithmetic on it, and the grid is
// sliced.
// CHECK-LABEL: llvm.func @__respec_launch.dead_thread0_read(
// CHECK: scf.if
// CHECK-NOT: llvm.fmul
// CHECK: } else {
// CHECK-NOT: llvm.fmul
// CHECK: llvm.return
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_launch.dead_thread0_read(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %copies = llvm.call @__respec_block_scratch(%bytes) {respec.thread_private} : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = llvm.load %out : !llvm.ptr -> f32
      %slot = llvm.getelementptr %copies[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    %first = llvm.load %copies : !llvm.ptr -> f32
    %unused = llvm.fmul %first, %first : f32
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %slot = llvm.getelementptr %copies[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.load %slot : !llvm.ptr -> f32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Threads synchronized only by barriers (respec.barrier_synchronized_threads)
// with work between barriers (here a loop of %m steps in a thread loop)
// run as slices too, when the runtime says the team runs that many threads
// at once (__respec_slice_team_size). The launching thread sets up one
// group per block (__respec_slice_groups_begin: blocks, slices, shared
// bytes, and the block's per-thread storage, here 4 bytes per thread,
// rounded up to 64). In the block, the runtime's shared memory and the
// per-thread scratch array become the group's, and the barrier mark
// becomes a barrier of the slices, once the runtime says the team runs all
// the slices at once (__respec_slice_team_ready). The vector loop starting
// at a run-time %m is cut at its own iterations nearest the slice bounds;
// the barrier before it would repeat the mark's and the one after it ends
// the block: neither is kept. The version for other launches keeps the
// grid as it was, without the mark, and the mark's declaration goes.
// CHECK-LABEL: llvm.func @__respec_launch.synchronized(
// CHECK-SAME: %[[GX32:[^:]*]]: i32, %[[BX32:[^:]*]]: i32, %[[M32:[^:]*]]: i32
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[BX:.*]] = arith.index_castui %[[BX32]]
// CHECK-DAG: %[[M:.*]] = arith.index_castui %[[M32]]
// CHECK-DAG: %[[SHAREDBYTES:.*]] = llvm.mlir.constant(4096 : i64)
// CHECK: llvm.call @__respec_slice_team_size() : () -> i32
// CHECK: scf.if
// CHECK: %[[PERTHREAD:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK: %[[PERTHREAD64:.*]] = arith.index_castui %[[PERTHREAD]] : index to i64
// CHECK: %[[LINES:.*]] = arith.ceildivui %[[PERTHREAD64]], %[[C64:.*]] : i64
// CHECK: %[[ROUNDED:.*]] = arith.muli %[[LINES]], %[[C64]] : i64
// CHECK: %[[PRIVATEBYTES:.*]] = arith.addi %{{.*}}, %[[ROUNDED]] : i64
// CHECK: %[[GROUPS:.*]] = llvm.call @__respec_slice_groups_begin(%{{.*}}, %{{.*}}, %[[SHAREDBYTES]], %[[PRIVATEBYTES]])
// CHECK: scf.parallel (%[[B:.*]], %[[S:.*]]) =
// CHECK: %[[GROUP:.*]] = arith.index_castui %[[B]] : index to i64
// CHECK: %[[READY:.*]] = llvm.call @__respec_slice_team_ready(%[[GROUPS]])
// CHECK: %[[ISREADY:.*]] = arith.cmpi ne, %[[READY]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[ISREADY]] {
// CHECK-NEXT: %[[SHARED:.*]] = llvm.call @__respec_slice_group_shared(%[[GROUPS]], %[[GROUP]])
// CHECK: %[[PRIVATE:.*]] = llvm.call @__respec_slice_group_private(%[[GROUPS]], %[[GROUP]])
// CHECK: %[[ARRAY:.*]] = llvm.getelementptr %[[PRIVATE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NOT: __respec_block_scratch
// CHECK: scf.parallel
// CHECK: llvm.getelementptr %[[SHARED]]
// CHECK: llvm.getelementptr %[[ARRAY]]
// CHECK: {respec.parallel_level = "block"}
// CHECK-NEXT: llvm.call @__respec_slice_barrier(%[[GROUPS]], %[[GROUP]])
// CHECK-NEXT: %[[FROM:.*]] = arith.maxui %{{.*}}, %[[M]] : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[FROM]], %[[M]] : index
// CHECK-NEXT: %[[STEPS:.*]] = arith.ceildivui %[[SPAN]], %[[C16]] : index
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[STEPS]], %[[C16]] : index
// CHECK-NEXT: %[[LO:.*]] = arith.addi %[[M]], %[[OFFSET]] : index
// CHECK: %[[HI:.*]] = arith.select
// CHECK-NOT: __respec_slice_barrier
// CHECK: scf.parallel (%{{.*}}) = (%[[LO]]) to (%[[HI]]) step (%[[C16]])
// CHECK: {respec.parallel_level = "block"}
// A team smaller than the slices need (OpenMP may give fewer threads than
// asked): the first slice of each block runs the block as it was.
// CHECK-NEXT: } else {
// CHECK: %[[ISFIRST:.*]] = arith.cmpi eq, %[[S]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[ISFIRST]] {
// CHECK-NEXT: llvm.call @__respec_shared_memory(%[[SHAREDBYTES]])
// CHECK-NOT: __respec_slice
// CHECK: llvm.call @__respec_block_scratch
// CHECK-NOT: __respec_slice
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[BX]]) step (%{{.*}})
// CHECK-NOT: __respec_slice
// CHECK: scf.parallel (%{{.*}}) = (%[[M]]) to (%[[BX]]) step (%[[C16]])
// CHECK: } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
// CHECK-NEXT: } else {
// CHECK-NOT: __respec_barrier_point
// CHECK: llvm.call @__respec_shared_memory
// CHECK: llvm.call @__respec_block_scratch
// CHECK: } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
// CHECK-NOT: __respec_barrier_point
// CHECK: llvm.return
// CHECK-NOT: __respec_barrier_point

// Without barrier-grids the grid is left as it was, less the mark.
// NOBAR-LABEL: llvm.func @__respec_launch.synchronized(
// NOBAR-NOT: __respec_slice
// NOBAR-NOT: __respec_barrier_point
// NOBAR: llvm.return
llvm.func @__respec_block_scratch(i64) -> !llvm.ptr
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
llvm.func @__respec_barrier_point()
llvm.func @__respec_launch.synchronized(%gx32: i32, %bx32: i32, %m32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %m = arith.index_castui %m32 : i32 to index
  %shared_bytes = llvm.mlir.constant(4096 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%shared_bytes) : (i64) -> !llvm.ptr
    %c4 = arith.constant 4 : index
    %bytes_index = arith.muli %bx, %c4 : index
    %bytes = arith.index_castui %bytes_index : index to i64
    %private = llvm.call @__respec_block_scratch(%bytes) {respec.thread_private} : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%bx) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v0 = arith.uitofp %xi : i64 to f32
      %v = scf.for %r = %c0 to %m step %c1 iter_args(%acc = %v0) -> (f32) {
        %twice = llvm.fadd %acc, %acc : f32
        scf.yield %twice : f32
      }
      %slot = llvm.getelementptr %shared[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      %mine = llvm.getelementptr %private[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    llvm.call @__respec_barrier_point() : () -> ()
    scf.parallel (%x) = (%m) to (%bx) step (%c16) {
      %xi = arith.index_castui %x : index to i64
      %mine = llvm.getelementptr %private[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %mine : !llvm.ptr -> vector<16xf32>
      %slot = llvm.getelementptr %shared[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %w = llvm.load %slot : !llvm.ptr -> vector<16xf32>
      %s = llvm.fadd %v, %w : vector<16xf32>
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %s, %dst : vector<16xf32>, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A cooperative launch (respec.syncs_grid) has a thread per block and none
// to spare: its barrier-synchronized grid is not sliced.
// CHECK-LABEL: llvm.func @__respec_launch.cooperative(
// CHECK-NOT: __respec_slice
// CHECK: llvm.return
llvm.func @__respec_launch.cooperative(%gx32: i32, %out: !llvm.ptr) attributes {respec.syncs_grid} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = arith.uitofp %xi : i64 to f32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %dst : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Barriers around a few operations per thread (a tile staged through
// shared memory): the slices' waits would cost more than the work they
// share, so the grid is not sliced (and loses its mark).
// CHECK-LABEL: llvm.func @__respec_launch.light(
// CHECK-NOT: __respec_slice
// CHECK-NOT: __respec_barrier_point
// CHECK: llvm.return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
llvm.func @__respec_barrier_point()
llvm.func @__respec_launch.light(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %shared = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %v = arith.uitofp %xi : i64 to f32
      %slot = llvm.getelementptr %shared[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %slot : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    llvm.call @__respec_barrier_point() : () -> ()
    scf.for %k = %c0 to %c4 step %c1 {
      scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
        %xi = arith.index_castui %x : index to i64
        %slot = llvm.getelementptr %shared[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %w = llvm.load %slot : !llvm.ptr -> f32
        %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %w, %dst : f32, !llvm.ptr
        scf.reduce
      } {respec.parallel_level = "block"}
    }
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// `__isShared` & co. ask the runtime, which judges a pointer by the running
// core's shared memory and block storage, not a slice group's: a grid of
// synchronized threads that asks is not sliced.
// CHECK-LABEL: llvm.func @__respec_launch.asks_address_space(
// CHECK-NOT: __respec_slice
// CHECK: llvm.return
llvm.func @__respec_address_space(!llvm.ptr) -> i32
llvm.func @__respec_launch.asks_address_space(%gx32: i32, %n32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %space = llvm.call @__respec_address_space(%dst) : (!llvm.ptr) -> i32
      %sum = scf.for %r = %c0 to %n step %c1 iter_args(%acc = %space) -> (i32) {
        %twice = arith.addi %acc, %acc : i32
        scf.yield %twice : i32
      }
      llvm.store %sum, %dst : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// `%smid` (the core a block runs on) is the same for all threads of a
// block: a grid that reads it is not sliced, with or without barriers.
// CHECK-LABEL: llvm.func @__respec_launch.reads_smid(
// CHECK-NOT: omp_get_max_threads
// CHECK-NOT: scf.if
// CHECK: llvm.return
llvm.func @__respec_smid() -> i32
llvm.func @__respec_launch.reads_smid(%gx32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %sm = llvm.call @__respec_smid() : () -> i32
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %sm, %dst : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.independent_threads, respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Work between barriers somewhere (a loop of %n steps in a thread) does not
// pay for a loop that may meet at a barrier %steps times around a few
// operations per thread: not sliced.
// CHECK-LABEL: llvm.func @__respec_launch.many_light_phases(
// CHECK-NOT: __respec_slice
// CHECK: llvm.return
llvm.func @__respec_barrier_point()
llvm.func @__respec_launch.many_light_phases(%gx32: i32, %n32: i32, %steps32: i32, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %n = arith.index_castui %n32 : i32 to index
  %steps = arith.index_castui %steps32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
      %xi = arith.index_castui %x : index to i64
      %zero = arith.constant 0 : i32
      %sum = scf.for %r = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
        %next = arith.addi %acc, %acc : i32
        scf.yield %next : i32
      }
      %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %sum, %dst : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    llvm.call @__respec_barrier_point() : () -> ()
    scf.for %k = %c0 to %steps step %c1 {
      scf.parallel (%x) = (%c0) to (%c256) step (%c1) {
        %xi = arith.index_castui %x : index to i64
        %dst = llvm.getelementptr %out[%xi] : (!llvm.ptr, i64) -> !llvm.ptr, i32
        %v = llvm.load %dst : !llvm.ptr -> i32
        %w = arith.addi %v, %v : i32
        llvm.store %w, %dst : i32, !llvm.ptr
        scf.reduce
      } {respec.parallel_level = "block"}
      llvm.call @__respec_barrier_point() : () -> ()
    }
    scf.reduce
  } {respec.barrier_synchronized_threads, respec.parallel_level = "grid"}
  llvm.return
}

// RUN: %respec-opt --respec-coarsen="factors=thread=2" -split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=THREAD
// RUN: %respec-opt --respec-coarsen="factors=thread=2" -split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TWARN
// RUN: %respec-opt --respec-coarsen="factors=thread=2 thread-mapping=contiguous" -split-input-file %s | FileCheck %s --check-prefix=CONTIG
// RUN: %respec-opt --respec-coarsen="factors=block=2" -split-input-file %s 2>/dev/null | FileCheck %s --check-prefix=BLOCK
// RUN: %respec-opt --respec-coarsen="factors=block=2,thread=2" -split-input-file %s | FileCheck %s --check-prefix=BOTH
// RUN: %respec-opt --respec-coarsen="factors=block=2x2" -split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=RANK
// RUN: %respec-opt --respec-coarsen="kernel=other:block=2" -split-input-file %s | FileCheck %s --check-prefix=NONE
// RUN: %respec-opt --respec-coarsen="factors=block=2" -split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: not %respec-opt --respec-coarsen="factors=block=0" %s 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: invalid coarsening factor '0'

// A flat kernel with a barrier. Thread coarsening: the loop runs n/2
// threads when 2 divides n (else the original loop); each iteration runs
// logical threads t and t + n/2 (strided) or 2t and 2t+1 (contiguous); the
// statements of the two copies are interleaved and the barrier is emitted
// once, on the new loop's thread id.

// THREAD-LABEL: llvm.func @__respec_launch.flat(
// THREAD: %[[REM:.*]] = arith.remui %[[BX:.*]], %[[C2:.*]] : index
// THREAD: %[[EXACT:.*]] = arith.cmpi eq, %[[REM]]
// THREAD: %[[HALF:.*]] = arith.divui %[[BX]], %[[C2]] : index
// THREAD: scf.parallel (%[[B:.*]]) =
// THREAD: scf.if %[[EXACT]] {
// THREAD: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[HALF]])
// THREAD: %[[K0:.*]] = arith.muli %{{.*}}, %[[HALF]] : index
// THREAD: %[[T0:.*]] = arith.addi %[[K0]], %[[T]] : index
// THREAD: %[[K1:.*]] = arith.muli %{{.*}}, %[[HALF]] : index
// THREAD: %[[T1:.*]] = arith.addi %[[K1]], %[[T]] : index
// THREAD: func.call @before(%[[T0]])
// THREAD-NEXT: func.call @before(%[[T1]])
// THREAD-NEXT: respec.barrier(%[[T]])
// THREAD-NEXT: func.call @after(%[[T0]])
// THREAD-NEXT: func.call @after(%[[T1]])
// THREAD: } else {
// THREAD: scf.parallel (%[[U:.*]]) =
// THREAD: func.call @before(%[[U]])
// THREAD-NEXT: respec.barrier(%[[U]])

// CONTIG-LABEL: llvm.func @__respec_launch.flat(
// CONTIG: scf.if
// CONTIG: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%{{.*}})
// CONTIG: %[[K0:.*]] = arith.muli %[[T]], %{{.*}} : index
// CONTIG: %[[T0:.*]] = arith.addi %[[K0]], %{{.*}} : index
// CONTIG: %[[K1:.*]] = arith.muli %[[T]], %{{.*}} : index
// CONTIG: %[[T1:.*]] = arith.addi %[[K1]], %{{.*}} : index
// CONTIG: func.call @before(%[[T0]])
// CONTIG-NEXT: func.call @before(%[[T1]])

// Block coarsening: blocks 2b and 2b+1 run in one iteration, their thread
// loops merged into one so both copies meet at the same barrier; each copy
// gets its own half of one shared allocation twice the (64-byte rounded)
// size; the odd last block runs in an epilogue loop of the original body.

// BLOCK-LABEL: llvm.func @__respec_launch.flat(
// BLOCK: %[[GX:.*]] = arith.index_castui %{{.*}} : i32 to index
// BLOCK: %[[MAIN:.*]] = arith.divui %[[GX]], %[[C2:.*]] : index
// BLOCK: %[[END:.*]] = arith.muli %[[MAIN]], %[[C2]] : index
// BLOCK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[MAIN]])
// BLOCK: %[[B0:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// BLOCK: %[[B1:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// BLOCK: %[[ALL:.*]] = llvm.call @__respec_shared_memory(%{{.*}})
// BLOCK: %[[SH0:.*]] = llvm.getelementptr %[[ALL]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// BLOCK: %[[SH1:.*]] = llvm.getelementptr %[[ALL]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// BLOCK: func.call @use_block(%[[B0]], %[[SH0]])
// BLOCK-NEXT: func.call @use_block(%[[B1]], %[[SH1]])
// BLOCK-NEXT: scf.parallel (%[[T:.*]]) =
// BLOCK-NOT: scf.parallel
// BLOCK: respec.barrier(%[[T]])
// BLOCK-NOT: respec.barrier
// BLOCK: } {respec.parallel_level = "grid"}
// BLOCK: scf.parallel (%[[E:.*]]) = (%[[END]]) to (%[[GX]])
// BLOCK: llvm.call @__respec_shared_memory(%{{.*}})
// BLOCK: func.call @use_block(%[[E]],

// BOTH-LABEL: llvm.func @__respec_launch.flat(
// BOTH: scf.parallel
// BOTH-COUNT-2: func.call @use_block(
// BOTH: scf.if
// BOTH: scf.parallel
// BOTH-COUNT-4: func.call @before(
// BOTH-NEXT: respec.barrier
// BOTH-COUNT-4: func.call @after(

// NONE-LABEL: llvm.func @__respec_launch.flat(
// NONE-NOT: arith.divui
// NONE: llvm.return

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func private @use_block(index, !llvm.ptr)
func.func private @before(index)
func.func private @after(index)
llvm.func @__respec_launch.flat(%gx32: i32, %bx32: i32) attributes {respec.kernel_name = "flat"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(100 : i64) : i64
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    func.call @use_block(%b, %sh) : (index, !llvm.ptr) -> ()
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @before(%t) : (index) -> ()
      respec.barrier(%t)
      func.call @after(%t) : (index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Loops and branches around barriers: a uniform scf.for carries each copy's
// value (2 iter_args), a uniform scf.if yields both copies' results, and a
// block-wide count combines the copies' counts. Code without barriers is
// duplicated whole, per copy.

// THREAD-LABEL: llvm.func @__respec_launch.nested(
// THREAD: scf.parallel
// THREAD: scf.if %{{.*}} {
// THREAD: scf.parallel (%[[T:.*]]) =
// THREAD: %{{.*}}:2 = scf.for %{{.*}} = %{{.*}} to %[[N:.*]] step %{{.*}} iter_args(%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}) -> (i32, i32)
// THREAD: respec.barrier(%[[T]])
// THREAD: scf.yield %{{.*}}, %{{.*}} : i32, i32
// THREAD: %{{.*}}:2 = scf.if %{{.*}} -> (i32, i32) {
// THREAD: respec.barrier(%[[T]])
// THREAD: %[[R0:.*]] = respec.reduce_barrier "popc" %{{.*}}(%[[T]])
// THREAD-NEXT: %[[R1:.*]] = respec.reduce_barrier "popc" %{{.*}}(%[[T]])
// THREAD-NEXT: %[[SUM:.*]] = arith.addi %[[R0]], %[[R1]] : i32
// THREAD: llvm.call @sink(%[[SUM]])
// THREAD-NEXT: llvm.call @sink(%[[SUM]])
// THREAD: arith.muli %{{.*}}, %{{.*}} : i32
// THREAD-NEXT: scf.yield
// THREAD-NEXT: }
// THREAD-NEXT: %{{.*}} = scf.for
// THREAD-NEXT: arith.muli %{{.*}}, %{{.*}} : i32
// THREAD-NEXT: scf.yield
// THREAD-NEXT: }
// THREAD: } else {

llvm.func @sink(i32)
func.func private @value(index) -> i32
llvm.func @__respec_launch.nested(%gx32: i32, %bx32: i32, %n32: i32, %flag: i1) attributes {respec.kernel_name = "nested"} {
  %n = arith.index_castui %n32 : i32 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %v = func.call @value(%t) : (index) -> i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (i32) {
        respec.barrier(%t)
        %next = arith.addi %acc, %v : i32
        scf.yield %next : i32
      }
      %s = scf.if %flag -> (i32) {
        respec.barrier(%t)
        scf.yield %r : i32
      } else {
        scf.yield %v : i32
      }
      %p = arith.trunci %s : i32 to i1
      %count = respec.reduce_barrier "popc" %p(%t)
      llvm.call @sink(%count) : (i32) -> ()
      %tn = arith.index_castui %t : index to i32
      %m = scf.for %j = %c0 to %t step %c1 iter_args(%a = %tn) -> (i32) {
        %d = arith.muli %a, %a : i32
        scf.yield %d : i32
      }
      llvm.call @sink(%m) : (i32) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Legality. A barrier under control that depends on the block id cannot be
// block-coarsened (the coarsened blocks would disagree about reaching it);
// a barrier under control that differs between threads cannot be
// thread-coarsened. Both are reported and the kernel stays as it is.

// WARN: warning: block coarsening of kernel 'byblock' not applied: a barrier sits under control that depends on the block id
// BLOCK-LABEL: llvm.func @__respec_launch.byblock(
// BLOCK-NOT: arith.divui
// BLOCK: llvm.return

// TWARN: warning: thread coarsening of kernel 'byblock' not applied: a barrier sits under control that may differ between threads
// THREAD-LABEL: llvm.func @__respec_launch.byblock(
// THREAD-NOT: arith.divui
// THREAD: llvm.return

// RANK: warning: block coarsening of kernel 'byblock' not applied: the grid has fewer dimensions than the factors

func.func private @work(index)
llvm.func @__respec_launch.byblock(%gx32: i32, %bx32: i32) attributes {respec.kernel_name = "byblock"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      %early = arith.cmpi ult, %b, %c5 : index
      %sum = arith.addi %b, %t : index
      %low = arith.cmpi ult, %sum, %c5 : index
      %both = arith.andi %early, %low : i1
      scf.if %both {
        func.call @work(%t) : (index) -> ()
        respec.barrier(%t)
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// RUN: %respec-opt --respec-build-alternatives="candidates=block=1;block=2;thread=2" %s 2>&1 | FileCheck %s
// RUN: %respec-opt --respec-build-alternatives="kernel-candidates=k=block=2" %s | FileCheck %s --check-prefix=ONE
// RUN: %respec-opt --respec-build-alternatives="candidates=block=1;block=2" --respec-lower-alternatives %s | FileCheck %s --check-prefix=AUTO
// RUN: %respec-opt --respec-build-alternatives="candidates=block=1;block=2" --respec-lower-alternatives=profile=true %s | FileCheck %s --check-prefix=PROFILE
// RUN: %respec-opt --respec-build-alternatives="candidates=block=1;block=2 kernel-geometry=k=8/1/1/32/1/1:1 kernel-geometry=k=default:0" --respec-lower-alternatives %s | FileCheck %s --check-prefix=TABLE

// One version per candidate. Thread coarsening is illegal here (the barrier
// sits under a condition that differs between threads): that candidate is
// reported and dropped, since it would be a second copy of block=1.

// CHECK: warning: thread coarsening of kernel 'k' not applied: a barrier sits under control that may differ between threads
// CHECK-LABEL: llvm.func @__respec_launch.k(
// CHECK: respec.alternatives "k" ["block=1,thread=1", "block=2,thread=1"] {
// CHECK: scf.parallel
// CHECK: }, {
// CHECK: arith.divui
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: }

// A single version needs no choice: the coarsened loops replace the launch.
// ONE-LABEL: llvm.func @__respec_launch.k(
// ONE-NOT: respec.alternatives
// ONE: arith.divui
// ONE: } {respec.parallel_level = "grid"}
// ONE: } {respec.parallel_level = "grid"}

// Without a table, the runtime chooses (mode 1: the heuristic)...
// AUTO: %[[MODE:.*]] = arith.constant 1 : i32
// AUTO: %[[I:.*]] = llvm.call @__respec_tune_select(%{{.*}}, %{{.*}}, %{{.*}}, %[[MODE]], %arg0, %arg1, %arg2, %arg3, %arg4, %arg5)
// AUTO: %[[X:.*]] = arith.index_cast %[[I]] : i32 to index
// AUTO: scf.index_switch %[[X]]
// AUTO: case 1 {
// AUTO: default {

// ...or cycles through the versions and times each launch (mode 0).
// PROFILE: %[[MODE:.*]] = arith.constant 0 : i32
// PROFILE: llvm.call @__respec_tune_select(%{{.*}}, %{{.*}}, %{{.*}}, %[[MODE]],
// PROFILE: %[[T0:.*]] = llvm.call @__respec_tune_start()
// PROFILE: scf.index_switch
// PROFILE: llvm.call @__respec_tune_record(%{{.*}}, %{{.*}}, %{{.*}}, %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %[[T0]])

// A tuning database's table is compiled in: the launch geometry selects.
// TABLE-NOT: __respec_tune_select
// TABLE: %[[DEFAULT:.*]] = arith.constant 0 : i32
// TABLE: arith.cmpi eq, %arg0, %{{.*}} : i32
// TABLE: arith.cmpi eq, %arg5, %{{.*}} : i32
// TABLE-NEXT: %[[ALL:.*]] = arith.andi
// TABLE-NEXT: %[[CHOSEN:.*]] = arith.constant 1 : i32
// TABLE-NEXT: arith.select %[[ALL]], %[[CHOSEN]], %[[DEFAULT]] : i32
// TABLE: scf.index_switch

func.func private @work(index, index)
llvm.func @__respec_launch.k(%gx32: i32, %gy32: i32, %gz32: i32, %bx32: i32, %by32: i32, %bz32: i32) attributes {respec.kernel_name = "k"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @work(%b, %t) : (index, index) -> ()
      %low = arith.cmpi ult, %t, %c3 : index
      scf.if %low {
        respec.barrier(%t)
      }
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

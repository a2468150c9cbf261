// RUN: %respec-opt -split-input-file -verify-diagnostics %s \
// RUN:   --respec-specialize-block-size="block-sizes=_Z1kPi=16x8x1,_Z1kPi=32x1x1,_Z1kPi=16x8x1,_Z1kPi=64x1x1,_Z6globalPi=256x1x1" \
// RUN:   | FileCheck %s
// RUN: %respec-opt -split-input-file %s \
// RUN:   --respec-specialize-block-size="block-sizes=_Z1kPi=16x8x1 max-versions=1" \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: not %respec-opt %s -split-input-file \
// RUN:   --respec-specialize-block-size="block-sizes=_Z1kPi=16x0x1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD

// The listed kernel gets one copy per block size (duplicates once, at most
// max-versions = 2: 64x1x1 is dropped), chosen by comparing all three block
// dimensions; the original body is the fallback. In the copies blockDim is
// the constant, also where the body reads it directly.
// CHECK-LABEL: llvm.func @__respec_launch._Z1kPi(
// CHECK-SAME: %[[GX:[^:]+]]: i32, %[[GY:[^:]+]]: i32, %[[GZ:[^:]+]]: i32, %[[BX:[^:]+]]: i32, %[[BY:[^:]+]]: i32, %[[BZ:[^:]+]]: i32
// CHECK: %[[C16:.+]] = arith.constant 16 : i32
// CHECK: %[[X16:.+]] = arith.cmpi eq, %[[BX]], %[[C16]] : i32
// CHECK: %[[C8:.+]] = arith.constant 8 : i32
// CHECK: %[[Y8:.+]] = arith.cmpi eq, %[[BY]], %[[C8]] : i32
// CHECK: %[[XY:.+]] = arith.andi %[[X16]], %[[Y8]] : i1
// CHECK: %[[C1:.+]] = arith.constant 1 : i32
// CHECK: %[[Z1:.+]] = arith.cmpi eq, %[[BZ]], %[[C1]] : i32
// CHECK: arith.andi %[[XY]], %[[Z1]] : i1
// CHECK: %[[CAPX:.+]] = arith.constant 67108864 : i32
// CHECK: arith.cmpi ule, %[[GX]], %[[CAPX]] : i32
// CHECK: %[[CAPY:.+]] = arith.constant 134217728 : i32
// CHECK: arith.cmpi ule, %[[GY]], %[[CAPY]] : i32
// CHECK: %[[CAPZ:.+]] = arith.constant 1073741824 : i32
// CHECK: arith.cmpi ule, %[[GZ]], %[[CAPZ]] : i32
// CHECK: %[[M0:.+]] = arith.andi
// CHECK: scf.if %[[M0]] {
// CHECK-DAG: %[[K16:.+]] = arith.constant 16 : i32
// CHECK-DAG: %[[K8:.+]] = arith.constant 8 : i32
// CHECK: arith.index_castui %[[K16]] : i32 to index
// CHECK: arith.index_castui %[[K8]] : i32 to index
// CHECK: scf.parallel
// CHECK: %[[ROW:.+]] = arith.muli %[[K16]], %{{.+}} overflow<nsw, nuw> : i32
// CHECK: arith.addi %[[ROW]], %{{.+}} overflow<nsw, nuw> : i32
// CHECK: } {respec.block_size = array<i64: 16, 8, 1>, respec.parallel_level = "grid"}
// CHECK: } else {
// CHECK: arith.constant 32 : i32
// CHECK: scf.if
// CHECK: arith.constant 32 : i32
// CHECK: scf.parallel
// CHECK: } {respec.block_size = array<i64: 32, 1, 1>, respec.parallel_level = "grid"}
// CHECK: } else {
// CHECK: arith.index_castui %[[BX]] : i32 to index
// CHECK: arith.index_castui %[[BY]] : i32 to index
// CHECK: scf.parallel
// CHECK: arith.muli %[[BX]], %{{.+}} : i32
// CHECK-NOT: overflow
// CHECK-NOT: arith.constant 64
// CHECK-NOT: respec.block_size
// CHECK: llvm.return

// ONE-LABEL: llvm.func @__respec_launch._Z1kPi(
// ONE: scf.if
// ONE-NOT: scf.if
// ONE: llvm.return

// BAD: error: bad block-sizes entry '_Z1kPi=16x0x1' (expected NAME=BXxBYxBZ, each 1 to 1024)
llvm.func @__respec_launch._Z1kPi(%gx: i32, %gy: i32, %gz: i32, %bx: i32,
                                  %by: i32, %bz: i32, %shared: i64,
                                  %params: !llvm.ptr)
    attributes {respec.kernel_name = "_Z1kPi"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = llvm.load %params : !llvm.ptr -> !llvm.ptr
  %nx = arith.index_castui %bx : i32 to index
  %ny = arith.index_castui %by : i32 to index
  %nb = arith.index_castui %gx : i32 to index
  scf.parallel (%b) = (%c0) to (%nb) step (%c1) {
    scf.parallel (%ty, %tx) = (%c0, %c0) to (%ny, %nx) step (%c1, %c1) {
      %x = arith.index_castui %tx : index to i32
      %y = arith.index_castui %ty : index to i32
      %row = arith.muli %bx, %y : i32
      %i = arith.addi %row, %x : i32
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
      llvm.store %i, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A kernel without entries is left alone.
// CHECK-LABEL: llvm.func @__respec_launch._Z5otherPi(
// CHECK-NOT: scf.if
// CHECK: llvm.return
// ONE-LABEL: llvm.func @__respec_launch._Z5otherPi(
// ONE-NOT: scf.if
llvm.func @__respec_launch._Z5otherPi(%gx: i32, %gy: i32, %gz: i32, %bx: i32,
                                      %by: i32, %bz: i32, %shared: i64,
                                      %params: !llvm.ptr)
    attributes {respec.kernel_name = "_Z5otherPi"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nx = arith.index_castui %bx : i32 to index
  %nb = arith.index_castui %gx : i32 to index
  scf.parallel (%b) = (%c0) to (%nb) step (%c1) {
    scf.parallel (%tx) = (%c0) to (%nx) step (%c1) {
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// The global index `blockIdx.x * blockDim.x + threadIdx.x` in 32 bits gets
// `nsw nuw` in the copy for 256-thread blocks (its grids have at most 2^22
// blocks along x); a sum that can wrap even so (+ a kernel argument) does
// not, nor does anything in the generic body.
// CHECK-LABEL: llvm.func @__respec_launch._Z6globalPi(
// CHECK: scf.if
// CHECK: %[[BASE:.+]] = llvm.mul %{{.+}}, %{{.+}} overflow<nsw, nuw> : i32
// CHECK: %[[GID:.+]] = llvm.add %[[BASE]], %{{.+}} overflow<nsw, nuw> : i32
// CHECK: llvm.add %[[GID]], %{{.+}} : i32
// CHECK: } else {
// CHECK: llvm.mul %{{.+}}, %{{.+}} : i32
// CHECK: llvm.add %{{.+}}, %{{.+}} : i32
// CHECK: llvm.add %{{.+}}, %{{.+}} : i32
// CHECK: llvm.return
llvm.func @__respec_launch._Z6globalPi(%gx: i32, %gy: i32, %gz: i32, %bx: i32,
                                       %by: i32, %bz: i32, %shared: i64,
                                       %params: !llvm.ptr)
    attributes {respec.kernel_name = "_Z6globalPi"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = llvm.load %params : !llvm.ptr -> !llvm.ptr
  %arg = llvm.load %params : !llvm.ptr -> i32
  %nx = arith.index_castui %bx : i32 to index
  %nb = arith.index_castui %gx : i32 to index
  scf.parallel (%b) = (%c0) to (%nb) step (%c1) {
    %bi = arith.index_castui %b : index to i32
    scf.parallel (%tx) = (%c0) to (%nx) step (%c1) {
      %x = arith.index_castui %tx : index to i32
      %base = llvm.mul %bi, %bx : i32
      %gid = llvm.add %base, %x : i32
      %shifted = llvm.add %gid, %arg : i32
      %i = llvm.sext %gid : i32 to i64
      %p = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %shifted, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

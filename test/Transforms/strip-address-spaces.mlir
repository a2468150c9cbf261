// RUN: %respec-opt --respec-strip-address-spaces -split-input-file %s | FileCheck %s

// Globals keep their NVPTX address space only as respec.address_space;
// generic (0) globals get no attribute.
// The module's data layout keeps its per-address-space pointer entries.
// CHECK-LABEL: module attributes {dlti.dl_spec = #dlti.dl_spec<
// CHECK-SAME: !llvm.ptr<3> = dense<32> : vector<4xi64>
// CHECK-DAG: llvm.mlir.global internal @shared_buf() {addr_space = 0 : i32, alignment = 16 : i64, respec.address_space = 3 : i32} : !llvm.array<8 x f32>
// CHECK-DAG: llvm.mlir.global external @dyn_shared() {addr_space = 0 : i32, alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<0 x i32>
// CHECK-DAG: llvm.mlir.global external @dev_var(0 : i32) {addr_space = 0 : i32, alignment = 4 : i64, respec.address_space = 1 : i32} : i32
// CHECK-DAG: llvm.mlir.global external constant @const_var(dense<{{.*}}> : tensor<4xf32>) {addr_space = 0 : i32, alignment = 4 : i64, respec.address_space = 4 : i32} : !llvm.array<4 x f32>
// CHECK-DAG: llvm.mlir.global internal constant @host_str("hi\00") {addr_space = 0 : i32}
// CHECK-NOT: addr_space = {{[1-9]}}
// CHECK-NOT: !llvm.ptr<

module attributes {dlti.dl_spec = #dlti.dl_spec<!llvm.ptr<3> = dense<32> : vector<4xi64>, !llvm.ptr = dense<64> : vector<4xi64>>} {
llvm.mlir.global internal @shared_buf() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<8 x f32> {
  %0 = llvm.mlir.undef : !llvm.array<8 x f32>
  llvm.return %0 : !llvm.array<8 x f32>
}
llvm.mlir.global external @dyn_shared() {addr_space = 3 : i32, alignment = 4 : i64} : !llvm.array<0 x i32>
llvm.mlir.global external @dev_var(0 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
llvm.mlir.global external constant @const_var(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) {addr_space = 4 : i32, alignment = 4 : i64} : !llvm.array<4 x f32>
llvm.mlir.global internal constant @host_str("hi\00") {addr_space = 0 : i32}

// Address-space casts between now-identical types disappear; typed pointers
// in function signatures, values and byval attributes become flat.
// CHECK-LABEL: llvm.func ptx_kernelcc @kernel(
// CHECK-SAME: %[[G:.*]]: !llvm.ptr,
// CHECK-SAME: %[[S:.*]]: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>})
// CHECK-NOT: llvm.addrspacecast
// CHECK: %[[SH:.*]] = llvm.mlir.addressof @shared_buf : !llvm.ptr
// CHECK: %[[DV:.*]] = llvm.mlir.addressof @dev_var : !llvm.ptr
// CHECK: %[[CV:.*]] = llvm.mlir.addressof @const_var : !llvm.ptr
// CHECK: %[[LOCAL:.*]] = llvm.alloca {{.*}} -> !llvm.ptr
// CHECK: llvm.load %[[G]] {{.*}}: !llvm.ptr -> f32
// CHECK: llvm.store {{.*}}, %[[SH]] {{.*}}: f32, !llvm.ptr
// CHECK: llvm.load %[[DV]] {{.*}}: !llvm.ptr -> i32
// CHECK: llvm.getelementptr %[[CV]][1] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK: llvm.store {{.*}}, %[[LOCAL]] {{.*}}: i32, !llvm.ptr
// CHECK: llvm.call @helper(%[[G]]) : (!llvm.ptr) -> !llvm.ptr
llvm.func ptx_kernelcc @kernel(%g: !llvm.ptr<1>, %s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}) {
  %sh3 = llvm.mlir.addressof @shared_buf : !llvm.ptr<3>
  %sh = llvm.addrspacecast %sh3 : !llvm.ptr<3> to !llvm.ptr
  %dv1 = llvm.mlir.addressof @dev_var : !llvm.ptr<1>
  %cv4 = llvm.mlir.addressof @const_var : !llvm.ptr<4>
  %one = llvm.mlir.constant(1 : i64) : i64
  %local5 = llvm.alloca %one x i32 : (i64) -> !llvm.ptr<5>
  %x = llvm.load %g {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  llvm.store %x, %sh {alignment = 4 : i64} : f32, !llvm.ptr
  %v = llvm.load %dv1 {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  %p = llvm.getelementptr %cv4[1] : (!llvm.ptr<4>) -> !llvm.ptr<4>, f32
  llvm.store %v, %local5 {alignment = 4 : i64} : i32, !llvm.ptr<5>
  %r = llvm.call @helper(%g) : (!llvm.ptr<1>) -> !llvm.ptr<1>
  llvm.return
}

// CHECK-LABEL: llvm.func @helper(!llvm.ptr) -> !llvm.ptr
llvm.func @helper(!llvm.ptr<1>) -> !llvm.ptr<1>
}

// -----

// A module with nothing NVPTX-specific is left as it is.
// CHECK-LABEL: llvm.func @plain(
// CHECK-SAME: %{{.*}}: !llvm.ptr) -> i32
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.return
llvm.func @plain(%p: !llvm.ptr) -> i32 {
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A cast to a generic pointer and back: both casts fold away.
// CHECK-LABEL: llvm.func @round_trip(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr) -> !llvm.ptr
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.return %[[P]] : !llvm.ptr
llvm.func @round_trip(%p: !llvm.ptr<3>) -> !llvm.ptr<3> {
  %a = llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr
  %b = llvm.addrspacecast %a : !llvm.ptr to !llvm.ptr<3>
  llvm.return %b : !llvm.ptr<3>
}

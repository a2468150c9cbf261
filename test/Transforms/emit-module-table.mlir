// RUN: %respec-opt --respec-emit-module-table -split-input-file -verify-diagnostics %s | FileCheck %s

// One entry per launch function {name, launch, static shared bytes, number
// of parameters, __launch_bounds__ threads (0: none), flags
// (RESPEC_KERNEL_SYNCS_GRID = 1 for respec.syncs_grid), parameter sizes};
// one entry per __device__
// (address space 1) and __constant__ (address space 4) variable {name,
// address, size}. __constant__ variables become writable because the host
// writes them with cudaMemcpyToSymbol. Host globals, llvm.* globals and
// shared variables get no entry. The table itself is external, with magic
// RESPEC_MODULE_MAGIC (0x43505352) and version 1.

// CHECK-DAG: llvm.mlir.global external @dev_counter(0 : i32) {{.*}}respec.address_space = 1
// CHECK-DAG: llvm.mlir.global external @coeffs(dense<{{.*}}> : tensor<4xf64>) {{.*}}respec.address_space = 4
// CHECK-NOT: ("host_only\00")
// CHECK-NOT: ("tile\00")
// CHECK-NOT: ("llvm.used\00")
// CHECK: llvm.mlir.global private constant @[[NAME0:__respec_str\.[0-9]+]]("_Z5firstPfi\00")
// CHECK: llvm.mlir.global private constant @[[SIZES:__respec_param_sizes\.[0-9]+]]() {{.*}} : !llvm.array<2 x i32>
// CHECK: llvm.mlir.constant(8 : i32)
// CHECK: llvm.insertvalue {{.*}}[0]
// CHECK: llvm.mlir.constant(4 : i32)
// CHECK: llvm.insertvalue {{.*}}[1]
// CHECK: llvm.mlir.global private constant @[[NAME1:__respec_str\.[0-9]+]]("noparams\00")
// CHECK: llvm.mlir.global private constant @[[VNAME0:__respec_str\.[0-9]+]]("dev_counter\00")
// CHECK: llvm.mlir.global private constant @[[VNAME1:__respec_str\.[0-9]+]]("coeffs\00")
// CHECK-NOT: ("host_only\00")
// CHECK-NOT: ("tile\00")
// CHECK-NOT: ("llvm.used\00")

// CHECK: llvm.mlir.global private constant @__respec_kernels.{{[0-9]+}}() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, i64, i32, i16, i16, ptr)>>
// CHECK: llvm.mlir.addressof @[[NAME0]] : !llvm.ptr
// CHECK: llvm.mlir.addressof @__respec_launch.first : !llvm.ptr
// CHECK: llvm.mlir.constant(40 : i64) : i64
// CHECK: llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.mlir.constant(0 : i16) : i16
// CHECK: llvm.mlir.constant(0 : i16) : i16
// CHECK: llvm.mlir.addressof @[[SIZES]] : !llvm.ptr
// CHECK: llvm.mlir.addressof @[[NAME1]] : !llvm.ptr
// CHECK: llvm.mlir.addressof @__respec_launch.noparams : !llvm.ptr
// CHECK: llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.mlir.constant(0 : i16) : i16
// CHECK: llvm.mlir.constant(1 : i16) : i16
// A kernel without parameters has no sizes array.
// CHECK: llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.return

// CHECK: llvm.mlir.global private constant @__respec_vars.{{[0-9]+}}() {{.*}} : !llvm.array<2 x struct<(ptr, ptr, i64)>>
// CHECK: llvm.mlir.addressof @[[VNAME0]] : !llvm.ptr
// CHECK: llvm.mlir.addressof @dev_counter : !llvm.ptr
// CHECK: llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.mlir.addressof @[[VNAME1]] : !llvm.ptr
// CHECK: llvm.mlir.addressof @coeffs : !llvm.ptr
// CHECK: llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.return

// CHECK-LABEL: llvm.mlir.global external constant @__respec_module_table() {{.*}} : !llvm.struct<(i32, i32, i32, i32, ptr, ptr)>
// CHECK: llvm.mlir.constant(1129337682 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[0]
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[1]
// CHECK: llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[2]
// CHECK: llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[3]
// CHECK: llvm.mlir.addressof @__respec_kernels.{{[0-9]+}}
// CHECK: llvm.insertvalue {{.*}}[4]
// CHECK: llvm.mlir.addressof @__respec_vars.{{[0-9]+}}
// CHECK: llvm.insertvalue {{.*}}[5]
llvm.mlir.global external @dev_counter(0 : i32) {alignment = 4 : i64, respec.address_space = 1 : i32} : i32
llvm.mlir.global external constant @coeffs(dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf64>) {alignment = 8 : i64, respec.address_space = 4 : i32} : !llvm.array<4 x f64>
llvm.mlir.global internal @host_only(0 : i32) : i32
llvm.mlir.global appending @llvm.used() {respec.address_space = 1 : i32} : !llvm.array<0 x ptr> {
  %0 = llvm.mlir.undef : !llvm.array<0 x ptr>
  llvm.return %0 : !llvm.array<0 x ptr>
}
llvm.mlir.global internal @tile() {alignment = 4 : i64, respec.address_space = 3 : i32} : !llvm.array<4 x i32>
llvm.func @__respec_launch.first(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32, %g: i64, %h: !llvm.ptr) attributes {respec.kernel_name = "_Z5firstPfi", respec.param_sizes = array<i64: 8, 4>, respec.static_shared_bytes = 40 : i64} {
  llvm.return
}
llvm.func @__respec_launch.noparams(%a: i32, %b: i32, %c: i32, %d: i32, %e: i32, %f: i32, %g: i64, %h: !llvm.ptr) attributes {respec.kernel_name = "noparams", respec.param_sizes = array<i64>, respec.static_shared_bytes = 0 : i64, respec.syncs_grid} {
  llvm.return
}
// Not a launch function: no respec.kernel_name.
llvm.func @helper() {
  llvm.return
}

// -----

// A module with no kernels and no variables still gets a table, with zero
// counts and null arrays.
// CHECK-NOT: __respec_kernels
// CHECK-NOT: __respec_vars
// CHECK-LABEL: llvm.mlir.global external constant @__respec_module_table()
// CHECK: llvm.mlir.constant(1129337682 : i32) : i32
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.insertvalue %[[ZERO]], %{{.*}}[2]
// CHECK: %[[ZERO2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.insertvalue %[[ZERO2]], %{{.*}}[3]
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.insertvalue %[[NULL]], %{{.*}}[4]
// CHECK: %[[NULL2:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.insertvalue %[[NULL2]], %{{.*}}[5]
llvm.func @host_function() {
  llvm.return
}

// -----

// Only variables, no kernels: a null kernel array and one variable entry.
// CHECK-LABEL: llvm.mlir.global private constant @__respec_vars.{{[0-9]+}}() {{.*}} : !llvm.array<1 x struct<(ptr, ptr, i64)>>
// CHECK: llvm.mlir.addressof @table_only
// CHECK: llvm.mlir.constant(24 : i64) : i64
// CHECK-LABEL: @__respec_module_table()
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[2]
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.insertvalue {{.*}}[3]
// CHECK: llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.insertvalue {{.*}}[4]
llvm.mlir.global external @table_only() {respec.address_space = 1 : i32} : !llvm.array<3 x i64>

// -----

// expected-error @below {{module already has a __respec_module_table}}
module {
  llvm.mlir.global external @__respec_module_table(0 : i32) : i32
}

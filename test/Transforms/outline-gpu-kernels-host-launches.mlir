// RUN: %respec-opt --respec-outline-gpu-kernels=host-launches=true -split-input-file -verify-diagnostics %s | FileCheck %s

// With host launches the launch function stays (host code): its grid loop
// becomes a call of the runtime's __respec_cuda_launch with the kernel's
// name, the grid and block sizes (x first, 1 for missing dimensions), no
// dynamic shared memory (the 256 bytes are a static .shared array), and an
// array of pointers to stack slots holding the kernel's parameters in the
// kernel's order (index values as i64).

// CHECK: llvm.mlir.global private constant @__respec_kernel_name.k("k\00")
// CHECK-LABEL: llvm.func @__respec_launch.k(
// CHECK-SAME: %[[GX32:[^:]*]]: i32, %[[BX32:[^:]*]]: i32, %[[P:[^:]*]]: !llvm.ptr)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[ARGS:.*]] = llvm.alloca %[[TWO]] x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-DAG: %[[S0:.*]] = llvm.alloca %[[ONE]] x !llvm.ptr : (i64) -> !llvm.ptr
// CHECK-DAG: %[[S1:.*]] = llvm.alloca %[[ONE]] x i64 : (i64) -> !llvm.ptr
// CHECK: %[[GX:.*]] = arith.index_castui %[[GX32]] : i32 to index
// CHECK: %[[BX:.*]] = arith.index_castui %[[BX32]] : i32 to index
// CHECK-NOT: scf.parallel
// CHECK: llvm.store %[[P]], %[[S0]] : !llvm.ptr, !llvm.ptr
// CHECK: %[[E0:.*]] = llvm.getelementptr %[[ARGS]][0]
// CHECK: llvm.store %[[S0]], %[[E0]]
// CHECK: %[[BX64:.*]] = arith.index_cast %[[BX]] : index to i64
// CHECK: llvm.store %[[BX64]], %[[S1]] : i64, !llvm.ptr
// CHECK: %[[E1:.*]] = llvm.getelementptr %[[ARGS]][1]
// CHECK: llvm.store %[[S1]], %[[E1]]
// CHECK: %[[GRIDX:.*]] = arith.index_castui %[[GX]] : index to i32
// CHECK: %[[BLOCKX:.*]] = arith.index_castui %[[BX]] : index to i32
// CHECK: %[[NOSHARED:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @__respec_kernel_name.k
// CHECK: llvm.call @__respec_cuda_launch(%{{.*}}, %[[GRIDX]], %{{.*}}, %{{.*}}, %[[BLOCKX]], %{{.*}}, %{{.*}}, %[[NOSHARED]], %[[ARGS]])
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: i64) attributes {nvvm.kernel
// CHECK: llvm.func @__respec_cuda_launch(!llvm.ptr, i32, i32, i32, i32, i32, i32, i64, !llvm.ptr)

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func private @store(!llvm.ptr, !llvm.ptr, index, index)
llvm.func @__respec_launch.k(%gx32: i32, %bx32: i32, %p: !llvm.ptr) attributes {respec.kernel_name = "k"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(256 : i64) : i64
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @store(%p, %sh, %b, %t) : (!llvm.ptr, !llvm.ptr, index, index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// Shared memory sized at launch is the launch's dynamic shared memory. A
// two-dimensional grid gives y (first dimension) and x (last); a second
// grid loop starting at a block other than 0 (a block-coarsening epilogue)
// launches ceil((ub - lb) / step) blocks, after the first launch.

// CHECK-DAG: llvm.mlir.global private constant @__respec_kernel_name.dyn("dyn\00")
// CHECK-DAG: llvm.mlir.global private constant @__respec_kernel_name.dyn_respec1("dyn_respec1\00")
// CHECK-LABEL: llvm.func @__respec_launch.dyn(
// CHECK-SAME: %[[GX32:[^:]*]]: i32, %[[GY32:[^:]*]]: i32, %[[BX32:[^:]*]]: i32, %[[DYN:[^:]*]]: i64, %[[START32:[^:]*]]: i32)
// CHECK: %[[GY:.*]] = arith.index_castui %[[GY32]]
// CHECK: %[[GX:.*]] = arith.index_castui %[[GX32]]
// CHECK: %[[START:.*]] = arith.index_castui %[[START32]]
// CHECK: %[[X:.*]] = arith.index_castui %[[GX]] : index to i32
// CHECK: %[[Y:.*]] = arith.index_castui %[[GY]] : index to i32
// CHECK: llvm.call @__respec_cuda_launch(%{{.*}}, %[[X]], %[[Y]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DYN]], %{{.*}})
// CHECK: %[[SPAN:.*]] = arith.subi %[[GX]], %[[START]] : index
// CHECK: %[[COUNT:.*]] = arith.ceildivui %[[SPAN]], %{{.*}} : index
// CHECK: %[[EX:.*]] = arith.index_castui %[[COUNT]] : index to i32
// CHECK: llvm.call @__respec_cuda_launch(%{{.*}}, %[[EX]],
// CHECK-LABEL: llvm.func @dyn(
// CHECK: llvm.mlir.global external @__respec_shared_dyn() {addr_space = 3 : i32, alignment = 64 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @dyn_respec1(

llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func private @use(!llvm.ptr, index, index, index)
func.func private @tail(index)
llvm.func @__respec_launch.dyn(%gx32: i32, %gy32: i32, %bx32: i32, %dyn: i64, %start32: i32) attributes {respec.kernel_name = "dyn"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %gy = arith.index_castui %gy32 : i32 to index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %start = arith.index_castui %start32 : i32 to index
  scf.parallel (%by, %bxi) = (%c0, %c0) to (%gy, %gx) step (%c1, %c1) {
    %sh = llvm.call @__respec_shared_memory(%dyn) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @use(%sh, %by, %bxi, %t) : (!llvm.ptr, index, index, index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  scf.parallel (%b) = (%start) to (%gx) step (%c2) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @tail(%b) : (index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A block size computed per block cannot be a launch's.

func.func private @size(index) -> index
llvm.func @__respec_launch.varying(%gx32: i32) attributes {respec.kernel_name = "varying"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    %n = arith.addi %b, %c1 : index
    // expected-error @below {{kernel 'varying': its block size depends on the block, which a GPU launch cannot express}}
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

// -----

// A by-value struct parameter (the launch function's load of its host
// address, marked by respec-raise-kernels) becomes a `byval` kernel
// parameter, which the NVPTX back end puts in PTX's parameter space; the
// host passes the struct's address itself, from which cuLaunchKernel copies
// the bytes. A field's address computed outside the grid loop is recomputed
// in the kernel from the parameter: a host address is no use on the GPU.

// CHECK-LABEL: llvm.func @__respec_launch.byval(
// CHECK-SAME: %[[ARGV:[^:]*]]: !llvm.ptr)
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[ARGV]][0]
// CHECK: %[[STRUCT:.*]] = llvm.load %[[SLOT]] {respec.byval_param
// CHECK-NOT: scf.parallel
// CHECK: %[[E0:.*]] = llvm.getelementptr %[[ARRAY:.*]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.store %[[STRUCT]], %[[E0]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.call @__respec_cuda_launch(
// CHECK-LABEL: llvm.func @byval(
// CHECK-SAME: %[[PARAM:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(i32, f64)>}
// CHECK-SAME: attributes {nvvm.kernel
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %[[PARAM]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
// CHECK: func.call @use(%[[PARAM]], %[[FIELD]],

func.func private @use(!llvm.ptr, !llvm.ptr, index)
llvm.func @__respec_launch.byval(%gx32: i32, %bx32: i32, %argv: !llvm.ptr) attributes {respec.kernel_name = "byval"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gx = arith.index_castui %gx32 : i32 to index
  %bx = arith.index_castui %bx32 : i32 to index
  %slot = llvm.getelementptr %argv[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
  %s = llvm.load %slot {respec.byval_param = !llvm.struct<(i32, f64)>} : !llvm.ptr -> !llvm.ptr
  %field = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>
  scf.parallel (%b) = (%c0) to (%gx) step (%c1) {
    scf.parallel (%t) = (%c0) to (%bx) step (%c1) {
      func.call @use(%s, %field, %t) : (!llvm.ptr, !llvm.ptr, index) -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  llvm.return
}

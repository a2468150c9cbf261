// RUN: %respec-opt --respec-eliminate-barriers -split-input-file %s | FileCheck %s

// Kept: a thread writes shared memory before the barrier that other
// threads read after it.
// CHECK-LABEL: func.func @needed(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @needed(%n: index, %v: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %i = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %sh[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %v, %p : i32, !llvm.ptr
      respec.barrier(%t)
      %q = llvm.getelementptr %sh[8] : (!llvm.ptr) -> !llvm.ptr, i32
      %x = llvm.load %q : !llvm.ptr -> i32
      llvm.store %x, %p : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Removed: only reads on both sides (read after read); after the last
// shared access only global memory (a kernel argument) is written, which
// cannot be shared memory; and thread-private memory never counts.
// CHECK-LABEL: func.func @redundant(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @redundant(%n: index, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %private = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
      %x = llvm.load %sh : !llvm.ptr -> i32
      llvm.store %x, %private : i32, !llvm.ptr
      respec.barrier(%t)
      %y = llvm.load %sh : !llvm.ptr -> i32
      %z = llvm.load %private : !llvm.ptr -> i32
      %s = arith.addi %y, %z : i32
      respec.barrier(%t)
      %i = arith.index_cast %t : index to i64
      %o = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      llvm.store %s, %o : i32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: two kernel arguments may point to the same memory; and code with
// unknown effects (a call) keeps the barrier too.
// CHECK-LABEL: func.func @may_alias(
// CHECK-COUNT-2: respec.barrier
llvm.func @opaque()
func.func @may_alias(%n: index, %a: !llvm.ptr, %b2: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%b) = (%c0) to (%n) step (%c1) {
    scf.parallel (%t) = (%c0) to (%n) step (%c1) {
      %x = llvm.load %a : !llvm.ptr -> i32
      respec.barrier(%t)
      llvm.store %x, %b2 : i32, !llvm.ptr
      respec.barrier(%t)
      llvm.call @opaque() : () -> ()
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Removed: in a 16x8 block each thread writes its own element of a 2-D
// tile (row stride 64 bytes, 16 floats) and, after the barrier, reads and
// rewrites the same element (the index computed again, with casts and a
// shift), another tile 512 bytes past the first and an array of one float
// per row 1024 bytes past it (out of every thread's reach). Shared memory
// and a global array, both indexed by the block too.
// CHECK-LABEL: func.func @own_elements(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @own_elements(%g: index, %out: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  %c8_i64 = arith.constant 8 : i64
  %c16_i64 = llvm.mlir.constant(16 : i64) : i64
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %bi = arith.index_cast %b : index to i64
    scf.parallel (%tx, %ty) = (%c0, %c0) to (%c16, %c8) step (%c1, %c1) {
      %x = arith.index_cast %tx : index to i32
      %y = arith.index_cast %ty : index to i32
      %x64 = llvm.sext %x : i32 to i64
      %y64 = llvm.sext %y : i32 to i64
      %p = llvm.getelementptr %sh[0, %y64, %x64] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x array<16 x f32>>
      llvm.store %f, %p : f32, !llvm.ptr
      %row = arith.muli %bi, %c8_i64 : i64
      %gy = arith.addi %row, %y64 : i64
      %gi = llvm.mul %gy, %c16_i64 : i64
      %gx = llvm.add %gi, %x64 : i64
      %q = llvm.getelementptr %out[%gx] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %f, %q : f32, !llvm.ptr
      respec.barrier(%tx, %ty)
      %four = llvm.mlir.constant(4 : i32) : i32
      %rowStart = llvm.shl %y, %four : i32
      %linear = llvm.add %rowStart, %x : i32
      %p2 = llvm.getelementptr %sh[%linear] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %p2 : !llvm.ptr -> f32
      %w = llvm.fadd %v, %v : f32
      llvm.store %w, %p2 : f32, !llvm.ptr
      %far = llvm.getelementptr %p2[128] : (!llvm.ptr) -> !llvm.ptr, f32
      llvm.store %w, %far : f32, !llvm.ptr
      %nodes = llvm.getelementptr %sh[256] : (!llvm.ptr) -> !llvm.ptr, f32
      %node = llvm.getelementptr %nodes[%y64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %nv = llvm.load %node : !llvm.ptr -> f32
      llvm.store %nv, %node : f32, !llvm.ptr
      %r = llvm.load %q : !llvm.ptr -> f32
      llvm.store %r, %q : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: a thread reads its neighbour's element (one float further).
// CHECK-LABEL: func.func @neighbour(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @neighbour(%g: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  %h = llvm.mlir.constant(1 : i16) : i16
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%c17) step (%c1) {
      %x = arith.index_cast %tx : index to i64
      %p = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %f, %p : f32, !llvm.ptr
      respec.barrier(%tx)
      %n = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %v = llvm.load %n : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: 2-byte accesses one byte apart overlap the next thread's.
// CHECK-LABEL: func.func @overlapping_bytes(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @overlapping_bytes(%g: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  %h = llvm.mlir.constant(1 : i16) : i16
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%c17) step (%c1) {
      %x = arith.index_cast %tx : index to i64
      %p = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      llvm.store %h, %p : i16, !llvm.ptr
      respec.barrier(%tx)
      %v = llvm.load %p : !llvm.ptr -> i16
      llvm.store %v, %p : i16, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: rows of 16 floats indexed by 17 threads per row (the last
// thread's element is the next row's first).
// CHECK-LABEL: func.func @row_overflow(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @row_overflow(%g: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  %h = llvm.mlir.constant(1 : i16) : i16
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%tx, %ty) = (%c0, %c0) to (%c17, %c2) step (%c1, %c1) {
      %x = arith.index_cast %tx : index to i64
      %y = arith.index_cast %ty : index to i64
      %p = llvm.getelementptr %sh[0, %y, %x] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<2 x array<16 x f32>>
      llvm.store %f, %p : f32, !llvm.ptr
      respec.barrier(%tx, %ty)
      %v = llvm.load %p : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: an i16 index, which may wrap around between threads.
// CHECK-LABEL: func.func @narrow_index(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @narrow_index(%g: index, %s: i16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %bytes = llvm.mlir.constant(1024 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  %h = llvm.mlir.constant(1 : i16) : i16
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%tx) = (%c0) to (%c17) step (%c1) {
      %x = arith.index_cast %tx : index to i64
      %x16 = arith.index_cast %tx : index to i16
      %i = llvm.add %x16, %s : i16
      %p = llvm.getelementptr %sh[%i] : (!llvm.ptr, i16) -> !llvm.ptr, f32
      llvm.store %f, %p : f32, !llvm.ptr
      respec.barrier(%tx)
      %v = llvm.load %p : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Removed: each thread's element of shared memory, through a pointer both
// arms of a bounds check compute alike (clang's form of `s[t] = i < n ?
// in[i] : 0`), next to its own element of a global array.
// CHECK-LABEL: func.func @selected_pointer(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @selected_pointer(%g: index, %data: !llvm.ptr, %n: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %bytes = llvm.mlir.constant(256 : i64) : i64
  %f = llvm.mlir.constant(1.0 : f32) : f32
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c64) step (%c1) {
      %x = arith.index_cast %t : index to i64
      %in = llvm.icmp "slt" %x, %n : i64
      %p = scf.if %in -> (!llvm.ptr) {
        %d = llvm.getelementptr %data[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %v = llvm.load %d : !llvm.ptr -> f32
        %s = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %v, %s : f32, !llvm.ptr
        llvm.store %f, %d : f32, !llvm.ptr
        scf.yield %s : !llvm.ptr
      } else {
        %s = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %f, %s : f32, !llvm.ptr
        scf.yield %s : !llvm.ptr
      }
      respec.barrier(%t)
      %w = llvm.load %p : !llvm.ptr -> f32
      llvm.store %w, %p : f32, !llvm.ptr
      %d2 = llvm.getelementptr %data[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %w, %d2 : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: the address is chosen between the last thread's element of one
// shared array and the next thread's element of another (Rodinia srad's
// `tx == BS - 1 ? east[tx] : temp[tx + 1]` after clang folds `east[tx]` to
// `east[15]`): a select of two shared addresses still points into shared
// memory. Before 0.29.0 such an address counted as some other memory and
// the barrier went.
// CHECK-LABEL: func.func @selected_neighbour(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @selected_neighbour(%g: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(128 : i64) : i64
  %c15 = llvm.mlir.constant(15 : i64) : i64
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    %east = llvm.getelementptr %sh[64] : (!llvm.ptr) -> !llvm.ptr, i8
    %east15 = llvm.getelementptr %east[60] : (!llvm.ptr) -> !llvm.ptr, i8
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %x = arith.index_cast %t : index to i64
      %mine = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      respec.barrier(%t)
      %last = llvm.icmp "eq" %x, %c15 : i64
      %next = llvm.getelementptr %mine[4] : (!llvm.ptr) -> !llvm.ptr, i8
      %p = llvm.select %last, %east15, %next : i1, !llvm.ptr
      %w = llvm.load %p : !llvm.ptr -> f32
      llvm.store %w, %mine : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: a pointer to shared memory kept in a thread's allocation and
// loaded back may point anywhere in shared memory.
// CHECK-LABEL: func.func @stashed_pointer(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @stashed_pointer(%g: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = llvm.mlir.constant(1 : i32) : i32
  %bytes = llvm.mlir.constant(128 : i64) : i64
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %stash = llvm.alloca %one x !llvm.ptr : (i32) -> !llvm.ptr
      llvm.store %sh, %stash : !llvm.ptr, !llvm.ptr
      %x = arith.index_cast %t : index to i64
      %mine = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      respec.barrier(%t)
      %base = llvm.load %stash : !llvm.ptr -> !llvm.ptr
      %w = llvm.load %base : !llvm.ptr -> f32
      llvm.store %w, %mine : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Removed: a pointer loaded from the launch's parameter buffer (a kernel
// argument) points to global memory, never to shared memory.
// CHECK-LABEL: func.func @argument_pointer(
// CHECK-NOT: respec.barrier
// CHECK: return
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @argument_pointer(%g: index, %params: !llvm.ptr, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(128 : i64) : i64
  %slot = llvm.load %params : !llvm.ptr -> !llvm.ptr
  %out = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %x = arith.index_cast %t : index to i64
      %mine = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      respec.barrier(%t)
      %o = llvm.getelementptr %out[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %o : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

// -----

// Kept: a pointer a block loads from global memory may be the address of
// its own shared memory, which a thread stored there (`slot[b] = tile;`).
// CHECK-LABEL: func.func @pointer_from_global_memory(
// CHECK: respec.barrier
llvm.func @__respec_shared_memory(i64) -> !llvm.ptr
func.func @pointer_from_global_memory(%g: index, %slots: !llvm.ptr, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bytes = llvm.mlir.constant(128 : i64) : i64
  scf.parallel (%b) = (%c0) to (%g) step (%c1) {
    %sh = llvm.call @__respec_shared_memory(%bytes) : (i64) -> !llvm.ptr
    scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
      %x = arith.index_cast %t : index to i64
      %mine = llvm.getelementptr %sh[%x] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %v, %mine : f32, !llvm.ptr
      respec.barrier(%t)
      %tile = llvm.load %slots : !llvm.ptr -> !llvm.ptr
      %next = llvm.getelementptr %tile[1] : (!llvm.ptr) -> !llvm.ptr, f32
      %w = llvm.load %next : !llvm.ptr -> f32
      llvm.store %w, %mine : f32, !llvm.ptr
      scf.reduce
    } {respec.parallel_level = "block"}
    scf.reduce
  } {respec.parallel_level = "grid"}
  return
}

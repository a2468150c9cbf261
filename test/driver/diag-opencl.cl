// OpenCL C sources get clear errors at the user's line: a built-in respec
// does not implement, a function that is declared but never defined, and a
// syntax error (clang's own diagnostic).
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s
// RUN: not %respec -c -DSYNTAX %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SYNTAX

#ifdef SYNTAX
// SYNTAX: diag-opencl.cl:[[@LINE+1]]:{{[0-9]+}}: error: use of undeclared identifier 'undeclared'
__kernel void broken(__global int *x) { x[0] = undeclared; }
#else
int helper(int);

__kernel void unsupported(__global float *x, __global int *y,
                          __global const half *h) {
  // CHECK: diag-opencl.cl:[[@LINE+1]]:{{[0-9]+}}: error: OpenCL C built-in 'vload_half(unsigned long, half const AS1*)' is not supported by respec yet
  x[0] = vload_half(0, h);
  // CHECK: diag-opencl.cl:[[@LINE+1]]:{{[0-9]+}}: error: function 'helper' is declared but not defined in this OpenCL C source
  y[0] = helper(y[0]);
}
#endif

// -M / -MM (nvcc: --generate-dependencies, --generate-nonsystem-dependencies)
// print the Make rule of a source without compiling it, as nvcc and gcc do
// (CMake's FindCUDA runs `nvcc -M`): to standard output, or to -o / -MF;
// target `<stem>.o` unless -MT names one; -MP adds an empty rule per header.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %respec -M %s -I%S/Inputs | FileCheck %s --check-prefix=M
// M: dependency-only.o: {{.*}}dependency-only.cu
// M-DAG: cuda_runtime.h
// M-DAG: Inputs/dep_header.h
// RUN: %respec -MM %s -I%S/Inputs | FileCheck %s --check-prefix=MM
// MM: dependency-only.o: {{.*}}dependency-only.cu
// MM-NOT: cuda_runtime.h
// MM: Inputs/dep_header.h
// RUN: %respec --generate-nonsystem-dependencies -MT obj/x.o -MP %s -I%S/Inputs -o %t.dir/x.d
// RUN: FileCheck %s --check-prefix=FILE < %t.dir/x.d
// FILE: obj/x.o: {{.*}}dependency-only.cu
// FILE: Inputs/dep_header.h:
// RUN: %respec -MM %S/Inputs/host_check.cpp | FileCheck %s --check-prefix=HOST
// HOST: host_check.o: {{.*}}host_check.cpp
// Nothing else is written.
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// FILES: x.d
// FILES-NOT: {{.}}

#include "dep_header.h"
#include <cuda_runtime.h>

__global__ void scale(float *v) { v[threadIdx.x] *= DEP_SCALE; }

# lit configuration of respec's tests. ctest runs each test file on its own:
#   lit --param respec_build=<build dir> <test file>
import os
import shutil
import sys
import lit.formats

config.name = "respec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".cu", ".cl", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

build = lit_config.params.get("respec_build")
if not build:
    lit_config.fatal("run with --param respec_build=<build directory>")
config.test_exec_root = os.path.join(build, "test")

llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-22/bin")
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(build, "bin"), llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Kernels run on all cores; keep test runs predictable on small machines.
config.environment["OMP_NUM_THREADS"] = os.environ.get("OMP_NUM_THREADS", "2")

config.substitutions.append(("%respec_build", build))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%respec-opt", os.path.join(build, "bin", "respec-opt")))
config.substitutions.append(("%respec", os.path.join(build, "bin", "respec")))

# The test double of the CUDA driver (test/runtime/FakeCudaDriver.cpp):
# programs built for --target=nvptx run against it on machines without a GPU.
fake_cuda = os.path.join(build, "test", "runtime", "libfakecuda.so")
config.substitutions.append(("%fakecuda", fake_cuda))
if os.path.exists(fake_cuda):
    config.available_features.add("fake-cuda-driver")

cuda = lit_config.params.get("cuda_path", "/usr/local/cuda")
config.substitutions.append(("%cuda_path", cuda))
if os.path.exists(os.path.join(cuda, "include", "cuda_runtime.h")):
    config.available_features.add("cuda-toolkit")
if os.path.exists(os.path.join(cuda, "bin", "ptxas")):
    config.available_features.add("ptxas")
if shutil.which("cmake"):
    config.available_features.add("cmake")

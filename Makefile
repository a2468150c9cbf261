# Two commands on a fresh Debian 12 machine:
#   make demo   install what is missing, build respec, compile and run an example
#   make test   the same set-up, then every test (ctest)
BUILD ?= build
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local

.PHONY: all deps configure build demo test install clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja: | deps
	cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/bin/respec -O2 examples/saxpy.cu -o $(BUILD)/saxpy
	$(BUILD)/saxpy

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

# bin/respec, bin/respec-opt, lib/librespec_cudart.a, share/respec/...
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)

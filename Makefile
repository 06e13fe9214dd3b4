# Decibar: one command to run it, one to test it, on a fresh Debian 12 machine.
SHELL := /bin/bash

.PHONY: all deps build release run test asan tsan fuzz bench clean

all: build

deps:
	Scripts/install-deps.sh

build: deps
	swift build

release: deps
	swift build -c release --product decibar

# Opens the live window (see Scripts/run-live.sh for what happens without a sound server or display).
run: release
	Scripts/run-live.sh .build/release/decibar

# Builds, then runs every test inside a private PulseAudio + Xvfb that are stopped afterwards.
test: deps
	swift build --build-tests
	Scripts/with-test-env.sh swift test --skip-build

# The whole suite built with AddressSanitizer (decibar too); any report fails it. A few minutes.
asan: deps
	Scripts/sanitized-tests.sh address

# The whole suite built with ThreadSanitizer (decibar too); any data race reported fails it.
tsan: deps
	Scripts/sanitized-tests.sh thread

# libFuzzer targets (Fuzz/): the overview readers, decoding from bytes and the control protocol, FUZZ_SECONDS each (600).
fuzz: deps
	Scripts/fuzz.sh $(FUZZ_SECONDS)

bench:
	Scripts/install-deps.sh --bench
	Scripts/bench.sh

clean:
	rm -rf .build .build-release .build-address .build-thread .build-fuzz Benchmarks/.build out

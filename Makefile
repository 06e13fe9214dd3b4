# Decibar: one command to run it, one to test it, on a fresh Debian 12 machine.
SHELL := /bin/bash

.PHONY: all deps build release run test asan tsan fuzz bench soak soak-render clean install install-files uninstall docs test-app deb

# Where `make install` puts Decibar; DESTDIR is put before every path (to assemble a package).
PREFIX ?= /usr/local
DESTDIR ?=
# The binary `make install-files` installs.
BINARY ?= .build/release/decibar

all: build

# SwiftPM leaves its scratch in TMPDIR (TemporaryDirectory.* folders and lock files, on every build)
# and never removes it: what builds here gives it a folder in .build instead of /tmp. (The tests'
# own scratch is made in /tmp by Scripts/run-tests.py, which sets their TMPDIR and sweeps it. apt's
# helpers, another user, could not write in that folder: the packages are installed without it.)
build release test test-app asan tsan fuzz bench docs deb: export TMPDIR := $(CURDIR)/.build/tmp

deps:
	env -u TMPDIR Scripts/install-deps.sh
	mkdir -p .build/tmp

build: deps
	swift build
	Scripts/build-milkdrop.sh .build/debug debug

# The release binary carries the Swift runtime and Foundation (nothing from the toolchain's folder
# at run time) and links no C library: each adapter opens its library on first use. Not
# position-independent: the binary's 90 000 relocations would cost every start ~1 ms and 2 MiB.
# The Milkdrop plug-in (C++ over libprojectM, opened when a Milkdrop picture is first drawn) is
# built beside it (Scripts/build-milkdrop.sh).
RELEASE_BUILD := swift build -c release --product decibar --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie \
	&& Scripts/build-milkdrop.sh .build/release release
release: deps
	$(RELEASE_BUILD)

# The Debian package of the release binary (Scripts/make-deb.sh): decibar_VERSION_amd64.deb here.
deb: release
	Scripts/make-deb.sh .build/release/decibar

# Opens the live window (see Scripts/run-live.sh for what happens without a sound server or display).
run: release
	Scripts/run-live.sh .build/release/decibar

# Builds, then runs every test inside a private PulseAudio + Xvfb that are stopped afterwards.
# (The man page generator is built first, so that the install test does not wait for it.)
# One test at a time: many tests time real audio, and on two cores a software-rendered window or a
# second sound server beside them delays what they measure (the suites in BESIDE, which time
# nothing, run at the same time at the lowest priority). Scripts/run-tests.py names the failures
# last, and runs a failed test once more alone (listed either way; see there). The in-process tests
# (DecibarAppTests) run first, without a display, sound server, session bus or runtime folder (those
# in APP_BESIDE beside the others).
# The release binary is built too, and the system tests run it (DECIBAR_BINARY): what the package
# ships is what is tested. Its Debian package goes to .build/deb/, for the test that installs it.
test: deps
	swift build --build-tests
	Scripts/build-milkdrop.sh .build/debug debug
	$(RELEASE_BUILD)
	rm -rf .build/deb && mkdir -p .build/deb
	Scripts/make-deb.sh .build/release/decibar .build/deb >/dev/null
	Scripts/install.sh manual-tool >/dev/null
	$(BARE_ENV) Scripts/run-tests.py --filter DecibarAppTests --beside '$(APP_BESIDE)' --beside-here
	DECIBAR_BINARY=$(CURDIR)/.build/release/decibar Scripts/with-test-env.sh Scripts/run-tests.py --skip DecibarAppTests \
	  --beside '$(BESIDE)' --alone '$(ALONE)'

# Suites that time nothing (no audio heard, no frames paced, no bound of a few seconds): they run
# beside the others, at the lowest priority (SCHED_IDLE where allowed, and nice 19) and in a test
# environment of their own, which shortens make test (still about 19 minutes here). A suite that starts timing
# something moves out of this list. (WaylandLayerTests draws, but at 20 Hz, into a compositor of its
# own that is nice'd with it. InterruptionTests' bounds are for a stop within 5 and 14 s. The core's
# tests are pure arithmetic. MilkdropTests' renders run on a virtual clock: their busy loops, at the
# lane's priority, are there to show that load changes nothing; its live windows run with the others.
# The spectrogram, scope, radial and Shadertoy windows are read off a screenshot taken at their end:
# their columns follow the audio's clock, not the frames', so a late frame changes nothing they check.
# A single test can be named as Suite/function.)
BESIDE := DecibarCoreTests|MilkdropTests/(clock|clickOnItsFrame|repeatable|stateKeptClean|cutsOnTheBeat|blendsOnTheBeat|blendsRealPresets|badPresets|daemonPresets|withoutTheLibrary)|WaylandLayerTests|ScaleCommandTests|ErrorMessageTests|MalformedInputTests|LoudnessTests|RenderCommandTests|OverviewPiecesTests|InstallTests|AudioFileDecoderTests|DecoderSeekTests|CommandLineEndToEndTests|LoudnessMeterTests|PeaksCommandTests|FFTWTransformTests|PNGImageTests|SpectrumAnalyzerTests|PinkNoiseSpectrumTests|FileLevelsTests|MusicBarsTests|InterruptionTests|DaemonTests/malformedLines|HostileFileTests/lyingHeaders|BeatTests/renderedFrames|VideoTests/renderIsFrameExact|ShadertoyTests|RadialCoverTests|SpectrogramTests|VisualModeTests/(radial|shadertoyShader)

# Timed suites that need the whole machine: they run last, once the lane beside has ended (with a
# render beside, the window beside 16 page clients and Chromium kept its pacing for 23-29 % of its
# frames instead of 90-97 %, the page's bars were off, an 8-channel player's server ran dry).
# SteadyPlaybackTests' six busy loops hold both cores: beside them the other lane would only wait.
# DebianPackageTests (lintian, apt-get, dpkg's triggers) was beside three timed failures (a tapped
# track's end, beats 10 ms early); the disks here have no I/O scheduler that could hold it back.
# Milkdrop's pacing beside the other lane held 56 % of its intervals against bars' 84 %: its
# drawing, slower than a slot, is what the lane beside lengthens.
# The heard clock and the first sample, timed to a 5.3 ms graph cycle, lost 7 cycles in 4 s and 2
# starts of 20 in a CI run where they shared the cores.
ALONE := OutputsTests|MultichannelTests|SteadyPlaybackTests|DebianPackageTests|MilkdropTests/pacedToADivisor|MilkdropTests/quitsCleanly|MilkdropTests/dynamicScale|MilkdropTests/blendsPaced|NativePipeWireTests/(heardClock|firstSample)

# The in-process suites that time nothing (parsing, the settings table, the config file), beside
# the others (datagrams and beats timed, beats found in generated files), in the same bare environment.
APP_BESIDE := DecibarAppTests\.(CommandLineTests|SettingsTableTests|SettingOptionsTests|SettingsPrecedenceTests|ConfigFileTests)/

# The application's logic alone, in-process (DecibarAppTests): no display, sound server, session bus
# or runtime folder, and it says so by running without them.
BARE_ENV := env -u DISPLAY -u WAYLAND_DISPLAY -u PULSE_SERVER -u PULSE_RUNTIME_PATH -u DBUS_SESSION_BUS_ADDRESS -u XDG_RUNTIME_DIR
test-app: deps
	swift build --build-tests
	Scripts/build-milkdrop.sh .build/debug debug
	$(BARE_ENV) Scripts/run-tests.py --filter DecibarAppTests --beside '$(APP_BESIDE)' --beside-here

# The whole suite built with AddressSanitizer (decibar too); any report fails it. About 80 minutes
# on two cores.
asan: deps
	Scripts/sanitized-tests.sh address

# The whole suite built with ThreadSanitizer (decibar too); any data race reported fails it. About
# 90 minutes on two cores.
tsan: deps
	Scripts/sanitized-tests.sh thread

# libFuzzer targets (Fuzz/): the overview readers, decoding from bytes, the control protocol, caption
# files and Milkdrop presets, FUZZ_SECONDS each (600).
fuzz: deps
	Scripts/fuzz.sh $(FUZZ_SECONDS)

# Builds the release binary and installs it with its shaders, user unit, launcher, man pages,
# completions and example configs under $(DESTDIR)$(PREFIX) (Scripts/install.sh says what goes where).
install: release
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" Scripts/install.sh install .build/release/decibar

# The same from a binary that is already built, without building: make install-files BINARY=PATH.
install-files:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" Scripts/install.sh install "$(BINARY)"

# Removes what install put under $(DESTDIR)$(PREFIX) (give the same PREFIX and DESTDIR), as listed in
# its manifest, $(PREFIX)/share/decibar/install-manifest.
uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" Scripts/install.sh uninstall

# Rewrites docs/config.md from the settings table (a test fails while it is out of date).
docs: build
	.build/debug/decibar config doc > docs/config.md

bench:
	env -u TMPDIR Scripts/install-deps.sh --bench
	mkdir -p .build/tmp
	Scripts/bench.sh

# The daemon's endurance test: SOAK_MINUTES (30) of a looped playlist with the window shown and a
# subscriber, switching outputs and restarting PulseAudio; pass/fail, CSVs and a plot in out/soak.
# `make soak SOAK_MINUTES=2` is the short variant (Scripts/soak.sh lists every setting).
soak: release
	Scripts/soak.sh .build/release/decibar

# A two-hour render at 854x480: memory and frame rate flat, the length exact, a click on its frame
# (Scripts/soak-render.py; about 25 minutes on two cores, the files in out/soak-render).
soak-render: release
	python3 Scripts/soak-render.py .build/release/decibar out/soak-render

clean:
	rm -rf .build .build-release .build-address .build-thread .build-fuzz .build-tools Benchmarks/.build out

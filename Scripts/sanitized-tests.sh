#!/usr/bin/env bash
# Builds the package and its tests with a sanitizer and runs the whole suite in the private test
# environment (PulseAudio + Xvfb). Every process the tests start (decibar included) is the sanitized
# build. A report from the sanitizer fails the run, even if the test that caused it passed.
# Usage: sanitized-tests.sh address|thread [Swift Testing options such as --filter REGEX...]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: sanitized-tests.sh address|thread [--filter REGEX...]}
shift
scratch=".build-$sanitizer"
reports=$(mktemp -d "/tmp/decibar-$sanitizer-reports.XXXXXX")
trap 'rm -rf "$reports"' EXIT

start=$(date +%s)
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
# The Milkdrop plug-in beside the sanitized decibar (the same sanitizer: its C++ is in the process).
MILKDROP_CXX="$(dirname "$(readlink -f "$(command -v swiftc)")")/clang++" MILKDROP_CXXFLAGS="-fsanitize=$sanitizer" \
  Scripts/build-milkdrop.sh "$scratch/debug" debug
# The package test installs the release build's package, not this build: make test runs it.
skips=(--skip "DebianPackageTests")
# Tests with speed goals relax them under a sanitizer (they still check that the work gets done).
export DECIBAR_SANITIZER="$sanitizer"
case "$sanitizer" in
  address)
    # Leaks are not this run's business (libraries keep their singletons until exit).
    export ASAN_OPTIONS="detect_leaks=0:log_path=$reports/report:suppressions=$PWD/Scripts/sanitizers/asan.supp" ;;
  thread)
    # Synchronization.Mutex's contended path is invisible to ThreadSanitizer; a preloaded shim
    # announces its acquire and release (see tsan-mutex.c). First, show that it hides nothing.
    shim="$PWD/$scratch/libtsan-mutex.so"
    /opt/swift/usr/bin/clang -O2 -shared -fPIC -o "$shim" Scripts/sanitizers/tsan-mutex.c -ldl 2>/dev/null \
      || clang -O2 -shared -fPIC -o "$shim" Scripts/sanitizers/tsan-mutex.c -ldl
    DECIBAR_TSAN_CHECK=1 swift build --sanitize=thread --scratch-path "$scratch" --product TSanSelfCheck
    check() {
      rm -f "$reports"/check*
      LD_PRELOAD=${2:-} TSAN_OPTIONS="log_path=$reports/check exitcode=0" "$scratch/debug/TSanSelfCheck" "$1" > /dev/null
      cat "$reports"/check* 2>/dev/null | grep -c "WARNING: ThreadSanitizer" || true
    }
    without=$(check guarded) guarded=$(check guarded "$shim") planted=$(check planted "$shim")
    rm -f "$reports"/check*
    echo "sanitized-tests: self-check: a contended Mutex gives $without false report(s) without the shim, $guarded with it; a race planted next to it gives $planted with it"
    if [ "$guarded" -ne 0 ] || [ "$planted" -eq 0 ]; then echo "sanitized-tests: the Mutex shim does not work as it should" >&2; exit 1; fi
    export LD_PRELOAD="$shim"
    # Statuses stay as they are (the tests check them); every report lands in a file.
    export TSAN_OPTIONS="log_path=$reports/report exitcode=0" ;;
  *) echo "sanitized-tests: unknown sanitizer $sanitizer" >&2; exit 2 ;;
esac
status=0
# One test at a time, as make test runs them (timing tests beside others starve at this overhead);
# a test that missed a timing mark is run once more alone, and any sanitizer report still fails.
# At this overhead the suite takes longer than the runner's default hour (ThreadSanitizer's run
# was stopped at 60 minutes, in StallTests): three are allowed.
Scripts/with-test-env.sh Scripts/run-tests.py --scratch-path "$scratch" --time-limit 180 ${skips[@]+"${skips[@]}"} "$@" || status=$?
if compgen -G "$reports/report*" > /dev/null; then
  echo "sanitized-tests: $sanitizer reported problems:" >&2
  for report in "$reports"/report*; do echo "--- $report" >&2; head -40 "$report" >&2; done
  status=1
fi
echo "sanitized-tests: $sanitizer, status $status, $(( $(date +%s) - start )) s including the build"
exit "$status"

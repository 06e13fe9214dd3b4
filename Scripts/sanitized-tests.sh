#!/usr/bin/env bash
# Builds the package and its tests with a sanitizer and runs the whole suite in the private test
# environment (PulseAudio + Xvfb). Every process the tests start (decibar included) is the sanitized
# build. A report from the sanitizer fails the run, even if the test that caused it passed.
# Usage: sanitized-tests.sh address [swift test options...]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: sanitized-tests.sh address [swift test options...]}
shift
scratch=".build-$sanitizer"
reports=$(mktemp -d "/tmp/decibar-$sanitizer-reports.XXXXXX")
trap 'rm -rf "$reports"' EXIT

start=$(date +%s)
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
case "$sanitizer" in
  address)
    # Leaks are not this run's business (libraries keep their singletons until exit).
    export ASAN_OPTIONS="detect_leaks=0:log_path=$reports/report:suppressions=$PWD/Scripts/sanitizers/asan.supp" ;;
  *) echo "sanitized-tests: unknown sanitizer $sanitizer" >&2; exit 2 ;;
esac
status=0
Scripts/with-test-env.sh swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@" || status=$?
if compgen -G "$reports/report*" > /dev/null; then
  echo "sanitized-tests: $sanitizer reported problems:" >&2
  for report in "$reports"/report*; do echo "--- $report" >&2; head -40 "$report" >&2; done
  status=1
fi
echo "sanitized-tests: $sanitizer, status $status, $(( $(date +%s) - start )) s including the build"
exit "$status"

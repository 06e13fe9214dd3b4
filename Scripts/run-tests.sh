#!/usr/bin/env bash
# Runs the built test suite one test at a time, then names what failed at the very end of the output.
# A test that failed is run once more on its own: many tests time real audio on a shared two-core
# machine, and a moment of starvation can push one past its mark. The suite passes only if every
# such test then passes; the ones that needed a second run are listed either way. More than
# MAX_RERUNS failures are not run again (that is a real breakage, not a slow moment).
# Usage: run-tests.sh [extra swift test arguments]
set -uo pipefail
max_reruns=${MAX_RERUNS:-3}
work=$(mktemp -d /tmp/decibar-tests.XXXXXX)
trap 'rm -rf "$work"' EXIT

swift test --skip-build --no-parallel --xunit-output "$work/first.xml" "$@"
status=$?
[ "$status" = 0 ] && exit 0

# Swift Testing's results: one <testcase classname= name=> per test, with <failure> inside if it failed.
failures() {
  python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    sys.exit(0)
for case in root.iter("testcase"):
    problems = case.findall("failure") + case.findall("error")
    if problems:
        message = " ".join((problems[0].get("message") or "").split())[:300]
        print(f'{case.get("classname")}/{case.get("name")}\t{message}')
PY
}
failed=$(failures "$work/first-swift-testing.xml")
echo
if [ -z "$failed" ]; then
  echo "run-tests: the suite failed (status $status) before reporting any test as failed; see above"
  exit "$status"
fi
count=$(printf '%s\n' "$failed" | wc -l)
echo "run-tests: $count test(s) failed on the first run:"
printf '%s\n' "$failed" | sed 's/^/  ✘ /'
if [ "$count" -gt "$max_reruns" ]; then
  echo "run-tests: more than $max_reruns failures; not running them again"
  exit 1
fi

filters=()
while IFS=$'\t' read -r id _; do
  filters+=(--filter "^$(printf '%s' "$id" | sed 's/[][\.*^$()+?{}|]/\\&/g')\$")
done <<< "$failed"
echo "run-tests: running them again, alone"
swift test --skip-build --no-parallel --xunit-output "$work/again.xml" "${filters[@]}" "$@"
again=$?
still=$(failures "$work/again-swift-testing.xml")
echo
if [ "$again" = 0 ] && [ -z "$still" ]; then
  echo "run-tests: passed; these needed a second run:"
  printf '%s\n' "$failed" | cut -f1 | sed 's/^/  ↻ /'
  exit 0
fi
echo "run-tests: failed again:"
if [ -n "$still" ]; then printf '%s\n' "$still" | sed 's/^/  ✘ /'; else echo "  (status $again; see above)"; fi
exit 1

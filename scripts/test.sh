#!/usr/bin/env bash
# README command 2: build and run every test (the lit suite: dialect, passes,
# importer, bad input, ONNX Runtime comparisons, zoo and ONNX test data; then
# the sanitized build's tests and the fuzzers, briefly).
# Run setup.sh once before. Tests needing the zoo (../shared/zoo or
# $ONNX_QUANT_ZOO) or onnxruntime report UNSUPPORTED, with a note, when those
# are missing.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build
log "Running the lit suite"
set +e
/usr/lib/llvm-22/bin/lit -sv "$BUILD/test" | tee "$BUILD/lit.log"
status=${PIPESTATUS[0]}
set -e
count() { grep -E "^ *$1 *: +[0-9]+" "$BUILD/lit.log" | grep -oE "[0-9]+ *\(" | grep -oE "[0-9]+" || echo 0; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(count Unsupported)
echo "lit: $passed passed, $failed failed, $skipped skipped"

# Regressions in bad-input handling: the importer, dialect, transform and
# conversion tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then each fuzzer for 100,000 inputs (under a minute each) from a fixed
# seed, so that a failure is a regression, not luck (docs/testing.md
# "Fuzzing and sanitizers"). ONNX_QUANT_SKIP_SANITIZED=1 skips this step,
# saying so.
if [ "${ONNX_QUANT_SKIP_SANITIZED:-0}" = 1 ]; then
  echo "sanitized tests and fuzzers: SKIPPED (ONNX_QUANT_SKIP_SANITIZED=1)"
else
  set +e
  bash "$ROOT/scripts/fuzz.sh" --lit --runs "${ONNX_QUANT_FUZZ_RUNS:-100000}" --seed 1
  fuzz_status=$?
  set -e
  [ "$fuzz_status" -eq 0 ] || status=1
fi
exit "$status"

#!/usr/bin/env bash
# README command 2: build and run every test (the lit suite: dialect, passes,
# importer, bad input, ONNX Runtime comparisons, zoo and ONNX test data).
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
count() { grep -E "^ *$1: +[0-9]+" "$BUILD/lit.log" | grep -oE "[0-9]+ *\(" | grep -oE "[0-9]+" || echo 0; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(count Unsupported)
echo "lit: $passed passed, $failed failed, $skipped skipped"
exit "$status"

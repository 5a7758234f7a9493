#!/bin/sh
# calibration-steps.sh WORKDIR GENERATOR ONNXQ_DIR REAL_TOOL
# Builds calibration/ with CALIBRATION_DATA WORKDIR/calib through
# fake-calibrate-opt.sh, then changes the data step by step. After each
# change it prints what a dry run says the next build would do
# (pending.sh) and how many times the build then ran the compiler.
set -e
work="$1"; gen="$2"; pkg="$3"; real="$4"
inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work/bin" "$work/calib/input"
cp "$inputs/fake-calibrate-opt.sh" "$work/bin/"
echo "$real" > "$work/bin/real-tool"
: > "$work/bin/calls.log"
echo a > "$work/calib/a.npy"
echo b > "$work/calib/input/b.npy"
cmake -S "$inputs/calibration" -B "$work/build" -G "$gen" \
  -DOnnxQuant_DIR="$pkg" -DCALIB_DIR="$work/calib" \
  -DONNX_QUANT_OPT_EXECUTABLE="$work/bin/fake-calibrate-opt.sh" > "$work/configure.log"

calls() { wc -l < "$work/bin/calls.log" | tr -d ' '; }
build() {
  before=$(calls)
  cmake --build "$work/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
  echo "  built: $(( $(calls) - before )) compile(s)"
}
step() {
  echo "$1"
  # Keep the change's time stamp apart from the previous build's outputs
  # (file systems with coarse time stamps).
  [ "$2" = true ] || sleep 1
  sh -c "$2"
  echo "  pending: $("$inputs/pending.sh" "$work/build" | tr '\n' ' ')"
  build
}

echo "initial"
build
echo "  command: $(tail -n 1 "$work/bin/calls.log")"
step "no change" "true"
step "modify input/b.npy" "echo b2 > '$work/calib/input/b.npy'"
step "add c.npy" "echo c > '$work/calib/c.npy'"
step "modify the added c.npy" "echo c2 > '$work/calib/c.npy'"
step "add new/d.npy" "mkdir '$work/calib/new' && echo d > '$work/calib/new/d.npy'"
step "modify new/d.npy" "echo d2 > '$work/calib/new/d.npy'"
step "remove a.npy" "rm '$work/calib/a.npy'"
step "no change" "true"
"$work/build/calibrated"

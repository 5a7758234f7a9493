#!/usr/bin/env bash
# Tests for the generic model runner (tools/onnx-quant-runner/runner.c).
#
# Builds the runner against two hand-written models implementing the
# onnx-quant ABI (fake_model.c: "fake", y = x + k and n = 42; fake_types.c:
# "types", identity over every supported dtype) with gcc, clang,
# -fsanitize=address,undefined and, when installed, aarch64-linux-gnu-gcc
# (run under qemu-aarch64), and runs the same checks on every build. Test
# data comes from fixtures.py (numpy + onnx). Everything happens in a
# temporary directory (kept with KEEP=1).
#
# Prints one line per check (PASS/FAIL/SKIP) and ends with "N passed, N failed";
# exits 1 when a check failed.
#
# Environment: CC (cc), CLANG (clang, else clang-22), CROSS_CC
# (aarch64-linux-gnu-gcc), QEMU (qemu-aarch64), QEMU_LD_PREFIX
# (/usr/aarch64-linux-gnu), SAN_CC (sanitizer compiler; else the first of
# clang and cc whose ASan/UBSan runtimes link), PYTHON (the repo's .venv,
# else python3).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
RUNNER_C=${RUNNER_C:-$HERE/../runner.c}
FIXTURES=$HERE/fixtures.py
ROOT=$(cd "$HERE/../../.." && pwd)

PY=${PYTHON:-}
if [ -z "$PY" ]; then
  if [ -x "$ROOT/.venv/bin/python" ]; then PY=$ROOT/.venv/bin/python; else PY=python3; fi
fi
CC=${CC:-cc}
CLANG=${CLANG:-$(command -v clang || command -v clang-22 || true)}
CROSS_CC=${CROSS_CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/usr/aarch64-linux-gnu}
WARN=(-Wall -Wextra -pedantic -Werror)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnxq-runner-test.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then echo "keeping $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi

passed=0
failed=0

# ------------------------------------------------------------ reporting

LABEL=""

pass() { passed=$((passed + 1)); echo "PASS: [$LABEL] $1"; }
skip() { echo "SKIP: [$LABEL] $1 ($2)"; }

# fail NAME WHY [LOG]: the log's first lines help diagnose without KEEP=1.
fail() {
  failed=$((failed + 1))
  echo "FAIL: [$LABEL] $1 ($2)"
  if [ -n "${3:-}" ]; then head -n 15 "$3" | sed 's/^/    | /'; fi
}

# check NAME WANT_RC REGEX CMD...: runs CMD; passes when it exits with
# WANT_RC, its stdout+stderr match the extended REGEX (when not empty) and
# contain no sanitizer report.
check() {
  local name=$1 want=$2 regex=$3 log=$WORK/check.log rc
  shift 3
  "$@" >"$log" 2>&1
  rc=$?
  if [ "$rc" != "$want" ]; then
    fail "$name" "exit $rc, expected $want" "$log"
  elif [ -n "$regex" ] && ! grep -Eq -- "$regex" "$log"; then
    fail "$name" "output does not match /$regex/" "$log"
  elif grep -Eq 'Sanitizer|runtime error:' "$log"; then
    fail "$name" "sanitizer report" "$log"
  else
    pass "$name"
  fi
}

# ------------------------------------------------------------ building

# build DIR COMPILER FLAGS...: both fake models and a runner for each, the
# runner exactly as documented (-DONNXQ_MODEL=NAME -include NAME.h).
build() {
  local dir=$1 cc=$2 log=$WORK/build.log
  shift 2
  mkdir -p "$dir"
  if { "$cc" -std=c99 "$@" -c "$HERE/fake_model.c" -o "$dir/fake_model.o" &&
       "$cc" -std=c99 "$@" -c "$HERE/fake_types.c" -o "$dir/fake_types.o" &&
       "$cc" -std=c99 "$@" -DONNXQ_MODEL=fake -include "$HERE/fake_model.h" \
         "$RUNNER_C" "$dir/fake_model.o" -o "$dir/run-fake" -lm &&
       "$cc" -std=c99 "$@" -DONNXQ_MODEL=types -include "$HERE/fake_types.h" \
         "$RUNNER_C" "$dir/fake_types.o" -o "$dir/run-types" -lm
     } >"$log" 2>&1; then
    pass "build: $cc $*"
    return 0
  fi
  fail "build: $cc $*" "compiler failed or warned" "$log"
  return 1
}

# ------------------------------------------------------------ the checks

# Functions run through `check`, so a check can be a runner call followed by
# a Python validation of the files it wrote.
fresh_dir() { rm -rf "$1" && mkdir -p "$1"; }

fake_outputs() { # DIR EXT RUNNER-ARGS...
  local dir=$1 ext=$2
  shift 2
  fresh_dir "$dir" && "${FAKE[@]}" "$@" --outputs-dir "$dir" &&
    "$PY" "$FIXTURES" check-fake "$dir" "$ext"
}

types_outputs() { # DIR EXT RUNNER-ARGS...
  local dir=$1 ext=$2
  shift 2
  fresh_dir "$dir" && "${TYPES[@]}" "$@" --outputs-dir "$dir" &&
    "$PY" "$FIXTURES" check-types "$dir" "$ext"
}

# suite DIR [PREFIX...]: every check against DIR/run-fake and DIR/run-types,
# each run as PREFIX... BINARY (PREFIX is the emulator for cross builds).
suite() {
  local dir=$1 out=$WORK/out-${LABEL//[^a-z0-9]/_}
  shift
  FAKE=("$@" "$dir/run-fake")
  TYPES=("$@" "$dir/run-types")
  local N=$WORK/fx/npy P=$WORK/fx/pb T=$WORK/fx/types
  local XK=(--inputs "$N/x.npy" "$N/k.npy")
  local YN=(--expect "$N/y.npy" "$N/n.npy")

  # running and writing
  check "no inputs: zeros, with a note" 0 'all-zero inputs' "${FAKE[@]}"
  check "--print values and argmax" 0 'output 0 "y" float32\[2,3\]: 1\.5 -3\.25 5 4\.5 2 -2\.75.*argmax 2 \[0,2\] = 5' \
    bash -c 'set -o pipefail; "$@" | tr "\n" " "' _ "${FAKE[@]}" "${XK[@]}" --print
  check "npy in, npy out" 0 '' fake_outputs "$out/npy" npy "${XK[@]}"
  check "pb dir in, pb out (default for --input-dir)" 0 '' fake_outputs "$out/pb" pb --input-dir "$P/set0"
  check "npy in, --format pb out" 0 '' fake_outputs "$out/pb2" pb "${XK[@]}" --format pb
  check "pb in, --format npy out" 0 '' fake_outputs "$out/npy2" npy --input-dir "$P/set0" --format npy
  check "--outputs-dir missing: error names file" 2 "$out/nope/output_0\.npy: cannot create" \
    "${FAKE[@]}" "${XK[@]}" --outputs-dir "$out/nope"
  check "--repeat 5 prints median" 0 'timing: 5 runs, median [0-9.]+ ms/run' "${FAKE[@]}" "${XK[@]}" --repeat 5
  check "--warmup 2 then --repeat 3 times 3 runs" 0 'timing: 3 runs, median [0-9.]+ ms/run' \
    "${FAKE[@]}" "${XK[@]}" --warmup 2 --repeat 3
  check "--warmup on a pool, outputs still checked" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" "${XK[@]}" "${YN[@]}" --warmup 1 --threads 2
  check "--warmup -1 rejected" 2 '--warmup needs a non-negative number' "${FAKE[@]}" --warmup -1
  check "--no-workspace" 0 'PASS: 2 of 2' "${FAKE[@]}" "${XK[@]}" "${YN[@]}" --no-workspace
  check "--threads 2 (run_parallel on a pool)" 0 'PASS: 2 of 2' "${FAKE[@]}" "${XK[@]}" "${YN[@]}" --threads 2
  check "--threads 1 (run_parallel, no pool)" 0 'PASS: 2 of 2' "${FAKE[@]}" "${XK[@]}" "${YN[@]}" --threads 1
  check "--threads 0 rejected" 2 '--threads needs a count between 1 and 1024' "${FAKE[@]}" --threads 0
  check "--help lists the model" 0 'input 1 "k" int64\[3\]' "${FAKE[@]}" --help

  # reading: formats and encodings
  check "expect pass (npy)" 0 'output 0 "y" float32\[2,3\]: max_abs_diff 0 .*PASS' "${FAKE[@]}" "${XK[@]}" "${YN[@]}"
  check "expect-dir pass (pb, ONNX test_data_set)" 0 'PASS: 2 of 2' "${FAKE[@]}" --input-dir "$P/set0" --expect-dir "$P/set0"
  check "pb typed fields + unknown fields" 0 'PASS: 2 of 2' "${FAKE[@]}" --input-dir "$P/typed" --expect-dir "$P/typed"
  check "pb packed dims, unpacked data, any field order" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" --input-dir "$P/manual" --expect-dir "$P/manual"
  check "--input-dir falls back to .npy" 0 'PASS: 2 of 2' "${FAKE[@]}" --input-dir "$P/npydir" --expect-dir "$P/npydir"
  check "mixed npy inputs, pb expected" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" "${XK[@]}" --expect "$P/set0/output_0.pb" "$P/set0/output_1.pb"
  check "npy version 2.0" 0 'PASS: 2 of 2' "${FAKE[@]}" --inputs "$N/x_v2.npy" "$N/k.npy" "${YN[@]}"
  check "npy version 3.0" 0 'PASS: 2 of 2' "${FAKE[@]}" --inputs "$N/x_v3.npy" "$N/k.npy" "${YN[@]}"
  check "leading batch of 1 added (npy)" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" --inputs "$N/x_batch.npy" "$N/k.npy" --expect "$N/y_batch.npy" "$N/n.npy"
  check "leading batch of 1 added (pb)" 0 'PASS: 2 of 2' "${FAKE[@]}" --inputs "$P/x_batch.pb" "$N/k.npy" "${YN[@]}"

  # comparison
  check "expect fail: exit 1, worst-diff line" 1 \
    'output 0 "y" float32\[2,3\]: max_abs_diff 0\.5 max_rel_diff 0\.222 worst \[1,2\] \(got -2\.75, expected -2\.25\) mismatches 1/6 .*FAIL' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_bad.npy" "$N/n.npy"
  check "worst element is the failing one" 1 'worst \[0,0\] \(got 1\.5, expected 1\.50[0-9]*\) mismatches 1/6 .*FAIL' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_worst.npy" "$N/n.npy" --rtol 1e-3 --atol 0
  check "integer output exact by default" 1 'output 1 "n" uint8\[1\]: max_abs_diff 1 .*mismatches 1/1 .*FAIL' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y.npy" "$N/n_bad.npy"
  check "integer output with --atol 1" 0 'output 1 "n" uint8\[1\]: max_abs_diff 1 .*PASS' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y.npy" "$N/n_bad.npy" --atol 1
  check "relative diff 1e-3 fails default rtol" 1 'mismatches [1-6]/6 .*FAIL' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_close.npy" "$N/n.npy"
  check "relative diff 1e-3 passes --rtol 2e-3" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_close.npy" "$N/n.npy" --rtol 2e-3
  check "NaN equals NaN, inf equals inf" 0 'PASS: 2 of 2' \
    "${FAKE[@]}" --inputs "$N/x_nan.npy" "$N/k.npy" --expect "$N/y_nan.npy" "$N/n.npy"
  check "NaN/inf output vs finite expected fails" 1 'worst \[0,1\] \(got nan, expected -3\.25\) mismatches 2/6 .*FAIL' \
    "${FAKE[@]}" --inputs "$N/x_nan.npy" "$N/k.npy" "${YN[@]}"
  check "finite output vs NaN/inf expected fails" 1 'expected nan\) mismatches 2/6 .*FAIL' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_nan.npy" "$N/n.npy"

  # rejected input, exit 2 with the file named
  check "wrong shape (npy)" 2 'x_shape\.npy: input 0 "x": shape \[3,2\] does not match model shape \[2,3\]' \
    "${FAKE[@]}" --inputs "$N/x_shape.npy" "$N/k.npy"
  check "wrong element count (npy)" 2 'x_count\.npy: input 0 "x": shape \[2,4\] does not match' \
    "${FAKE[@]}" --inputs "$N/x_count.npy" "$N/k.npy"
  check "wrong shape (pb)" 2 'x_shape\.pb: input 0 "x": shape \[3,2\]' "${FAKE[@]}" --inputs "$P/x_shape.pb" "$N/k.npy"
  check "wrong dtype (npy)" 2 'x_f64\.npy: input 0 "x": dtype is float64, model expects float32' \
    "${FAKE[@]}" --inputs "$N/x_f64.npy" "$N/k.npy"
  check "wrong dtype (pb)" 2 'x_f64\.pb: input 0 "x": dtype is float64, model expects float32' \
    "${FAKE[@]}" --inputs "$P/x_f64.pb" "$N/k.npy"
  check "wrong shape of expected output" 2 'y_shape\.npy: output 0 "y": shape \[6\] does not match' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y_shape.npy" "$N/n.npy"
  check "truncated npy data" 2 'x_trunc_data\.npy: truncated \.npy file: header promises 24 data bytes but the file has 21' \
    "${FAKE[@]}" --inputs "$N/x_trunc_data.npy" "$N/k.npy"
  check "truncated npy header" 2 'x_trunc_header\.npy: truncated \.npy header' \
    "${FAKE[@]}" --inputs "$N/x_trunc_header.npy" "$N/k.npy"
  check "truncated npy magic" 2 'x_trunc_magic\.npy: not a \.npy file' "${FAKE[@]}" --inputs "$N/x_trunc_magic.npy" "$N/k.npy"
  check "npy trailing bytes" 2 'x_trailing\.npy: trailing bytes' "${FAKE[@]}" --inputs "$N/x_trailing.npy" "$N/k.npy"
  check "npy malformed header" 2 "x_garbage_header\.npy: malformed or unsupported 'descr'" \
    "${FAKE[@]}" --inputs "$N/x_garbage_header.npy" "$N/k.npy"
  check "npy fortran_order rejected" 2 'x_fortran\.npy: fortran_order' "${FAKE[@]}" --inputs "$N/x_fortran.npy" "$N/k.npy"
  check "npy big-endian rejected" 2 "x_be\.npy: big-endian data \('>f4'\)" "${FAKE[@]}" --inputs "$N/x_be.npy" "$N/k.npy"
  check "truncated pb (in raw_data)" 2 'x_trunc\.pb: malformed TensorProto \(truncated' \
    "${FAKE[@]}" --inputs "$P/x_trunc.pb" "$N/k.npy"
  check "truncated pb (in a varint)" 2 'x_trunc_varint\.pb: malformed TensorProto' \
    "${FAKE[@]}" --inputs "$P/x_trunc_varint.pb" "$N/k.npy"
  check "empty pb" 2 'x_empty\.pb: TensorProto has no data_type' "${FAKE[@]}" --inputs "$P/x_empty.pb" "$N/k.npy"
  check "pb external data rejected" 2 'x_external\.pb: .*EXTERNAL' "${FAKE[@]}" --inputs "$P/x_external.pb" "$N/k.npy"
  check "pb string_data rejected" 2 'x_string\.pb: string tensors' "${FAKE[@]}" --inputs "$P/x_string.pb" "$N/k.npy"
  check "pb group wire type rejected" 2 'x_group\.pb: malformed' "${FAKE[@]}" --inputs "$P/x_group.pb" "$N/k.npy"
  check "pb raw_data size mismatch" 2 'x_rawlen\.pb: raw_data has 20 bytes, expected 24' \
    "${FAKE[@]}" --inputs "$P/x_rawlen.pb" "$N/k.npy"
  check "pb raw_data and float_data both" 2 'x_both\.pb: TensorProto has both raw_data and float_data' \
    "${FAKE[@]}" --inputs "$P/x_both.pb" "$N/k.npy"
  check "pb typed field wrong for dtype" 2 'x_wrongfield\.pb: .*int64_data \(expected float_data\)' \
    "${FAKE[@]}" --inputs "$P/x_wrongfield.pb" "$N/k.npy"
  check "pb typed value count mismatch" 2 'x_count\.pb: float_data has 5 values, expected 6' \
    "${FAKE[@]}" --inputs "$P/x_count.pb" "$N/k.npy"
  check "pb without data" 2 'x_nodata\.pb: TensorProto has no data' "${FAKE[@]}" --inputs "$P/x_nodata.pb" "$N/k.npy"
  check "pb huge dims, tiny raw_data: no huge allocation" 2 'x_huge\.pb: raw_data has 4 bytes, expected 4611686018427387904 for float32\[1099511627776,1048576\]' \
    "${FAKE[@]}" --inputs "$P/x_huge.pb" "$N/k.npy"
  check "pb dims overflow size_t" 2 'x_overflow\.pb: dims are too large' "${FAKE[@]}" --inputs "$P/x_overflow.pb" "$N/k.npy"
  check "pb negative dim" 2 'x_negdim\.pb: negative dimension' "${FAKE[@]}" --inputs "$P/x_negdim.pb" "$N/k.npy"
  check "npy huge shape, tiny data: no huge allocation" 2 'x_huge\.npy: truncated \.npy file' \
    "${FAKE[@]}" --inputs "$N/x_huge.npy" "$N/k.npy"
  check "pb unsupported data_type" 2 'x_badtype\.pb: unsupported data_type 14' \
    "${FAKE[@]}" --inputs "$P/x_badtype.pb" "$N/k.npy"
  check "missing input file" 2 'nope\.npy: cannot open: ' "${FAKE[@]}" --inputs "$N/nope.npy" "$N/k.npy"
  check "missing expected file" 2 'nope\.pb: cannot open: ' "${FAKE[@]}" "${XK[@]}" --expect "$N/y.npy" "$N/nope.pb"
  check "directory as input file" 2 "$N: read error" "${FAKE[@]}" --inputs "$N" "$N/k.npy"
  check "--input-dir missing input_1.pb" 2 'missing/input_1\.pb: cannot open' "${FAKE[@]}" --input-dir "$P/missing"
  check "--input-dir with an extra input_2.pb" 2 'extra/input_2\.pb: exists, but model fake has only 2 inputs' \
    "${FAKE[@]}" --input-dir "$P/extra"

  # usage errors
  check "wrong number of --inputs" 2 'model fake has 2 inputs but 1 file was given' "${FAKE[@]}" --inputs "$N/x.npy"
  check "wrong number of --expect" 2 'model fake has 2 outputs but 3 files were given' \
    "${FAKE[@]}" "${XK[@]}" --expect "$N/y.npy" "$N/n.npy" "$N/n.npy"
  check "unknown option" 2 "unknown option '--bogus'" "${FAKE[@]}" --bogus
  check "bad --rtol" 2 '--rtol needs a non-negative number' "${FAKE[@]}" --rtol -1
  check "bad --repeat" 2 '--repeat needs a count' "${FAKE[@]}" --repeat 0
  check "--inputs with --input-dir" 2 'either --inputs or --input-dir' "${FAKE[@]}" "${XK[@]}" --input-dir "$P/set0"

  # every dtype, through the identity model
  local i in_npy=() expect_f16=() expect_i32=()
  for i in $(seq 0 11); do
    in_npy+=("$T/npy/input_$i.npy")
    if [ "$i" = 8 ]; then expect_f16+=("$T/f16_ulp.npy"); else expect_f16+=("$T/npy/output_$i.npy"); fi
    if [ "$i" = 5 ]; then expect_i32+=("$T/int32_off.npy"); else expect_i32+=("$T/npy/output_$i.npy"); fi
  done
  check "all dtypes: npy in, npy out, bit-exact" 0 '' types_outputs "$out/types-npy" npy --inputs "${in_npy[@]}"
  check "all dtypes: pb in, pb out, bit-exact" 0 '' types_outputs "$out/types-pb" pb --input-dir "$T/pb"
  check "all dtypes: typed pb in, npy out, bit-exact" 0 '' types_outputs "$out/types-typed" npy \
    --input-dir "$T/typed" --format npy
  check "all dtypes: expect typed pb (NaN, inf, int extremes)" 0 'PASS: 12 of 12' \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --expect-dir "$T/typed"
  check "float16 printed via half->double" 0 "output 8 \"out_float16\" float16\\[8\\]: $F16_LINE\$" \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --print
  check "float16 1-ulp diff measured" 1 'output 8 "out_float16" float16\[8\]: max_abs_diff 0\.000977 .*FAIL' \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --expect "${expect_f16[@]}"
  check "int32 100000 vs 100001 fails (exact default)" 1 \
    'output 5 "out_int32" int32\[8\]: max_abs_diff 1 .*worst \[5\] \(got 100000, expected 100001\) mismatches 1/8 \(atol 0 rtol 0\) FAIL' \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --expect "${expect_i32[@]}"
  check "int32 100000 vs 100001 passes --atol 1" 0 'PASS: 12 of 12' \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --expect "${expect_i32[@]}" --atol 1
  check "scalar (rank 0) float64, zero workspace" 0 'output 9 "out_float64" float64\[\]: -0\.10000000000000001' \
    "${TYPES[@]}" --inputs "${in_npy[@]}" --print
}

# fuzz DIR: mutated .npy/.pb files; each must be accepted or rejected
# cleanly (exit 0 or 2) without a sanitizer report.
fuzz() {
  local dir=$1 f rc bad=0 total=0 log=$WORK/fuzz.log N=$WORK/fx/npy
  local -A seen=()
  while read -r f; do
    total=$((total + 1))
    case $f in
      *input_1_*) "$dir/run-fake" --inputs "$N/x.npy" "$f" >"$log" 2>&1 ;;
      *) "$dir/run-fake" --inputs "$f" "$N/k.npy" >"$log" 2>&1 ;;
    esac
    rc=$?
    seen[$rc]=1
    if { [ "$rc" != 0 ] && [ "$rc" != 2 ]; } || grep -Eq 'Sanitizer|runtime error:' "$log"; then
      bad=$((bad + 1))
      [ "$bad" -le 3 ] && { echo "    | $f: exit $rc"; head -n 5 "$log" | sed 's/^/    | /'; }
    fi
  done <"$WORK/fx/fuzz/list"
  if [ "$bad" = 0 ]; then
    pass "fuzz: $total mutated npy/pb inputs, exits {${!seen[*]}}, no crash or sanitizer report"
  else
    fail "fuzz" "$bad of $total mutated inputs crashed or hit a sanitizer"
  fi
}

# ------------------------------------------------------------ main

LABEL=setup
if ! "$PY" "$FIXTURES" gen "$WORK/fx" >"$WORK/gen.log" 2>&1; then
  fail "generate fixtures with $PY" "numpy and onnx needed" "$WORK/gen.log"
  echo "$passed passed, $failed failed"
  exit 1
fi
F16_LINE=$("$PY" "$FIXTURES" f16-line | sed 's/[.+]/\\&/g')
pass "generate fixtures"

LABEL=gcc
build "$WORK/gcc" "$CC" -O2 "${WARN[@]}" && suite "$WORK/gcc"

# A model that never writes output n: the runner's poisoned output buffers
# must make that fail even against an all-zero expectation.
forgetful() {
  "$CC" -std=c99 -O2 -DFAKE_FORGET_N -c "$HERE/fake_model.c" -o "$WORK/forget.o" &&
    "$CC" -std=c99 -O2 -DONNXQ_MODEL=fake -include "$HERE/fake_model.h" "$RUNNER_C" \
      "$WORK/forget.o" -o "$WORK/run-forget" -lm &&
    "$WORK/run-forget" --expect "$WORK/fx/npy/y_zero.npy" "$WORK/fx/npy/n_zero.npy"
}
check "unwritten output does not pass as zeros" 1 'output 1 "n" uint8\[1\]: .*got 165, expected 0.*FAIL' forgetful

LABEL=gnu99
if build "$WORK/gnu99" "$CC" -std=gnu99 -O2 "${WARN[@]}"; then
  check "--repeat uses the wall clock when POSIX is visible" 0 'median .*wall clock' \
    "$WORK/gnu99/run-fake" --repeat 3
fi

LABEL=clang
if [ -n "$CLANG" ]; then
  build "$WORK/clang" "$CLANG" -O2 "${WARN[@]}" && suite "$WORK/clang"
else
  skip "clang builds" "no clang or clang-22 found"
fi

# The first of SAN_CC, clang, cc whose sanitizer runtimes are installed
# (clang packages often ship without them).
sanitizer_cc() {
  local cc
  printf 'int main(void) { return 0; }\n' >"$WORK/probe.c"
  for cc in ${SAN_CC:-} $CLANG $CC; do
    if "$cc" -fsanitize=address,undefined "$WORK/probe.c" -o "$WORK/probe" >/dev/null 2>&1 &&
       "$WORK/probe"; then
      echo "$cc"
      return 0
    fi
  done
  return 1
}

LABEL=asan+ubsan
if ! SAN=$(sanitizer_cc); then
  skip "sanitizer builds" "no compiler with ASan/UBSan runtimes"
elif build "$WORK/san" "$SAN" -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
     -fno-sanitize-recover=all "${WARN[@]}"; then
  export ASAN_OPTIONS=detect_leaks=1:exitcode=86 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  suite "$WORK/san"
  fuzz "$WORK/san"
  unset ASAN_OPTIONS UBSAN_OPTIONS
fi

LABEL=aarch64
if command -v "$CROSS_CC" >/dev/null 2>&1; then
  if build "$WORK/aarch64" "$CROSS_CC" -O2 "${WARN[@]}"; then
    if command -v "$QEMU" >/dev/null 2>&1; then
      suite "$WORK/aarch64" "$QEMU" -L "$QEMU_LD_PREFIX"
    else
      skip "aarch64 checks" "$QEMU not installed; built only"
    fi
  fi
else
  skip "aarch64 cross build" "$CROSS_CC not installed (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user)"
fi

LABEL=c++
if command -v "${CXX:-g++}" >/dev/null 2>&1 && [ -f "$WORK/gcc/fake_model.o" ]; then
  printf '#include "fake_model.h"\nint main() { return fake_num_inputs() == 2 ? 0 : 1; }\n' >"$WORK/hdr.cpp"
  check "fake_model.h compiles and links as C++" 0 '' bash -c \
    '"$1" -std=c++11 -Wall -Wextra -pedantic -Werror -I"$2" "$3" "$4" -o "$5" && "$5"' _ \
    "${CXX:-g++}" "$HERE" "$WORK/hdr.cpp" "$WORK/gcc/fake_model.o" "$WORK/hdr-cpp"
else
  skip "C++ header check" "no C++ compiler"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

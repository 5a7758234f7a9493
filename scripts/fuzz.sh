#!/usr/bin/env bash
# Fuzzing and sanitizers (docs/testing.md "Fuzzing and sanitizers").
#
#   bash scripts/fuzz.sh [--seconds N | --runs N] [--seed N] [--lit] [import] [samples]
#
# Configures and builds $ROOT/build-fuzz (clang-22, ONNXQ_FUZZ=ON,
# ONNXQ_SANITIZE=address,undefined) and runs each libFuzzer target (default:
# both) for --seconds (60) or --runs executions on its corpus
# (build-fuzz/fuzz/corpus-<target>, kept between runs) seeded by
# scripts/fuzz_seeds.py from the test models. A crash, a sanitizer report,
# a leak or a timeout (10 s per input) fails the script and leaves the input
# in build-fuzz/fuzz/artifacts/. --seed makes a --runs run repeatable
# (scripts/test.sh uses one: CI is not flaky). --lit also builds the sanitized
# onnx-quant-opt and runs the importer, dialect, transform and conversion
# lit tests with it.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

FUZZ_BUILD="${ONNX_QUANT_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
limit=(-max_total_time=60)
seed=()
targets=()
lit=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --runs) limit=(-runs="$2"); shift 2 ;;
    --seed) seed=(-seed="$2"); shift 2 ;;
    --lit) lit=1; shift ;;
    import|samples) targets+=("$1"); shift ;;
    *) echo "usage: $0 [--seconds N | --runs N] [--seed N] [--lit] [import] [samples]" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(import samples)

if [ ! -f "$FUZZ_BUILD/build.ninja" ]; then
  log "Configuring the fuzz and sanitizer build ($FUZZ_BUILD)"
  cmake -S "$ROOT" -B "$FUZZ_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld -DONNXQ_FUZZ=ON \
    -DONNXQ_SANITIZE=address,undefined >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("onnx-quant-fuzz-$t"); done
[ $lit -eq 0 ] || build_targets+=(onnx-quant-opt)
log "Building ${build_targets[*]}"
cmake --build "$FUZZ_BUILD" --target "${build_targets[@]}"

# LLVM and MLIR are not instrumented: their one-time allocations at exit are
# not ours to report, but per-input leaks in the fuzzers are (libFuzzer
# checks those itself).
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
if [ $lit -eq 1 ]; then
  log "Lit tests with the sanitized onnx-quant-opt (importer, dialect, transforms, conversion)"
  set +e
  ASAN_OPTIONS="detect_leaks=0" /usr/lib/llvm-22/bin/lit -sv \
    "$FUZZ_BUILD/test/Import" "$FUZZ_BUILD/test/Dialect" \
    "$FUZZ_BUILD/test/Transforms" "$FUZZ_BUILD/test/Conversion" \
    | tee "$FUZZ_BUILD/lit.log"
  code=${PIPESTATUS[0]}
  set -e
  summary=$(grep -E "^ *(Passed|Failed|Unsupported|Unresolved)" "$FUZZ_BUILD/lit.log" | tr -s ' ' | tr '\n' ';')
  echo "sanitized lit: ${summary:-no summary} (exit $code)"
  [ "$code" -eq 0 ] || status=1
fi

seeds="$FUZZ_BUILD/fuzz/seeds"
rm -rf "$seeds"
"$VENV/bin/python" "$ROOT/scripts/fuzz_seeds.py" "$seeds"
for t in "${targets[@]}"; do
  corpus="$FUZZ_BUILD/fuzz/corpus-$t"
  artifacts="$FUZZ_BUILD/fuzz/artifacts/"
  mkdir -p "$corpus" "$artifacts"
  log "Fuzzing $t (${limit[*]})"
  set +e
  "$FUZZ_BUILD/tools/fuzz/onnx-quant-fuzz-$t" "${limit[@]}" "${seed[@]}" -timeout=10 \
    -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "$seeds/$t" \
    >"$FUZZ_BUILD/fuzz/$t.log" 2>&1
  code=$?
  set -e
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$FUZZ_BUILD/fuzz/$t.log" | grep -oE "[0-9]+$" || echo "?")
  if [ $code -eq 0 ]; then
    echo "fuzz $t: $runs executions, no crash (corpus $(ls "$corpus" | wc -l) inputs)"
  else
    echo "fuzz $t: FAILED after $runs executions (exit $code); the input is in $artifacts:"
    grep -E "ERROR:|SUMMARY:|runtime error|Test unit written" "$FUZZ_BUILD/fuzz/$t.log" | head -5
    status=1
  fi
done
exit $status

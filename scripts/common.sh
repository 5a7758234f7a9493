# Shared by setup.sh and test.sh: installs what the build needs (Debian
# packages, the test-tooling venv) and builds. Idempotent: each step is
# skipped when already done.

set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${ONNX_QUANT_BUILD_DIR:-$ROOT/build}"
VENV="$ROOT/.venv"

APT_PACKAGES=(
  cmake ninja-build ccache clang-22 lld-22 llvm-22 llvm-22-dev llvm-22-tools
  libmlir-22-dev mlir-22-tools libonnx-dev libprotobuf-dev protobuf-compiler
  python3-onnx python3-numpy python3-venv libonnx-testdata
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user valgrind
  # libjpeg-dev, libpng-dev: calibration images and examples/image-classifier;
  # make: the Unix Makefiles tests
  libjpeg-dev libpng-dev make
  # libclang-rt-22-dev: libFuzzer and the sanitizer runtimes (scripts/fuzz.sh)
  libclang-rt-22-dev
  # chromium: the HTML quantization report's test renders it headless
  chromium
)

log() { printf '\n==> %s\n' "$*"; }

install_packages() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
      || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "Debian packages: all ${#APT_PACKAGES[@]} present"
    return
  fi
  log "Installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

setup_venv() {
  # Debian's python3 (not the one on PATH): it has python3-onnx.
  local stamp="$VENV/.requirements.sha256"
  local want
  want="$(sha256sum "$ROOT/utils/requirements.txt" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    log "Python venv: up to date ($VENV)"
    return
  fi
  log "Creating the test-tooling venv ($VENV)"
  [ -x "$VENV/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$ROOT/utils/requirements.txt"
  echo "$want" > "$stamp"
}

# ONNX Runtime's quantization tools need a newer onnx than Debian's: their own
# venv, without the system packages.
setup_ortq_venv() {
  local venv="$ROOT/.venv-ortq" stamp="$ROOT/.venv-ortq/.requirements.sha256"
  local want
  want="$(sha256sum "$ROOT/utils/requirements-ortq.txt" | cut -d' ' -f1)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    log "ORT quantization venv: up to date ($venv)"
    return
  fi
  log "Creating the ORT quantization venv ($venv)"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$ROOT/utils/requirements-ortq.txt"
  echo "$want" > "$stamp"
}

build() {
  if [ ! -f "$BUILD/build.ninja" ]; then
    log "Configuring ($BUILD)"
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DLLVM_USE_LINKER=lld >/dev/null
  fi
  log "Building"
  cmake --build "$BUILD"
}

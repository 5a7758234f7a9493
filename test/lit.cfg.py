# -*- Python -*-
"""lit configuration of the onnx-quant test suite.

Substitutions:
  onnx-quant-opt, onnx-quant-debug, FileCheck, not, count, split-file
              the tools
  %python     the test-tooling venv's python (ONNX_QUANT_PYTHON overrides),
              falling back to Debian's /usr/bin/python3 (has onnx, numpy)
  %utils      <repo>/utils
  %zoo        the model zoo (ONNX_QUANT_ZOO, default <repo>/../shared/zoo)
  %testdata   Debian libonnx-testdata's data directory
  %ortq-python  the venv of ONNX Runtime's quantization tools (.venv-ortq)
  %ortq-testdata  onnx 1.17's backend test data in that venv (opsets to 22)
  %build      the build directory (build/lib/cmake/OnnxQuant is the package)
Features: `ort` (onnxruntime importable by %python), `ortq`
(onnxruntime.quantization importable by %ortq-python), `zoo`, `onnx-testdata`,
`onnx-testdata-ortq` (%ortq-testdata exists), `aarch64-cross` (aarch64-linux-gnu-gcc and qemu-aarch64 on PATH), `valgrind`, `chromium` (headless Chromium, for the HTML report),
`make` (GNU make, for the Unix Makefiles generator), `tsan` (gcc links
ThreadSanitizer programs), `libjpeg` (jpeglib.h,
for examples/image-classifier), `avx512-vnni` (the host runs AVX-512 VNNI
code), `avx512-vbmi` (the host runs AVX-512 VBMI code: vpermi2b), `amx`
(the host has AMX-INT8 tiles).
"""

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "onnx-quant"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtext", ".textproto", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.onnx_quant_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.add_tool_substitutions(
    ["onnx-quant-opt", "onnx-quant-debug", "FileCheck", "not", "count",
     "split-file"],
    [config.onnx_quant_tools_dir, config.llvm_tools_dir])

src = config.onnx_quant_src_root
venv_python = os.path.join(src, ".venv", "bin", "python")
python = os.environ.get("ONNX_QUANT_PYTHON") or (
    venv_python if os.path.exists(venv_python) else "/usr/bin/python3")
zoo = os.environ.get("ONNX_QUANT_ZOO") or os.path.normpath(
    os.path.join(src, "..", "shared", "zoo"))
testdata = "/usr/share/libonnx-testdata/data"

# use_default_substitutions() already defines %python as lit's own
# interpreter; substitutions apply in order, so drop that one first.
config.substitutions = [s for s in config.substitutions if s[0] != "%python"]
config.substitutions.append(("%python", python))
ortq_python = os.path.join(src, ".venv-ortq", "bin", "python")
config.substitutions.append(("%ortq-python", ortq_python))
config.substitutions.append(("%utils", os.path.join(src, "utils")))
config.substitutions.append(("%zoo", zoo))
config.substitutions.append(("%testdata", testdata))
config.substitutions.append(("%src", src))
config.substitutions.append(("%build", config.onnx_quant_obj_root))
config.substitutions.append(("%runner", os.path.join(src, "tools", "onnx-quant-runner", "runner.c")))


def python_can_import(module):
    return subprocess.call([python, "-c", "import " + module],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) == 0


# One start of the ORT quantization venv's python: whether it imports
# onnxruntime.quantization, and where its onnx (1.17) keeps the backend test
# data: the node tests of opsets 18-22, which Debian's libonnx-testdata
# (1.12) predates.
ortq_probe = subprocess.run(
    [ortq_python, "-c", "import os, onnx, onnxruntime.quantization; print(os.path."
     "join(os.path.dirname(onnx.__file__), 'backend', 'test', 'data'))"],
    capture_output=True, text=True) if os.path.exists(ortq_python) else None
ortq_testdata = ""
if ortq_probe and ortq_probe.returncode == 0:
    config.available_features.add("ortq")
    ortq_testdata = ortq_probe.stdout.strip()
    if os.path.isdir(os.path.join(ortq_testdata, "node")):
        config.available_features.add("onnx-testdata-ortq")
else:
    lit_config.note("onnxruntime.quantization not importable by %s: tests "
                    "against ONNX Runtime's quantizer are unsupported (run "
                    "the README's setup command)" % ortq_python)
config.substitutions.append(("%ortq-testdata", ortq_testdata or "/nonexistent"))

if python_can_import("onnxruntime"):
    config.available_features.add("ort")
else:
    lit_config.note("onnxruntime not importable by %s: ORT tests are "
                    "unsupported (run the README's setup command)" % python)
if os.path.isdir(zoo):
    config.available_features.add("zoo")
else:
    lit_config.note("model zoo not found at %s: zoo tests are unsupported "
                    "(set ONNX_QUANT_ZOO)" % zoo)
if os.path.isdir(os.path.join(testdata, "node")):
    config.available_features.add("onnx-testdata")
else:
    lit_config.note("libonnx-testdata not installed: node-test checks are "
                    "unsupported")

import shutil
if shutil.which("aarch64-linux-gnu-gcc") and shutil.which("qemu-aarch64"):
    config.available_features.add("aarch64-cross")
else:
    lit_config.note("aarch64-linux-gnu-gcc or qemu-aarch64 missing: AArch64 "
                    "execution tests are unsupported (run scripts/setup.sh)")

if shutil.which("chromium"):
    config.available_features.add("chromium")
else:
    lit_config.note("chromium missing: the HTML report's browser tests are "
                    "unsupported (scripts/setup.sh installs it)")
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
else:
    lit_config.note("valgrind missing: memory-safety tests are unsupported")

def gcc_links_tsan():
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        return subprocess.call(["gcc", "-fsanitize=thread", src, "-o",
                                os.path.join(tmp, "t")],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL) == 0


if shutil.which("gcc") and gcc_links_tsan():
    config.available_features.add("tsan")
else:
    lit_config.note("gcc cannot link ThreadSanitizer programs: the threaded "
                    "runs are not also checked under it")

if shutil.which("make"):
    config.available_features.add("make")
else:
    lit_config.note("make missing: Unix Makefiles generator tests are unsupported")

# The host runs AVX-512 VNNI code (and AVX-512 code without VNNI).
try:
    cpu_flags = open("/proc/cpuinfo").read().split()
except OSError:
    cpu_flags = []
if "avx512_vnni" in cpu_flags and "avx512bw" in cpu_flags:
    config.available_features.add("avx512-vnni")
else:
    lit_config.note("the host has no AVX-512 VNNI: the tests that run VNNI "
                    "code are unsupported")
if "avx512vbmi" in cpu_flags and "avx512bw" in cpu_flags:
    config.available_features.add("avx512-vbmi")
else:
    lit_config.note("the host has no AVX-512 VBMI: the tests that run its "
                    "table lookups are unsupported")
if "amx_int8" in cpu_flags and "amx_tile" in cpu_flags:
    config.available_features.add("amx")
else:
    lit_config.note("the host has no AMX-INT8: the tests that run AMX tiles "
                    "are unsupported")

if os.path.exists("/usr/include/jpeglib.h"):
    config.available_features.add("libjpeg")
else:
    lit_config.note("libjpeg-dev missing: examples/image-classifier tests are "
                    "unsupported (run scripts/setup.sh)")

# Pass through what the tools and scripts need.
for var in ["HOME", "TMPDIR", "ONNX_QUANT_ZOO"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

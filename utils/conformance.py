#!/usr/bin/env python3
"""Compile and run the ONNX backend test cases natively; write a conformance page.

Cases are the folders holding `model.onnx` and `test_data_set_*` under
--data/{node,pytorch-converted,pytorch-operator,simple} (Debian package
libonnx-testdata). A case is *in scope* when every op type of its graph and
subgraphs is in `TOOL --print-supported-ops`. Each in-scope case is

  1. compiled:  TOOL model.onnx --emit=obj -o W/onnxq_case.o --entry=onnxq_case
     (timeout --timeout, 120 s; address space capped at --mem-limit, 4096 MB, so
     a runaway compilation fails instead of exhausting the machine; it also
     writes W/onnxq_case.h),
  2. linked with the generic runner (tools/onnx-quant-runner/runner.c):
     cc -std=c99 -O0 -DONNXQ_MODEL=onnxq_case -include W/onnxq_case.h runner.c
        W/onnxq_case.o -o W/run -lm
     (-O0: the runner only reads files and compares; the model code is in the
     object, so this changes nothing measured and saves about 0.5 s a case),
  3. run on every test_data_set_N:
     W/run --input-dir SET --expect-dir SET --rtol R --atol A  (timeout 60 s).

Tolerances are rtol 1e-4 / atol 1e-5 (the runner's defaults) unless an op of the
case is in TOLERANCES below, which says why it is looser; a case takes the
loosest bound of its ops. A case passes when every data set matches. Otherwise
the reason is the compiler's first `error:` line, the runner's first FAIL line
(worst difference) or error line, a crash signal or a timeout.

The Markdown page (--out) holds the command, a summary (in scope, passed,
rate), the failures grouped by kind, a per-op table (passed / failed / out of
scope cases using the op) and every case: failures one per row, passes and
out-of-scope cases as grouped lists. Exit status 1 when the pass rate of the
in-scope cases is below --min-rate (default 0.95) or nothing is in scope, 2 on
bad usage. --filter REGEX keeps only the cases whose `suite/name` matches (then
the page covers only those); --min-opset N keeps only the cases whose model
imports ai.onnx opset N or newer (the newer test data of onnx 1.17's wheel, in
.venv-ortq, with --min-opset 18: the opsets 18-22 forms). --keep DIR keeps each case's object, header and
runner in DIR/<suite>/<case> instead of a temporary folder.

Run:  .venv/bin/python utils/conformance.py --tool build/bin/onnx-quant-opt \\
          --runner tools/onnx-quant-runner/runner.c --out docs/conformance.md \\
          [--data /usr/share/libonnx-testdata/data] [--min-rate 0.95] [-j 2] \\
          [--filter REGEX] [--min-opset N] [--keep DIR]
"""

import argparse
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import onnx

from import_survey import graph_op_types, md_escape
from frozen_inputs import (compile_freezing_inputs, data_sets_without,
                           unsupported_types)
from tool_check import diagnostic_line, with_memory_limit

DEFAULT_DATA = Path("/usr/share/libonnx-testdata/data")
SUITES = ("node", "pytorch-converted", "pytorch-operator", "simple")
ENTRY = "onnxq_case"
DEFAULT_RTOL, DEFAULT_ATOL = 1e-4, 1e-5
RUN_TIMEOUT = 60.0
CC_TIMEOUT = 120.0

# Looser bounds, per op type: {op: (rtol, atol, why)}. Only ops whose exact
# results cannot be expected from a float32 kernel belong here, with the
# difference that was measured. Empty: every case is held to rtol 1e-4 /
# atol 1e-5. Measured with rtol 0 / atol 0 on the passing cases (LLVM 22
# build, x86-64): the largest relative differences of the transcendental ops
# are Exp 1.1e-7, Log 1.6e-7, Sigmoid 1.2e-7, Tanh 2.2e-7, Erf 2.2e-7,
# Softmax 3.5e-7, BatchNormalization 3.7e-6, i.e. 25x or more below 1e-4; the
# largest over all passing cases is Conv with groups, |diff| 1.8e-7 on a value
# near zero (covered by atol).
TOLERANCES = {
}

# Cases whose expected outputs cannot be reproduced by any implementation:
# Dropout in training mode draws a random mask (numpy's generator when the
# data was made); onnx 1.17's int8 QLinearMatMul data was made by a reference
# that overflows: ONNX Runtime 1.24 differs from it in the same elements (1 of
# 6 in 2-D, 4 of 12 in 3-D) and our objects give ONNX Runtime's integers
# exactly. They are listed on the page but not counted in scope.
QLINEARMATMUL_INT8 = ("expected outputs overflow int8 in onnx's reference; ONNX "
                      "Runtime 1.24 disagrees with them and agrees with us")
# onnx 1.17's reference, for align_corners with scales below 1, divides by
# scale * in - 1 instead of the output length less one; ONNX Runtime 1.24
# gives [1, 4] where it expects [1, 3.14] (linear) and our objects give ONNX
# Runtime's values exactly (checked on both cases).
ALIGN_CORNERS_DOWNSAMPLE = ("onnx's reference divides by scale * in - 1, not by "
                            "the output length - 1; ONNX Runtime 1.24 disagrees "
                            "with it and agrees with us exactly")
# onnx 1.12's window function data (expanded forms): ONNX Runtime 1.24 differs
# from it by up to 7.4e-5, our objects by at most 6e-8 from ONNX Runtime.
WINDOW_REFERENCE = ("expected outputs differ from ONNX Runtime 1.24 by up to 7.4e-5; "
                    "ours are within 6e-8 of ONNX Runtime's")
# The generator truncates float32 to bfloat16; ONNX Runtime (and LLVM's
# fptrunc, which our objects use) round to nearest even: our 12 values equal
# ONNX Runtime's Cast to bfloat16 and back.
BFLOAT16_TRUNCATED = ("expected outputs truncate to bfloat16; ONNX Runtime 1.24 "
                      "rounds to nearest even, as we do (all 12 values equal)")
NOT_COMPARABLE = {
    **{f"node/test_qlinearmatmul_{d}_int8_{t}": QLINEARMATMUL_INT8
       for d in ("2D", "3D") for t in ("float16", "float32")},
    "node/test_training_dropout": "random mask (training_mode input true)",
    "node/test_training_dropout_default": "random mask (training_mode input true)",
    "node/test_training_dropout_mask": "random mask (training_mode input true)",
    "node/test_training_dropout_default_mask": "random mask (training_mode input true)",
    "node/test_resize_downsample_scales_linear_align_corners": ALIGN_CORNERS_DOWNSAMPLE,
    "node/test_resize_downsample_scales_cubic_align_corners": ALIGN_CORNERS_DOWNSAMPLE,
    "node/test_averagepool_3d_dilations_large_count_include_pad_is_1_ceil_mode_is_True":
        "expected outputs differ from ONNX Runtime 1.24 by up to 0.064 in "
        "ceil_mode's partial last windows; ours equal ONNX Runtime's exactly "
        "(all 729 values)",
    **{f"node/test_{w}window{s}_expanded": WINDOW_REFERENCE
       for w in ("hann", "hamming", "blackman") for s in ("", "_symmetric")},
    "node/test_cast_FLOAT_to_BFLOAT16": BFLOAT16_TRUNCATED,
    "node/test_castlike_FLOAT_to_BFLOAT16_expanded": BFLOAT16_TRUNCATED,
}

# Failure kinds of compiler errors, first match wins (see classify_compile_error).
COMPILE_KINDS = (
    ("import: opset older than 7", r"older than the oldest supported opset"),
    ("import: unsupported tensor type", r"type onnx-quant does not support|"
     r"is not a tensor|gave no tensor type"),
    ("import: run-time input the dialect needs constant",
     r"must be a constant or computed from shapes"),
    ("import: unsupported attribute value", r"is not supported \(the dialect has "
     r"opset 17 semantics\)|dilations other than 1 are not supported"),
    ("codegen: op not lowered yet", r"has no lowering to native code"),
    ("codegen: unsupported attribute/form", r"failed to legalize operation"),
)


@dataclass
class Result:
    name: str                   # "suite/case"
    ops: set
    status: str = "passed"      # passed | failed
    kind: str = ""              # failure kind, see classify()
    reason: str = ""
    sets: int = 0               # data sets run
    seconds: float = 0.0
    frozen: list = field(default_factory=list)  # graph inputs made constants


@dataclass
class Case:
    name: str
    folder: Path
    ops: set = field(default_factory=set)
    missing: set = field(default_factory=set)
    opset: int = 0
    types: set = field(default_factory=set)  # unsupported element types used


def default_opset(model):
    """The ai.onnx opset `model` imports (0 when none)."""
    return next((o.version for o in model.opset_import
                 if o.domain in ("", "ai.onnx")), 0)


def supported_ops(tool):
    out = subprocess.run([str(tool), "--print-supported-ops"], check=True,
                         capture_output=True, text=True, timeout=60).stdout
    ops = set()
    for line in out.splitlines():
        words = line.split()
        if not words:
            continue
        domain = words[1] if len(words) > 1 else ""
        ops.add(words[0] if domain in ("", "ai.onnx", "com.microsoft")
                else f"{domain}.{words[0]}")
    return ops


def find_cases(data, suites, pattern):
    cases = []
    for suite in suites:
        for model in sorted((data / suite).glob("*/model.onnx")):
            name = f"{suite}/{model.parent.name}"
            if pattern and not re.search(pattern, name):
                continue
            if any(model.parent.glob("test_data_set_*")):
                cases.append(Case(name, model.parent))
    return cases


def first_line(text, marker):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if marker in ln:
            return ln
    return lines[0] if lines else ""


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def run(cmd, timeout, mem_mb=0):
    """Return (returncode or None on timeout, stdout, stderr)."""
    try:
        p = subprocess.run(with_memory_limit(cmd, mem_mb), stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", ""
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def tolerance(ops):
    rtol, atol = DEFAULT_RTOL, DEFAULT_ATOL
    for op in ops:
        if op in TOLERANCES:
            rtol, atol = max(rtol, TOLERANCES[op][0]), max(atol, TOLERANCES[op][1])
    return rtol, atol


def compile_and_run(case, args, work):
    """Compile, link and run one case in folder `work`; fill a Result."""
    res = Result(case.name, case.ops)
    start = time.monotonic()
    obj, header, exe = work / f"{ENTRY}.o", work / f"{ENTRY}.h", work / "run"

    def fail(kind, reason):
        res.status, res.kind = "failed", kind
        res.reason = reason.replace(str(case.folder) + "/", "").replace(str(work) + "/", "")
        res.seconds = time.monotonic() - start
        return res

    # A graph input that must be a compile-time constant is frozen to the
    # test's value and the case compiled again (frozen_inputs.py).
    def compile_model(path):
        rc, _, err = run([str(args.tool), str(path), "--emit=obj", "-o", str(obj),
                          f"--entry={ENTRY}"], args.timeout, args.mem_limit)
        return (rc, err), (diagnostic_line(err) if rc and rc > 0 else None)

    (rc, err), model, frozen, res.frozen = compile_freezing_inputs(
        compile_model, case.folder, work)
    line = diagnostic_line(err) if rc else ""
    if rc is None:
        return fail("compile timeout", f"compile: timeout after {args.timeout:g} s")
    if rc < 0:
        return fail("compile crash", f"compile: crashed ({signal_name(rc)}): "
                    + diagnostic_line(err).replace(str(model), "model.onnx"))
    if rc != 0:
        line = (line or f"compile: exit status {rc}").replace(str(model), "model.onnx")
        note = condensed_note(err) if "failed to legalize" in line else ""
        return fail(classify_compile_error(line), line + (f" [{note}]" if note else ""))
    if not obj.exists() or not header.exists():
        return fail("compile crash", "compile: exit 0 but no object or header written")

    rc, out, err = run([args.cc, "-std=c99", "-O0", f"-DONNXQ_MODEL={ENTRY}",
                        "-include", str(header), str(args.runner), str(obj),
                        "-o", str(exe), "-lm"], CC_TIMEOUT)
    if rc != 0:
        why = "timeout" if rc is None else diagnostic_line(err + out)
        undefined = sorted(set(re.findall(r"undefined reference to `([^']+)'", err)))
        if undefined:
            why = "undefined symbols in the object: " + ", ".join(undefined)
        return fail("link error", f"cc: {why}")

    rtol, atol = tolerance(case.ops)
    for data_set in data_sets_without(case.folder, frozen, work):
        rc, out, err = run([str(exe), "--input-dir", str(data_set), "--expect-dir",
                            str(data_set), "--rtol", f"{rtol:g}", "--atol", f"{atol:g}"],
                           RUN_TIMEOUT)
        res.sets += 1
        where = data_set.name
        if rc is None:
            return fail("run timeout", f"{where}: timeout after {RUN_TIMEOUT:g} s")
        if rc < 0:
            return fail("run crash", f"{where}: crashed ({signal_name(rc)})")
        if rc == 1:
            return fail("numeric mismatch", f"{where}: " + first_line(out, "FAIL"))
        if rc != 0:
            return fail("run error", f"{where}: " + diagnostic_line(err + out))
    res.seconds = time.monotonic() - start
    return res


def classify_compile_error(line):
    """Failure kind of a compiler error line (see KINDS)."""
    for kind, pattern in COMPILE_KINDS:
        if re.search(pattern, line):
            return kind
    return "compile: other error (verifier, internal)"


def condensed_note(stderr):
    """The 'see current operation' note of a legalization error, shortened to
    the op, its attributes and types (SSA names dropped), or ''."""
    m = re.search(r"note: see current operation: (.+)", stderr)
    if not m or not m.group(1).strip():
        return ""
    op = re.sub(r"^%[\w#:]+ = ", "", m.group(1).strip())
    op = re.sub(r'^"([\w.]+)"\([^)]*\)', r"\1", op)
    return op if len(op) <= 300 else op[:297] + "..."


def check_case(case, args):
    safe = case.name.replace("/", "__")
    if args.keep:
        work = args.keep / case.name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        return compile_and_run(case, args, work)
    with tempfile.TemporaryDirectory(prefix=f"onnxq-conf-{safe[:40]}-") as tmp:
        return compile_and_run(case, args, Path(tmp))


def collapse(names, limit=40):
    """Comma list of case names, shortened to `limit` entries."""
    names = sorted(names)
    text = ", ".join(f"`{n}`" for n in names[:limit])
    if len(names) > limit:
        text += f", ... and {len(names) - limit} more"
    return text


def op_table(cases, results, supported):
    """Rows (op, passed, failed, out of scope) for every op used by a case."""
    counts = defaultdict(lambda: [0, 0, 0])
    for case in cases:
        r = results.get(case.name)
        if r is None and not (case.missing or case.types):
            continue  # not compared
        for op in case.ops:
            if r is None:
                counts[op][2] += 1
            elif r.status == "passed":
                counts[op][0] += 1
            else:
                counts[op][1] += 1
    sup = sorted((op for op in counts if op in supported), key=str.lower)
    unsup = sorted((op for op in counts if op not in supported), key=str.lower)
    return [(op, *counts[op]) for op in sup], [(op, counts[op][2]) for op in unsup]


def write_page(path, command, data, cases, results, unreadable, supported, min_opset=0):
    in_scope = [c for c in cases if c.name in results]
    passed = [r for r in results.values() if r.status == "passed"]
    failed = sorted((r for r in results.values() if r.status != "passed"),
                    key=lambda r: (r.kind, r.name))
    rate = len(passed) / len(in_scope) if in_scope else 0.0
    frozen = sorted((r for r in passed if r.frozen), key=lambda r: r.name)
    typed_out = [c for c in cases if c.types and not c.missing]
    lines = [
        "# Conformance: ONNX backend test cases compiled to native code"
        + (f" (opsets {min_opset} and newer)" if min_opset else ""),
        "",
        f"Generated by `{command}` (onnx {onnx.__version__} test data in `{data}`).",
        "",
        "A case is in scope when every op type of its graph (and subgraphs) is in "
        "`onnx-quant-opt --print-supported-ops`. Each in-scope case is compiled with "
        "`--emit=obj`, linked with `tools/onnx-quant-runner/runner.c` and run on every "
        "`test_data_set_*` with `--expect-dir` at rtol "
        f"{DEFAULT_RTOL:g} / atol {DEFAULT_ATOL:g}"
        + (", except: " + "; ".join(f"{op} rtol {r:g} atol {a:g} ({why})"
                                    for op, (r, a, why) in sorted(TOLERANCES.items()))
           if TOLERANCES else "")
        + ". A case passes when every data set matches. The supported-ops list is "
        "what the importer accepts; an op that imports but has no native lowering "
        "yet fails as *codegen: op not lowered yet*.",
        "",
        f"**In scope: {len(in_scope)} of {len(cases)} cases; passed {len(passed)} "
        f"({rate:.1%}); failed {len(failed)}.**"
        + (f" {len(frozen)} of the passes needed a graph input frozen to the test's "
           f"value (see *Passed with frozen inputs*): without them, "
           f"{len(passed) - len(frozen)} ({(len(passed) - len(frozen)) / len(in_scope):.1%})."
           if frozen and in_scope else "")
        + (f" Out of scope for element types alone (their ops are supported): "
           f"{len(typed_out)}." if typed_out else ""),
        "",
        "A case is also out of scope when its graph's inputs, outputs, initializers "
        "or Cast targets use an element type the dialect does not have (float8, "
        "int4, string) or a non-tensor value. A compile error saying input #k of a "
        "node must be a constant (Reduce* axes, Pad pads, Resize scales: onnx's "
        "generators make them graph inputs to vary them) freezes that graph input "
        "to the value of the case's data sets, when all agree, and compiles again, "
        "as onnx-mlir's backend tests do (`CONSTANT_INPUT`).",
        "",
        "| suite | cases | in scope | passed | failed |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for suite in SUITES:
        sc = [c for c in cases if c.name.startswith(suite + "/")]
        if not sc:
            continue
        si = [results[c.name] for c in sc if c.name in results]
        sp = sum(r.status == "passed" for r in si)
        lines.append(f"| {suite} | {len(sc)} | {len(si)} | {sp} | {len(si) - sp} |")

    lines += ["", "## Failures by kind", ""]
    kinds = Counter(r.kind for r in failed)
    if kinds:
        lines += ["| kind | cases |", "| --- | ---: |"]
        lines += [f"| {k} | {n} |" for k, n in kinds.most_common()]
    else:
        lines.append("None.")

    rows, unsup = op_table(cases, results, supported)
    lines += ["", "## Per op", "",
              "Cases using the op (a case counts for every op it uses). *Out of scope*: "
              "cases that use the op but also an unsupported op.", "",
              "| op | passed | failed | out of scope |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {op} | {p} | {f} | {o} |" for op, p, f, o in rows]
    lines += ["", "Unsupported op types (cases using them): "
              + ", ".join(f"{op} ({n})" for op, n in unsup) + "."]

    lines += ["", "## Failed cases", "",
              "Sorted by kind; cases failing with the same reason share a row. "
              "Locations `model.onnx:0:0` are the compiler's.", ""]
    if failed:
        same = defaultdict(list)
        for r in failed:
            same[(r.kind, r.reason)].append(r.name)
        lines += ["| case | kind | reason |", "| --- | --- | --- |"]
        lines += [f"| {collapse(names, 1000)} | {kind} | {md_escape(reason)} |"
                  for (kind, reason), names in sorted(same.items())]
    else:
        lines.append("None.")

    if frozen:
        lines += ["", "## Passed with frozen inputs", "",
                  "| case | graph inputs made constants |", "| --- | --- |"]
        lines += [f"| `{r.name}` | {', '.join(f'`{n}`' for n in r.frozen)} |"
                  for r in frozen]

    lines += ["", "## Passed cases", ""]
    by_suite = defaultdict(list)
    for r in passed:
        suite, name = r.name.split("/", 1)
        by_suite[suite].append(name)
    for suite in SUITES:
        if by_suite[suite]:
            lines.append(f"- {suite} ({len(by_suite[suite])}): "
                         + collapse(by_suite[suite], limit=10**6))
    if not passed:
        lines.append("None.")

    lines += ["", "## Out of scope, by missing op types", ""]
    groups = defaultdict(list)
    for c in cases:
        if c.missing and c.name not in unreadable:
            groups[tuple(sorted(c.missing))].append(c.name)
    for missing, names in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- {', '.join(missing)} ({len(names)}): {collapse(names, 12)}")
    if not groups:
        lines.append("None.")
    type_groups = defaultdict(list)
    for c in typed_out:
        type_groups[tuple(sorted(c.types))].append(c.name)
    if type_groups:
        lines += ["", "## Out of scope, by element types the dialect lacks", ""]
        for types, names in sorted(type_groups.items(),
                                   key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"- {', '.join(types)} ({len(names)}): {collapse(names, 12)}")
    comparable = [c.name for c in cases if c.name in NOT_COMPARABLE and not c.missing]
    if comparable:
        lines += ["", "## Not compared (expected outputs no implementation reproduces)", ""]
        lines += [f"- `{n}`: {NOT_COMPARABLE[n]}" for n in sorted(comparable)]
    if unreadable:
        lines += ["", f"## Not readable by onnx {onnx.__version__}", ""]
        lines += [f"- `{n}`: {md_escape(e)}" for n, e in sorted(unreadable.items())]

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(path)
    return len(in_scope), len(passed), rate


def main():
    ap = argparse.ArgumentParser(
        description="Compile and run the ONNX backend test cases with onnx-quant.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--tool", required=True, type=Path, help="onnx-quant-opt binary")
    ap.add_argument("--runner", required=True, type=Path, help="runner.c")
    ap.add_argument("--out", required=True, type=Path, help="Markdown page to write")
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"({DEFAULT_DATA})")
    ap.add_argument("--min-rate", type=float, default=0.95, help="fail below (0.95)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="parallel cases (2)")
    ap.add_argument("--filter", default=None, metavar="REGEX",
                    help="only cases whose 'suite/name' matches")
    ap.add_argument("--min-opset", type=int, default=0, metavar="N",
                    help="only cases whose model imports ai.onnx opset N or newer")
    ap.add_argument("--keep", type=Path, default=None, metavar="DIR",
                    help="keep build folders in DIR/<suite>/<case>")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds per compilation (120)")
    ap.add_argument("--cc", default="cc", help="C compiler for the runner (cc)")
    ap.add_argument("--mem-limit", type=int, default=4096, metavar="MB",
                    help="address-space cap of each compilation (4096; 0: none)")
    args = ap.parse_args()

    if not args.data.is_dir():
        print(f"error: no test data at {args.data} (apt-get install libonnx-testdata)",
              file=sys.stderr)
        return 2
    for f, what in ((args.tool, "tool"), (args.runner, "runner")):
        if not f.is_file():
            print(f"error: {what} not found: {f}", file=sys.stderr)
            return 2
    if shutil.which(args.cc) is None:
        print(f"error: C compiler not found: {args.cc}", file=sys.stderr)
        return 2
    args.tool, args.runner = args.tool.resolve(), args.runner.resolve()
    if args.keep:
        args.keep = args.keep.resolve()
    command = "utils/conformance.py " + shlex.join(sys.argv[1:])
    supported = supported_ops(args.tool)

    start = time.monotonic()
    cases = find_cases(args.data, SUITES, args.filter)
    unreadable = {}
    for case in cases:
        try:
            model = onnx.load(str(case.folder / "model.onnx"))
        except Exception as e:  # protobuf decode errors and the like
            unreadable[case.name] = str(e).splitlines()[0] if str(e) else type(e).__name__
            continue
        case.opset = default_opset(model)
        case.ops = graph_op_types(model.graph)
        case.missing = case.ops - supported
        case.types = unsupported_types(model.graph)
    if args.min_opset:
        cases = [c for c in cases if c.name in unreadable or c.opset >= args.min_opset]
    in_scope = [c for c in cases if not c.missing and not c.types
                and c.name not in unreadable and c.name not in NOT_COMPARABLE]

    results = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(lambda c: check_case(c, args), in_scope):
            results[r.name] = r
    elapsed = time.monotonic() - start

    n_in, n_ok, rate = write_page(args.out, command, args.data, cases, results,
                                  unreadable, supported, args.min_opset)
    kinds = Counter(r.kind for r in results.values() if r.status != "passed")
    print(f"in scope {n_in} of {len(cases)}, passed {n_ok} ({rate:.1%}); "
          f"{n_in - n_ok} failing"
          + (" (" + ", ".join(f"{k} {n}" for k, n in kinds.most_common()) + ")"
             if kinds else "")
          + f"; {elapsed:.0f} s with -j {args.jobs}; wrote {args.out}")
    slow = sorted(results.values(), key=lambda r: -r.seconds)[:3]
    if slow:
        print("slowest: " + ", ".join(f"{r.name} {r.seconds:.1f} s" for r in slow))
    if not n_in:
        print("error: no case is in scope", file=sys.stderr)
        return 1
    if rate < args.min_rate:
        print(f"error: pass rate {rate:.1%} is below --min-rate {args.min_rate:.1%}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

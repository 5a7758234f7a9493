"""Shared helpers for the scripts under utils/ and bench/ (not a script).

`diagnostic_line(stderr)` picks the line of a tool's stderr that says what went
wrong (also for crashes with a stack dump).
`with_memory_limit(cmd, mb)` caps a command's address space.
`import_and_reparse(tool, model)` runs `TOOL model.onnx -o TMP/x.mlir`, then
`TOOL TMP/x.mlir` (output discarded) to check that what the importer printed parses
back, and returns a `CheckResult` with the failing stage and the first `error:`
line of stderr (with the model path shortened to its file name and the temporary
file to `x.mlir`). Temporary files live in a private temp directory that is removed
afterwards.
"""

import re
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class CheckResult:
    ok: bool
    stage: str = ""       # "import" or "re-parse" when not ok
    reason: str = ""      # first `error:` line, or how the tool failed
    seconds: float = 0.0
    mlir_bytes: int = 0


def first_error_line(stderr):
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln
    return lines[0] if lines else ""


def diagnostic_line(text):
    """The most telling line of a tool's stderr: the first `error:` line, else
    an `LLVM ERROR:` or assertion line, else the first line that is not part of
    a stack dump; '' for empty text."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for pattern in (r"error:", r"LLVM ERROR|Assertion .* failed"):
        for ln in lines:
            if re.search(pattern, ln):
                return ln
    rest = [ln for ln in lines if not re.match(r"#\d+ |Stack dump|\d+\.\s", ln)]
    return (rest or lines or [""])[0]


def with_memory_limit(cmd, megabytes):
    """cmd run through `sh -c 'ulimit -v KB; exec ...'`, which caps its address
    space at `megabytes` (the same process, so its pid and rusage are the
    command's), so that a compiler whose memory runs away fails with an
    allocation error instead of pushing the machine into the OOM killer.
    cmd unchanged for 0. (No preexec_fn: callers run commands from threads.)"""
    if not megabytes:
        return list(cmd)
    return ["/bin/sh", "-c", f'ulimit -v {int(megabytes) * 1024} && exec "$@"', "sh",
            *map(str, cmd)]


def _run(cmd, timeout, short_names):
    """Run cmd; return None on success, else a one-line reason.

    short_names maps long paths (the model, the temp file) to the short names used
    in the reason, so that reports do not depend on where files live.
    """
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout:g} s"
    except OSError as e:
        return f"cannot run {cmd[0]}: {e.strerror}"
    stderr = proc.stderr.decode("utf-8", "replace")
    err = first_error_line(stderr)
    for long, short in short_names.items():
        err = err.replace(long, short)
    if proc.returncode < 0:
        try:
            sig = signal.Signals(-proc.returncode).name
        except ValueError:
            sig = f"signal {-proc.returncode}"
        return f"crashed ({sig})" + (f": {err}" if err else "")
    if proc.returncode != 0:
        return err or f"exit status {proc.returncode}, no message"
    return None


def import_and_reparse(tool, model, timeout=60.0):
    """Import `model` with `tool`, then re-parse the MLIR it wrote."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="onnxq-import-") as tmp:
        mlir = Path(tmp) / "x.mlir"
        names = {str(mlir): mlir.name, str(model): Path(model).name}
        reason = _run([str(tool), str(model), "-o", str(mlir)], timeout, names)
        if reason is None and not mlir.exists():
            reason = "exit status 0 but no output file written"
        if reason is not None:
            return CheckResult(False, "import", reason, time.monotonic() - start)
        size = mlir.stat().st_size
        reason = _run([str(tool), str(mlir)], timeout, names)
        if reason is not None:
            return CheckResult(False, "re-parse", reason, time.monotonic() - start, size)
        return CheckResult(True, seconds=time.monotonic() - start, mlir_bytes=size)

"""Test data for the onnx-quant runner (used by run_tests.sh).

  fixtures.py gen DIR            write all input/expected files under DIR
  fixtures.py check-fake DIR EXT check DIR/output_<i>.EXT written by run-fake
  fixtures.py check-types DIR EXT
                                 check DIR/output_<i>.EXT written by run-types
                                 (bitwise equal to the inputs)
  fixtures.py f16-line           print the values run-types --print should
                                 show for its float16 output

The fake models are in fake_model.c ("fake": y = x + k, n = 42) and
fake_types.c ("types": identity over every supported dtype).
"""
import os
import random
import struct
import sys

import numpy as np
import onnx
from onnx import numpy_helper

# ---------------------------------------------------------------- data

X = np.array([[0.5, -1.25, 2.0], [3.5, 4.0, -5.75]], dtype=np.float32)
K = np.array([1, -2, 3], dtype=np.int64)
Y = X + K.astype(np.float32)
N = np.array([42], dtype=np.uint8)

# "types" model: one input per dtype, in fake_types.c's order.
TYPES = [
    np.array([0, -1.5, 3.4028235e38, -np.inf, 1e-45, np.nan, 0.1, -0.0], np.float32),
    np.array([0, 1, 127, 128, 200, 255, 3, 4], np.uint8),
    np.array([-128, -1, 0, 1, 127, 5, -5, 42], np.int8),
    np.array([0, 65535, 1, 2, 300, 40000, 7, 8], np.uint16),
    np.array([-32768, 32767, -1, 0, 1, 2, 3, -300], np.int16),
    np.array([-2**31, 2**31 - 1, -1, 0, 1, 100000, -100000, 7], np.int32),
    np.array([-2**63, 2**63 - 1, -1, 0, 1, 2**40, -2**40, 7], np.int64),
    np.array([True, False, True, True, False, False, True, False]),
    np.array([1.5, -0.0, 6.1035156e-05, 5.9604645e-08, 65504, np.inf, -np.inf, np.nan],
             np.float16),
    np.array(-0.1, np.float64),
    np.array([0, 2**32 - 1, 1, 2, 3, 2**31, 5, 6], np.uint32),
    np.array([0, 2**64 - 1, 1, 2**63, 3, 4, 5, 6], np.uint64),
]

# ------------------------------------------------- protobuf by hand


def varint(v):
    v &= (1 << 64) - 1  # negative int64 -> 10-byte two's complement varint
    out = bytearray()
    while True:
        b, v = v & 0x7F, v >> 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def f_varint(field, v):
    return key(field, 0) + varint(v)


def f_len(field, payload):
    return key(field, 2) + varint(len(payload)) + payload


def f_fixed32(field, payload):
    return key(field, 5) + payload


def f_fixed64(field, payload):
    return key(field, 1) + payload


def unknown_fields():
    """One field of every wire type with numbers TensorProto does not use,
    plus doc_string (12): the reader must skip all of them."""
    return (f_varint(99, 2**40) + f_fixed64(100, b"\x01" * 8) + f_len(101, b"hello")
            + f_fixed32(102, b"\x02" * 4) + f_len(12, b"a doc string"))


# ---------------------------------------------------------------- helpers


def save_npy(path, arr, version=None):
    with open(path, "wb") as f:
        if version is None:
            np.save(f, arr)
        else:
            np.lib.format.write_array(f, arr, version=version)


def save_pb(path, arr, name, raw=True):
    if raw:
        t = numpy_helper.from_array(arr, name)
    else:
        dtype = onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[arr.dtype]
        # float16 stays an array: make_tensor then stores its bit patterns
        vals = arr.flatten() if arr.dtype == np.float16 else arr.flatten().tolist()
        t = onnx.helper.make_tensor(name, dtype, arr.shape, vals, raw=False)
        assert not t.raw_data
    write(path, t.SerializeToString())


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def load_any(path):
    if path.endswith(".npy"):
        return np.load(path), None
    t = onnx.load_tensor(path)
    return numpy_helper.to_array(t), t.name


def same_bits(a, b):
    return (a.dtype == b.dtype and a.shape == b.shape
            and a.tobytes() == b.tobytes())


def mkdir(*parts):
    path = os.path.join(*parts)
    os.makedirs(path, exist_ok=True)
    return path


# ------------------------------------------------------- fixtures: fake


def gen_npy(d):
    save_npy(f"{d}/x.npy", X)
    save_npy(f"{d}/k.npy", K)
    save_npy(f"{d}/y.npy", Y)
    save_npy(f"{d}/n.npy", N)
    save_npy(f"{d}/x_v2.npy", X, version=(2, 0))
    save_npy(f"{d}/x_v3.npy", X, version=(3, 0))
    save_npy(f"{d}/x_batch.npy", X.reshape(1, 2, 3))
    save_npy(f"{d}/y_batch.npy", Y.reshape(1, 2, 3))
    save_npy(f"{d}/x_shape.npy", X.reshape(3, 2))
    save_npy(f"{d}/x_count.npy", np.zeros((2, 4), np.float32))
    save_npy(f"{d}/y_shape.npy", Y.reshape(6))
    save_npy(f"{d}/x_f64.npy", X.astype(np.float64))
    save_npy(f"{d}/x_fortran.npy", np.asfortranarray(X))
    save_npy(f"{d}/x_be.npy", X.astype(">f4"))
    bad = Y.copy()
    bad[1, 2] += 0.5
    save_npy(f"{d}/y_bad.npy", bad)
    save_npy(f"{d}/y_close.npy", Y * np.float32(1.001))
    save_npy(f"{d}/n_bad.npy", np.array([43], np.uint8))
    # With --rtol 1e-3 --atol 0: [0,2] is off by 0.004 but within 5 * 1e-3,
    # [0,0] is off by only 0.002 but beyond 1.5 * 1e-3: the reported worst
    # element must be the failing one.
    worst = Y.copy()
    worst[0, 2] += np.float32(0.004)
    worst[0, 0] += np.float32(0.002)
    save_npy(f"{d}/y_worst.npy", worst)
    save_npy(f"{d}/y_zero.npy", np.zeros_like(Y))
    save_npy(f"{d}/n_zero.npy", np.zeros_like(N))
    # NaN and infinity: NaN must equal NaN, an infinity only itself.
    xn = X.copy()
    xn[0, 1] = np.nan
    xn[1, 0] = np.inf
    save_npy(f"{d}/x_nan.npy", xn)
    save_npy(f"{d}/y_nan.npy", xn + K.astype(np.float32))
    full = open(f"{d}/x.npy", "rb").read()
    write(f"{d}/x_trunc_data.npy", full[:-3])
    write(f"{d}/x_trunc_header.npy", full[:40])
    write(f"{d}/x_trunc_magic.npy", full[:5])
    write(f"{d}/x_trailing.npy", full + b"\0\0\0\0")
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1048576), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    write(f"{d}/x_huge.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header))
          + header.encode() + b"\0" * 24)
    write(f"{d}/x_garbage_header.npy", full[:10] + b"{'descr': <f4', " + full[26:])


def gen_pb_dirs(d):
    s = mkdir(d, "set0")  # an ONNX test_data_set_N folder
    save_pb(f"{s}/input_0.pb", X, "x")
    save_pb(f"{s}/input_1.pb", K, "k")
    save_pb(f"{s}/output_0.pb", Y, "y")
    save_pb(f"{s}/output_1.pb", N, "n")

    s = mkdir(d, "typed")  # float_data/int64_data/int32_data + unknown fields
    for name, arr, fname in (("x", X, "input_0"), ("k", K, "input_1"),
                             ("y", Y, "output_0"), ("n", N, "output_1")):
        save_pb(f"{s}/{fname}.pb", arr, name, raw=False)
        with open(f"{s}/{fname}.pb", "ab") as f:
            f.write(unknown_fields())

    s = mkdir(d, "manual")  # encodings the Python protobuf does not emit
    # packed dims, one unpacked fixed32 per float, unknown fields between
    x = (f_len(1, varint(2) + varint(3)) + f_varint(2, 1) + unknown_fields()
         + b"".join(f_fixed32(4, struct.pack("<f", v)) for v in X.flat)
         + f_len(8, b"x"))
    # int64_data split into a packed chunk and an unpacked element
    k = (f_varint(1, 3) + f_varint(2, 7)
         + f_len(7, varint(int(K[0])) + varint(int(K[1]))) + f_varint(7, int(K[2])))
    # fields out of the usual order: data first, dims last; two packed chunks
    floats = [struct.pack("<f", v) for v in Y.flat]
    y = (f_len(8, b"y") + f_len(4, b"".join(floats[:4])) + f_varint(2, 1)
         + f_len(4, b"".join(floats[4:])) + f_varint(1, 2) + f_varint(1, 3))
    n = f_varint(1, 1) + f_varint(2, 2) + f_varint(5, 42) + f_varint(14, 0)
    for fname, data, want in (("input_0", x, X), ("input_1", k, K),
                              ("output_0", y, Y), ("output_1", n, N)):
        write(f"{s}/{fname}.pb", data)
        got, _ = load_any(f"{s}/{fname}.pb")  # the bytes are valid protobuf
        assert same_bits(got, want), fname

    s = mkdir(d, "npydir")  # --input-dir falls back to .npy files
    save_npy(f"{s}/input_0.npy", X)
    save_npy(f"{s}/input_1.npy", K)
    save_npy(f"{s}/output_0.npy", Y)
    save_npy(f"{s}/output_1.npy", N)

    s = mkdir(d, "extra")  # one input too many
    for i, arr in enumerate((X, K, K)):
        save_pb(f"{s}/input_{i}.pb", arr, f"t{i}")

    s = mkdir(d, "missing")  # input_1.pb absent
    save_pb(f"{s}/input_0.pb", X, "x")


def gen_bad_pb(d):
    good = numpy_helper.from_array(X, "x").SerializeToString()
    write(f"{d}/x.pb", good)
    write(f"{d}/x_trunc.pb", good[:-5])
    write(f"{d}/x_trunc_varint.pb", b"\x08\x82")
    write(f"{d}/x_empty.pb", b"")
    save_pb(f"{d}/x_f64.pb", X.astype(np.float64), "x")
    save_pb(f"{d}/x_shape.pb", X.reshape(3, 2), "x")
    save_pb(f"{d}/x_batch.pb", X.reshape(1, 2, 3), "x")
    t = onnx.TensorProto()
    t.dims.extend([2, 3])
    t.data_type = onnx.TensorProto.FLOAT
    t.name = "x"
    t.data_location = onnx.TensorProto.EXTERNAL
    e = t.external_data.add()
    e.key, e.value = "location", "x.bin"
    write(f"{d}/x_external.pb", t.SerializeToString())
    strings = onnx.helper.make_tensor("x", onnx.TensorProto.STRING, [2, 3], [b"a"] * 6)
    write(f"{d}/x_string.pb", strings.SerializeToString())
    write(f"{d}/x_group.pb", f_varint(2, 1) + key(50, 3) + key(50, 4))
    write(f"{d}/x_rawlen.pb",
          f_varint(1, 2) + f_varint(1, 3) + f_varint(2, 1) + f_len(9, b"\0" * 20))
    write(f"{d}/x_both.pb", good + f_len(4, X.tobytes()))
    write(f"{d}/x_wrongfield.pb",
          f_varint(1, 2) + f_varint(1, 3) + f_varint(2, 1)
          + f_len(7, b"".join(varint(1) for _ in range(6))))
    write(f"{d}/x_count.pb",
          f_varint(1, 2) + f_varint(1, 3) + f_varint(2, 1) + f_len(4, X.tobytes()[:20]))
    write(f"{d}/x_nodata.pb", f_varint(1, 2) + f_varint(1, 3) + f_varint(2, 1))
    # dims far beyond the data (or beyond size_t) must fail before allocating
    write(f"{d}/x_huge.pb", f_varint(1, 2**40) + f_varint(1, 2**20) + f_varint(2, 1)
          + f_len(9, b"\0" * 4))
    write(f"{d}/x_overflow.pb", f_varint(1, 2**62) + f_varint(1, 16) + f_varint(2, 1))
    write(f"{d}/x_negdim.pb", f_varint(1, -1) + f_varint(2, 1) + f_len(9, b""))
    # complex64 (14): a dtype the runner does not support
    write(f"{d}/x_badtype.pb", f_varint(1, 6) + f_varint(2, 14) + f_len(9, b"\0" * 12))


def gen_fuzz(d, seeds, count):
    """Mutated copies of valid files: the runner must reject or accept each
    one cleanly (exit 0 or 2), never crash. The list goes to fuzz/list."""
    rng = random.Random(20240611)
    out = mkdir(d, "fuzz")
    names = []
    for seed in seeds:
        data = open(seed, "rb").read()
        ext = os.path.splitext(seed)[1]
        for i in range(count):
            b = bytearray(data)
            for _ in range(rng.randint(1, 3)):
                op = rng.randrange(5)
                pos = rng.randrange(len(b) + 1)
                if op == 0:
                    del b[pos:]
                elif op == 1 and b:
                    b[min(pos, len(b) - 1)] = rng.randrange(256)
                elif op == 2:
                    b[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 12)))
                elif op == 3 and b:
                    b[min(pos, len(b) - 1)] ^= 1 << rng.randrange(8)
                else:
                    b[pos:pos] = b[pos:pos + rng.randint(1, 16)]
            name = f"{out}/{os.path.basename(seed)[:-len(ext)]}_{i:03d}{ext}"
            write(name, bytes(b))
            names.append(name)
    with open(f"{out}/list", "w") as f:
        f.write("\n".join(names) + "\n")


# ------------------------------------------------------ fixtures: types


def gen_types(d):
    for sub in ("npy", "pb", "typed"):
        mkdir(d, sub)
    for i, arr in enumerate(TYPES):
        save_npy(f"{d}/npy/input_{i}.npy", arr)
        save_npy(f"{d}/npy/output_{i}.npy", arr)
        save_pb(f"{d}/pb/input_{i}.pb", arr, f"in_{i}")
        save_pb(f"{d}/pb/output_{i}.pb", arr, f"out_{i}")
        save_pb(f"{d}/typed/input_{i}.pb", arr, f"in_{i}", raw=False)
        save_pb(f"{d}/typed/output_{i}.pb", arr, f"out_{i}", raw=False)
        got, _ = load_any(f"{d}/typed/input_{i}.pb")
        assert same_bits(got, arr), arr.dtype
    # float16 off by one ulp at 1.5: only a correct half->double conversion
    # reports max_abs_diff 0.000977 (2^-10).
    f16 = TYPES[8].copy()
    f16.view(np.uint16)[0] += 1
    save_npy(f"{d}/f16_ulp.npy", f16)
    # int32 100000 -> 100001: within rtol 1e-4 as a float, so only the
    # exact-by-default rule for integers catches it.
    i32 = TYPES[5].copy()
    i32[5] += 1
    save_npy(f"{d}/int32_off.npy", i32)


# ----------------------------------------------------------- checks


def check_fake(d, ext):
    for i, (want, name) in enumerate(((Y, "y"), (N, "n"))):
        got, got_name = load_any(f"{d}/output_{i}.{ext}")
        if not same_bits(got, want):
            sys.exit(f"output_{i}.{ext}: got {got!r}, want {want!r}")
        if ext == "pb" and got_name != name:
            sys.exit(f"output_{i}.pb: name {got_name!r}, want {name!r}")


def check_types(d, ext):
    for i, want in enumerate(TYPES):
        got, got_name = load_any(f"{d}/output_{i}.{ext}")
        if not same_bits(got, want):
            sys.exit(f"output_{i}.{ext}: got {got!r} {got.dtype}, want {want!r}")
        if ext == "pb" and got_name != f"out_{want.dtype.name}":
            sys.exit(f"output_{i}.pb: name {got_name!r}")


def f16_line():
    print(" ".join("%.9g" % float(v) for v in TYPES[8]))


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "gen":
        d = argv[2]
        for sub in ("npy", "pb", "types"):
            mkdir(d, sub)
        gen_npy(f"{d}/npy")
        gen_pb_dirs(f"{d}/pb")
        gen_bad_pb(f"{d}/pb")
        gen_types(f"{d}/types")
        gen_fuzz(d, [f"{d}/npy/x.npy", f"{d}/pb/x.pb", f"{d}/pb/typed/input_0.pb",
                     f"{d}/pb/manual/input_0.pb", f"{d}/pb/manual/input_1.pb"],
                 int(os.environ.get("FUZZ_COUNT", "60")))
    elif cmd == "check-fake":
        check_fake(argv[2], argv[3])
    elif cmd == "check-types":
        check_types(argv[2], argv[3])
    elif cmd == "f16-line":
        f16_line()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

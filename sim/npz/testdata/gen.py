#!/usr/bin/env python3
"""Regenerate the numpy-written fixtures of package sim/npz.

    cd sim/npz/testdata && python3 gen.py

Needs only numpy (the committed files were written by numpy 2.4.6). The expected
values are spelled out again in ../npz_test.go; keep the two in step.
"""
import numpy as np

arrays = {
    "f8_0d": np.array(2.5),
    "f8_1d": np.array([0.5, -1.25, 3.0, 1e-300, -0.0]),
    "f8_2d": np.arange(6.0).reshape(2, 3) / 8,
    "f8_3d": np.arange(24.0).reshape(2, 3, 4) - 3.25,
    "f8_2d_fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3) / 8),
    "f8_3d_fortran": np.asfortranarray(np.arange(24.0).reshape(2, 3, 4) - 3.25),
    "f8_empty": np.zeros((0, 3)),
    "f8_special": np.array([np.inf, -np.inf, np.nan]),
    "f8_big_endian": np.array([1.5, -2.0], dtype=">f8"),
    "f4_1d": np.array([0.5, -2.0], dtype=np.float32),
    "i8_2d": np.array([[1, -2, 3], [2**53, -(2**40), 0]], dtype=np.int64),
    "i4_1d": np.array([7, -7], dtype=np.int32),
    "u1_1d": np.array([0, 255], dtype=np.uint8),
    "bool_1d": np.array([True, False, True]),
    "bool_2d_fortran": np.asfortranarray(np.array([[True, False], [False, False], [True, True]])),
    "ens/a/gain": np.array([1.0, 2.0]),  # keys may contain '/'
}

# numpy.savez: members stored uncompressed (and with zip64 extras).
np.savez("numpy.npz", **arrays)
# numpy.savez_compressed: members deflated.
np.savez_compressed("numpy_compressed.npz", **arrays)
# Arrays whose dtype has no float64 reading: Read must fail naming the key.
np.savez("complex.npz", z=np.array([1 + 2j]))
np.savez("string.npz", s=np.array(["ab", "c"]))
np.savez("object.npz", o=np.array([{"a": 1}, None], dtype=object))

#!/usr/bin/env python3
"""Writes sample.npy (a float32 matrix with ties, ±0, ±inf and NaN) and sample.expected,
numpy's answers for it in the example app's output format (argx's -1 for an all-NaN slice
under nan=ignore, where numpy's nanargmax raises)."""
import numpy as np

x = np.array([[1.0, 7.0, 7.0, -0.0, 0.0, 2.0],
              [np.nan, 0.0, 9.0, 9.0, np.nan, -1.0],
              [-np.inf, -np.inf, -5.0, -5.0, -6.0, -np.inf],
              [np.nan] * 6], dtype=np.float32)
np.save("sample.npy", x)
lines = [f"all dims: {np.argmax(x)}"]
for d in range(x.ndim):
    lines.append(f"dim {d}: " + " ".join(str(i) for i in np.argmax(x, axis=d)))
    slices = np.moveaxis(x, d, -1).reshape(-1, x.shape[d])
    ignore = [-1 if np.isnan(s).all() else int(np.nanargmax(s)) for s in slices]
    lines.append(f"dim {d} nan=ignore: " + " ".join(str(i) for i in ignore))
with open("sample.expected", "w") as fh:
    fh.write("\n".join(lines) + "\n")

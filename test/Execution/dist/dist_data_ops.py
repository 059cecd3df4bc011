"""The data-dependent operations of the `Dist` program builder
(dist_harness.py): sorts, gathers and scatters by index, masks, arg-reductions
and scans, each emitted as ndarray IR and evaluated with numpy."""

import numpy as np

from harness import NUMPY_OF, array_type
from dist_values import Val, is_complex, is_float, reduction_dtype


class DataDependentOps:
    """Mixin of `Dist`: uses its `op` to emit IR."""

    def sort(self, a, axis, descending=False, indices=False):
        """ndarray.sort / argsort: numpy's stable order, descending stable
        (equal elements keep their order, NaNs first)."""
        v = a.value
        if descending:
            n = v.shape[axis]
            order = n - 1 - np.flip(np.argsort(np.flip(v, axis), axis=axis,
                                               kind="stable"), axis)
        else:
            order = np.argsort(v, axis=axis, kind="stable")
        expected = order.astype(np.int64) if indices else \
            np.take_along_axis(v, order, axis)
        rdtype = "i64" if indices else a.dtype
        op = "argsort" if indices else "sort"
        flag = " descending" if descending else ""
        r = self.op(f"ndarray.{op} {a.name} axis {axis}{flag} : {a.type} -> "
                    f"{array_type(a.dims, rdtype)}")
        return Val(r, a.dims, rdtype, expected, a.exact)

    def take(self, a, idx, axis):
        expected = np.take(a.value, idx.value.astype(np.int64), axis=axis)
        dims = list(a.dims)
        dims[axis] = idx.dims[0]
        r = self.op(f"ndarray.take {a.name}[{idx.name}] axis {axis} : "
                    f"({a.type}, {idx.type}) -> {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, expected, a.exact)

    def put(self, a, idx, values, axis):
        """a[..., idx, ...] = values along `axis` (a copy; last write wins)."""
        expected = a.value.copy()
        for j, i in enumerate(idx.value.astype(np.int64)):
            at = [slice(None)] * expected.ndim
            at[axis] = i
            src = [slice(None)] * expected.ndim
            src[axis] = j
            expected[tuple(at)] = values.value[tuple(src)]
        r = self.op(f"ndarray.put {values.name} into {a.name}[{idx.name}] "
                    f"axis {axis} : ({values.type}, {a.type}, {idx.type}) -> "
                    f"{array_type(a.dims, a.dtype)}")
        return Val(r, a.dims, a.dtype, expected, a.exact and values.exact)

    def searchsorted(self, s, v, right=False):
        expected = np.searchsorted(s.value, v.value,
                                   side="right" if right else "left")
        flag = " right" if right else ""
        r = self.op(f"ndarray.searchsorted {s.name}, {v.name}{flag} : "
                    f"({s.type}, {v.type}) -> {array_type(v.dims, 'i64')}")
        return Val(r, v.dims, "i64", expected.astype(np.int64),
                   s.exact and v.exact)

    def flip(self, a, axes):
        r = self.op(f"ndarray.flip {a.name} [{', '.join(map(str, axes))}] : "
                    f"{a.type} -> {a.type}")
        return Val(r, a.dims, a.dtype, np.flip(a.value, tuple(axes)).copy(),
                   a.exact)

    def masked_select(self, a, mask):
        expected = a.value[mask.value]
        dims = [None] + a.dims[mask.ndim:]
        r = self.op(f"ndarray.masked_select {a.name}[{mask.name}] : {a.type}, "
                    f"{mask.type} -> {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, expected, a.exact)

    def argreduce(self, kind, a, axis=None, keepdims=False):
        f = np.argmax if kind == "max" else np.argmin
        expected = np.asarray(f(a.value, axis=axis, keepdims=keepdims),
                              np.int64)
        dims = []
        for i, d in enumerate(a.dims):
            if axis is not None and i != axis:
                dims.append(d)
            elif keepdims:
                dims.append(1)
        attrs = "" if axis is None else f" axis {axis}"
        attrs += " keepdims" if keepdims else ""
        r = self.op(f"ndarray.argreduce {kind} {a.name}{attrs} : {a.type} -> "
                    f"{array_type(dims, 'i64')}")
        return Val(r, dims, "i64", expected, a.exact)

    def cumulative(self, kind, a, axis, include_initial=False):
        rdtype = reduction_dtype(kind, a.dtype)
        scan = np.cumsum if kind == "sum" else np.cumprod
        with np.errstate(all="ignore"):
            expected = scan(a.value, axis=axis, dtype=NUMPY_OF[rdtype])
        dims = list(a.dims)
        if include_initial:
            shape = list(expected.shape)
            shape[axis] = 1
            initial = np.full(shape, 0 if kind == "sum" else 1,
                              NUMPY_OF[rdtype])
            expected = np.concatenate([initial, expected], axis=axis)
            if dims[axis] is not None:
                dims[axis] += 1
        flag = " include_initial" if include_initial else ""
        r = self.op(f"ndarray.cumulative {kind} {a.name} axis {axis}{flag} : "
                    f"{a.type} -> {array_type(dims, rdtype)}")
        # Along dimension 0 each rank applies the total of the ranks before
        # it to its own scan: float rounding depends on the rank count.
        exact = a.exact and (axis != 0 or not (is_float(rdtype) or
                                               is_complex(rdtype)))
        return Val(r, dims, rdtype, expected, exact)

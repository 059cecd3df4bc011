"""Random numpy-style programs for the differential tester.

`generate(seed)` returns a program (see harness.py): a list of statements
over variables v0, v1, ... Each candidate statement is run in numpy (the
oracle, npxp.py) as soon as it is generated, so the generator knows every
variable's dtype, shape and values; a candidate is discarded if numpy
warns (overflow, division by zero, invalid values), raises, overflows an
integer (checked against a shadow run with every integer input widened to
int64), produces large or non-finite values, or writes to an array that
another variable may alias in a way imex does not promise to share
(imex's views are positive-step basic indexing; reshape, transposes,
negative steps, redistributions, ... may or may not alias: such variables
are never written to afterwards). Shape errors (bad broadcasting,
reshape, concatenation, indices out of range) become error statements
whose exception type imex must match.
"""

import random
import re
import warnings

import numpy as np

import npxp
from harness import literal

INTS = ["int8", "int16", "int32", "int64"]
UINTS = ["uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
DTYPES = ["bool"] + INTS + UINTS + FLOATS + COMPLEX
DIMS = [0, 1, 1, 2, 2, 3, 3, 4, 5, 5, 7, 8, 11, 13]
ERRORS = (IndexError, ValueError, TypeError)
VAR = re.compile(r"^v(\d+)$")

UNARY_F = ["abs", "negative", "positive", "square", "sqrt", "exp", "expm1",
           "log", "log1p", "log2", "log10", "sin", "cos", "tan", "asin",
           "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
           "erf", "floor", "ceil", "trunc", "round", "sign", "signbit",
           "isnan", "isinf", "isfinite", "reciprocal"]
UNARY_C = ["exp", "sin", "cos", "tanh", "square", "abs", "negative",
           "positive", "conj", "real", "imag", "isnan", "isfinite", "isinf",
           "sqrt", "sinh", "cosh", "tan", "acos", "asin", "atan", "asinh",
           "acosh", "atanh", "round", "sign", "expm1"]
UNARY_I = ["abs", "positive", "square", "sign", "floor", "ceil", "trunc",
           "round", "bitwise_invert", "isnan", "isfinite"]
UNARY_I_MATH = ["sin", "exp", "sqrt", "cos"]
BIN_ARITH = ["+", "-", "*"]
BIN_F = ["atan2", "hypot", "copysign", "logaddexp", "maximum", "minimum",
         "nextafter"]
CMP = ["<", "<=", ">", ">=", "==", "!="]


def kind(a):
    return np.asarray(a).dtype.kind


def valid_splits(ndim):
    s = [None]
    if ndim >= 1:
        s += [0]
    if ndim >= 2:
        s += [1, (0, 1)]
    if ndim >= 3:
        s += [2, (1, 2), (0, 2), (0, 1, 2)]
    return s


class Reject(Exception):
    pass


class Gen:
    def __init__(self, seed, nstmts=None):
        self.seed = seed
        self.r = random.Random(seed)
        self.nstmts = nstmts or self.r.randint(5, 16)
        self.stmts, self.err = [], []
        self.meta = {}      # var -> {"root": name, "unsafe": bool}
        # Variables computed with rounding that differs between libraries
        # in the last bits (fft, linalg routines, and what uses them): a
        # cast to an integer type could truncate 251 - 1 ulp to 250.
        self.inexact = set()
        self.count = 0
        self.reset()

    # --- execution in numpy ----------------------------------------------

    def reset(self):
        self.ns = npxp.namespace()
        self.wide = npxp.namespace()

        def widen(a, split=None):
            a = np.asarray(a)
            return a.astype(np.int64) if a.dtype.kind in "iu" else a
        self.wide["inp"] = widen

    def _exec(self, code, ns):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with np.errstate(all="raise"):
                exec(code, ns)

    def replay(self):
        self.reset()
        errs = set(self.err)
        for i, code in enumerate(self.stmts):
            if i in errs:
                continue
            self._exec(code, self.ns)
            self._exec(code, self.wide)

    def vars(self, pred=None):
        out = []
        for k, v in self.ns.items():
            if VAR.match(k) and isinstance(v, (np.ndarray, np.generic)):
                a = np.asarray(v)
                if pred is None or pred(a):
                    out.append(k)
        out.sort(key=lambda k: int(k[1:]))
        return out

    def check_state(self):
        for k in self.vars():
            a = np.asarray(self.ns[k])
            if a.size > 3000:
                raise Reject("too large")
            if a.dtype.kind in "fc":
                if not np.all(np.isfinite(a)):
                    raise Reject("non-finite")
                lim = 1e3 if a.dtype in (np.float16, np.complex64) else 1e5
                if a.size and np.max(np.abs(a)) > lim:
                    raise Reject("large")
            if a.dtype.kind in "iu":
                w = np.asarray(self.wide.get(k))
                if w.shape != a.shape:
                    raise Reject("shadow shape")
                if w.dtype.kind in "iub":
                    if not np.array_equal(a.astype(np.int64),
                                          w.astype(np.int64)):
                        raise Reject("integer overflow")
                if a.size and np.max(np.abs(a.astype(np.int64))) > 10 ** 6:
                    raise Reject("large int")

    def try_stmt(self, code, err=False):
        """Runs `code` in numpy; keeps it (True) or rolls back (False)."""
        before = set(self.vars())
        try:
            self._exec(code, self.ns)
        except ERRORS as ex:
            if err and not isinstance(ex, FloatingPointError):
                self.ns.pop("_e", None)
                self.stmts.append(code)
                self.err.append(len(self.stmts) - 1)
                return True
            self.replay()
            return False
        except Exception:  # noqa: BLE001 (warnings, overflow, ...)
            self.replay()
            return False
        if err:
            self.replay()
            return False
        try:
            self._exec(code, self.wide)
            self.check_state()
        except Exception:  # noqa: BLE001
            self.replay()
            return False
        self.stmts.append(code)
        new = set(self.vars()) - before
        for k in new:
            self.meta.setdefault(k, {"root": k, "unsafe": False})
        return True

    # --- helpers -------------------------------------------------------------

    def new(self):
        name = f"v{self.count}"
        return name

    def define(self, expr, view_of=None, safe=False):
        """A statement defining a new variable as `expr`; view_of: the
        variable it may alias (safe: a positive-step basic-indexing view)."""
        name = self.new()
        code = f"{name} = {expr}"
        if self.try_stmt(code):
            self.count += 1
            if "xp.fft." in expr or "xp.linalg." in expr or any(
                    re.search(rf"\b{v}\b", expr) for v in self.inexact):
                self.inexact.add(name)
            m = {"root": name, "unsafe": False}
            a = self.ns[name]
            if view_of is not None:
                root = self.meta[view_of]["root"]
                m = {"root": root,
                     "unsafe": not safe or self.meta[view_of]["unsafe"]}
            else:
                for k in self.vars():
                    if k != name and isinstance(a, np.ndarray) and \
                            np.may_share_memory(a, np.asarray(self.ns[k])):
                        m = {"root": self.meta[k]["root"], "unsafe": True}
                        break
            self.meta[name] = m
            if m["unsafe"]:
                self.meta[m["root"]] = dict(self.meta.get(m["root"], m),
                                            unsafe_group=True)
            return True
        return False

    def writable(self, k):
        a = self.ns[k]
        if not isinstance(a, np.ndarray) or a.ndim == 0 or \
                not a.flags.writeable:
            return False
        root = self.meta[k]["root"]
        for j in self.vars():
            mj = self.meta.get(j, {"root": j, "unsafe": True})
            if mj["root"] == root or np.may_share_memory(
                    a, np.asarray(self.ns[j])):
                if mj["unsafe"] or mj["root"] != root:
                    return False
        return not self.meta.get(root, {}).get("unsafe_group")

    def pick(self, pred=None):
        vs = self.vars(pred)
        return self.r.choice(vs) if vs else None

    def shape(self, ndim=None, maxsize=120):
        r = self.r
        if ndim is None:
            ndim = r.choice([0, 1, 1, 1, 2, 2, 2, 3, 3])
        while True:
            s = tuple(r.choice(DIMS) for _ in range(ndim))
            if int(np.prod(s)) <= maxsize:
                return s

    def data(self, shape, dtype):
        r = self.r
        n = int(np.prod(shape))
        k = np.dtype(dtype).kind
        if k == "b":
            vals = [r.random() < 0.5 for _ in range(n)]
        elif k == "u":
            vals = [r.randint(0, 6) for _ in range(n)]
        elif k == "i":
            vals = [r.randint(-5, 5) for _ in range(n)]
        elif k == "f":
            vals = [r.randint(-8, 8) / 2 for _ in range(n)]
        else:
            vals = [complex(r.randint(-4, 4) / 2, r.randint(-4, 4) / 2)
                    for _ in range(n)]
        return np.array(vals, dtype=dtype).reshape(shape)

    def input_expr(self, shape=None, dtype=None, split="random"):
        shape = self.shape() if shape is None else shape
        dtype = dtype or self.r.choice(DTYPES)
        if split == "random":
            split = self.r.choice(valid_splits(len(shape)))
        return f"inp({literal(self.data(shape, dtype))}, {split!r})"

    def scalar(self, k, nonneg=False):
        r = self.r
        if k == "b":
            return r.choice(["True", "False"])
        if k == "u" or (k == "i" and nonneg):
            return str(r.randint(0, 3))
        if k == "i":
            return str(r.randint(-3, 3))
        if k == "f":
            return r.choice(["0.5", "2.0", "-1.5", "1.0", "0.0", "3", "-2"])
        return r.choice(["(1+2j)", "(0.5-1j)", "2.0", "1j"])

    def key(self, shape, allow_int=True, positive=False):
        """A basic index for an array of `shape` (slices with any steps,
        integers, None, ...)."""
        r = self.r
        parts = []
        for n in shape:
            c = r.random()
            if allow_int and n > 0 and c < 0.15:
                parts.append(str(r.randint(-n, n - 1)))
            elif c < 0.3:
                parts.append(":")
            else:
                lo = r.choice(["", str(r.randint(-n - 1, n + 1))])
                hi = r.choice(["", str(r.randint(-n - 1, n + 1))])
                st = r.choice([1, 1, 2, 3] if positive else
                              [1, 2, 3, -1, -2, -3])
                parts.append(f"{lo}:{hi}" + (f":{st}" if st != 1 else ""))
        if parts and r.random() < 0.3:
            parts = parts[:r.randint(0, len(parts))]
            if r.random() < 0.3:
                parts.append("...")
        if r.random() < 0.1 and not positive:
            parts.insert(r.randint(0, len(parts)), "None")
        if not parts:
            return "..."
        return ", ".join(parts)

    # --- statement families -----------------------------------------------

    def f_input(self):
        return self.define(self.input_expr())

    def f_create(self):
        r = self.r
        shape = self.shape(r.choice([1, 1, 2, 2, 3]))
        split = r.choice(valid_splits(len(shape)))
        dt = r.choice(DTYPES)
        c = r.randint(0, 4)
        if c == 0:
            e = f"xp.zeros({shape}, dtype=xp.{dt}, split={split!r})"
        elif c == 1:
            e = f"xp.ones({shape}, dtype=xp.{dt}, split={split!r})"
        elif c == 2:
            k = np.dtype(dt).kind
            e = (f"xp.full({shape}, {self.scalar(k)}, dtype=xp.{dt}, "
                 f"split={split!r})")
        elif c == 3:
            n = r.choice(DIMS)
            dt = r.choice(["int64", "int32", "float64", "float32"])
            s = r.choice([None, 0])
            e = f"xp.arange({n}, dtype=xp.{dt}, split={s!r})"
        else:
            n = r.choice(DIMS)
            s = r.choice([None, 0])
            e = f"xp.linspace(0.0, {r.randint(1, 4)}.0, {n}, split={s!r})"
        return self.define(e)

    def f_unary(self):
        a = self.pick(lambda a: a.dtype.kind != "b" or True)
        if a is None:
            return False
        k = kind(self.ns[a])
        r = self.r
        if k == "f":
            fn = r.choice(UNARY_F)
            arg = a
            if fn in ("log", "log2", "log10", "sqrt", "acosh", "log1p") and \
                    r.random() < 0.7:
                arg = f"(xp.abs({a}) + 1)"
            if fn in ("asin", "acos", "atanh") and r.random() < 0.7:
                arg = f"({a} / 16)"
            e = f"xp.{fn}({arg})"
            if fn in ("negative", "abs") and r.random() < 0.5:
                e = f"-{a}" if fn == "negative" else f"abs({a})"
        elif k == "c":
            e = f"xp.{r.choice(UNARY_C)}({a})"
        elif k in "iu":
            fn = r.choice(UNARY_I + (["negative"] if k == "i" else []) +
                          (UNARY_I_MATH if r.random() < 0.2 else []))
            e = f"xp.{fn}({a})"
            if fn == "bitwise_invert" and r.random() < 0.5:
                e = f"~{a}"
        else:
            e = r.choice([f"xp.logical_not({a})", f"~{a}",
                          f"xp.bitwise_invert({a})", f"xp.isfinite({a})"])
        return self.define(e)

    def partner(self, a, kinds):
        """Another variable broadcasting with `a`, of one of `kinds`."""
        sa = np.shape(self.ns[a])

        def ok(b):
            if b.dtype.kind not in kinds:
                return False
            try:
                np.broadcast_shapes(sa, b.shape)
                return True
            except ValueError:
                return False
        return self.pick(ok)

    def f_binary(self):
        r = self.r
        a = self.pick()
        if a is None:
            return False
        k = kind(self.ns[a])
        same = {"b": "b", "i": "iu", "u": "ui", "f": "fiu", "c": "cf"}[k]
        if r.random() < 0.8:
            same = {"b": "b", "i": "i", "u": "u", "f": "f", "c": "c"}[k]
        b = self.partner(a, same) if r.random() < 0.7 else None
        if b is None:
            b = self.scalar(k if r.random() < 0.8 else
                            {"b": "b", "i": "i", "u": "u", "f": "i",
                             "c": "f"}[k])
            if r.random() < 0.3:
                a, b = b, a     # scalar on the left
        x, y = a, b
        kk = k
        if kk == "b":
            op = r.choice(["&", "|", "^", "==", "!=", "logical_and",
                           "logical_or", "logical_xor"])
        elif kk in "iu":
            op = r.choice(BIN_ARITH * 3 + CMP + ["//", "%", "&", "|", "^",
                                                 "/", "**", "<<", ">>",
                                                 "maximum", "minimum"])
        elif kk == "f":
            op = r.choice(BIN_ARITH * 3 + CMP + ["/", "//", "%", "**"] +
                          BIN_F)
        else:
            op = r.choice(BIN_ARITH * 2 + ["/", "==", "!="])
        if op in ("<<", ">>", "**"):
            y = self.scalar("u")
            if VAR.match(str(x)) is None:
                return False
        if op.isidentifier():
            e = f"xp.{op}({x}, {y})"
        else:
            e = f"{x} {op} {y}" if r.random() < 0.85 else \
                f"({x} {op} {y}) * 1" if kk in "iuf" and op in BIN_ARITH \
                else f"{x} {op} {y}"
        return self.define(e)

    def f_chain(self):
        """A small fused expression of several elementwise ops."""
        a = self.pick(lambda a: a.dtype.kind == "f")
        if a is None:
            return False
        b = self.partner(a, "f") or a
        r = self.r
        e = r.choice([f"0.5 * ({a} + {b}) - {a} * {b}",
                      f"xp.sin({a}) * xp.cos({b}) + 1.0",
                      f"xp.where({a} > {b}, {a} - {b}, {b} * 2)",
                      f"xp.sqrt({a} * {a} + {b} * {b})",
                      f"({a} + 1.0) / (xp.abs({b}) + 1.0)"])
        return self.define(e)

    def f_reduce(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1)
        if a is None:
            return False
        x = np.asarray(self.ns[a])
        k = x.dtype.kind
        fns = ["any", "all", "count_nonzero"]
        if k in "iufc":
            fns += ["sum", "prod", "sum", "mean" if k in "fc" or
                    r.random() < 0.2 else "sum"]
        if k in "iuf":
            fns += ["min", "max", "argmax", "argmin"]
        if k == "f":
            fns += ["var", "std"]
        fn = r.choice(fns)
        nd = x.ndim
        c = r.random()
        if c < 0.3:
            axis = None
        elif c < 0.8 or nd < 2 or fn.startswith("arg"):
            axis = r.randint(-nd, nd - 1)
        else:
            axis = tuple(sorted(r.sample(range(nd), 2)))
        kw = [] if axis is None else [f"axis={axis!r}"]
        if r.random() < 0.4:
            kw.append("keepdims=True")
        if fn in ("var", "std") and r.random() < 0.4:
            kw.append("correction=1")
        return self.define(f"xp.{fn}({', '.join([a] + kw)})")

    def f_cumulative(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1 and a.dtype.kind in "iufc")
        if a is None:
            return False
        nd = np.ndim(self.ns[a])
        fn = r.choice(["cumulative_sum", "cumulative_sum", "cumulative_prod"])
        kw = []
        if nd > 1 or r.random() < 0.5:
            kw.append(f"axis={r.randint(-nd, nd - 1)}")
        if r.random() < 0.3:
            kw.append("include_initial=True")
        return self.define(f"xp.{fn}({', '.join([a] + kw)})")

    def f_slice(self):
        a = self.pick(lambda a: a.ndim >= 1)
        if a is None:
            return False
        positive = self.r.random() < 0.6
        key = self.key(np.shape(self.ns[a]), allow_int=self.r.random() < 0.4,
                       positive=positive)
        safe = positive and not re.search(r"(^|, )-?\d+($|, )", key)
        return self.define(f"{a}[{key}]", view_of=a, safe=safe)

    def value_for(self, target_shape, target_kind):
        """An expression to assign into a view of `target_shape`."""
        r = self.r
        kinds = {"b": "b", "i": "i", "u": "u", "f": "fiu", "c": "cfiu"}
        c = r.random()
        if c < 0.35:
            return self.scalar(target_kind if target_kind != "c" else "f")

        def ok(b):
            if b.dtype.kind not in kinds[target_kind]:
                return False
            if b.dtype.kind in "iu" and target_kind in "iu" and \
                    b.dtype.itemsize > 8:
                return False
            try:
                return np.broadcast_shapes(target_shape, b.shape) == \
                    tuple(target_shape)
            except ValueError:
                return False
        b = self.pick(ok)
        if b is None:
            return self.scalar(target_kind if target_kind != "c" else "f")
        if target_kind in "fc" and r.random() < 0.5:
            return f"0.5 * {b} + 1"
        return b

    def f_setitem(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1 and a.size > 0)
        if a is None or not self.writable(a):
            return False
        x = self.ns[a]
        key = self.key(x.shape, allow_int=r.random() < 0.3,
                       positive=r.random() < 0.7)
        try:
            view = x[eval(f"np.s_[{key}]")]
        except Exception:  # noqa: BLE001
            return False
        k = x.dtype.kind
        val = self.value_for(np.shape(view), k)
        if r.random() < 0.3 and k in "iufc":
            op = r.choice(["+=", "-=", "*="])
            return self.try_stmt(f"{a}[{key}] {op} {val}")
        return self.try_stmt(f"{a}[{key}] = {val}")

    def f_inplace(self):
        a = self.pick(lambda a: a.ndim >= 1 and a.dtype.kind in "iuf")
        if a is None or not self.writable(a):
            return False
        x = self.ns[a]
        op = self.r.choice(["+=", "-=", "*=", "+="])
        val = self.value_for(x.shape, x.dtype.kind)
        return self.try_stmt(f"{a} {op} {val}")

    def grid_var(self):
        """A float variable of rank 1-2 with sizes >= 3 that may be written
        (a new input if there is none)."""
        a = self.pick(lambda a: a.dtype.kind == "f" and 1 <= a.ndim <= 2
                      and min(a.shape) >= 3)
        if a is not None and self.writable(a):
            return a
        r = self.r
        shape = tuple(r.choice([3, 4, 5, 7, 8, 13])
                      for _ in range(r.randint(1, 2)))
        if not self.define(self.input_expr(shape, r.choice(FLOATS))):
            return None
        return f"v{self.count - 1}"

    def f_stencil(self):
        r = self.r
        a = self.grid_var()
        if a is None:
            return False
        nd = np.ndim(self.ns[a])
        k = r.randint(1, 4)
        if nd == 1:
            body = r.choice([
                f"{a}[1:-1] = 0.5 * ({a}[:-2] + {a}[2:])",
                f"{a}[1:] = {a}[1:] - 0.25 * {a}[:-1]",
                f"{a}[:-1] += 0.5 * ({a}[1:] - {a}[:-1])"])
        else:
            body = r.choice([
                f"{a}[1:-1, 1:-1] = 0.25 * ({a}[:-2, 1:-1] + {a}[2:, 1:-1]"
                f" + {a}[1:-1, :-2] + {a}[1:-1, 2:])",
                f"{a}[1:, :] = 0.5 * ({a}[1:, :] + {a}[:-1, :])",
                f"{a}[:, 1:-1] = {a}[:, 2:] - {a}[:, :-2]",
                f"{a}[::2, 1:] = 0.5 * {a}[::2, :-1]"])
        return self.try_stmt(f"for _ in range({k}):\n    {body}")

    def f_manip(self):
        r = self.r
        a = self.pick()
        if a is None:
            return False
        x = np.asarray(self.ns[a])
        nd, sh = x.ndim, x.shape
        c = r.randint(0, 14)
        view = True
        if c == 0:
            size = x.size
            dims = []
            rest = size
            for _ in range(r.randint(1, 3)):
                divs = [d for d in range(1, rest + 1) if rest % d == 0] or [1]
                d = r.choice(divs)
                dims.append(d)
                rest //= d if d else 1
            dims.append(rest)
            if size == 0:
                dims = [0, r.randint(1, 3)]
            if r.random() < 0.3 and size:
                dims[r.randrange(len(dims))] = -1
            e = f"xp.reshape({a}, {tuple(dims)})"
        elif c == 1 and nd >= 2:
            p = list(range(nd))
            r.shuffle(p)
            e = f"xp.permute_dims({a}, {tuple(p)})"
        elif c == 2 and nd == 2:
            e = r.choice([f"{a}.T", f"xp.matrix_transpose({a})"])
        elif c == 3:
            shape = (r.choice([1, 2, 3]),) + tuple(
                n for n in sh) if r.random() < 0.6 else sh
            e = f"xp.broadcast_to({a}, {shape})"
        elif c == 4:
            e = f"xp.expand_dims({a}, axis={r.randint(-nd - 1, nd)})"
        elif c == 5 and 1 in sh:
            e = f"xp.squeeze({a}, axis={sh.index(1)})"
        elif c == 6 and nd >= 1:
            ax = r.randint(0, nd - 1)
            key = ", ".join([":"] * ax + ["1:"])
            other = r.choice([a, f"{a}[{key}]", a])
            if r.random() < 0.5:
                e = f"xp.concat([{a}, {other}], axis={ax})"
            else:
                e = f"xp.concat([{a}, {a}, {a}], axis={ax - nd})"
            view = False
        elif c == 7:
            b = self.pick(lambda b: b.shape == sh)
            e = f"xp.stack([{a}, {b}], axis={r.randint(-nd - 1, nd)})"
            view = False
        elif c == 8:
            b = self.partner(a, "biufc") or a
            cond = self.pick(lambda m: m.dtype.kind == "b")
            if cond is None or r.random() < 0.5:
                cond = f"{a} != 0"
            e = f"xp.where({cond}, {a}, {b})"
            view = False
        elif c == 9:
            ax = None if nd == 0 or r.random() < 0.3 else \
                r.randint(-nd, nd - 1)
            e = f"xp.flip({a}, axis={ax})"
        elif c == 10:
            ax = None if nd == 0 or r.random() < 0.4 else \
                r.randint(-nd, nd - 1)
            e = f"xp.roll({a}, {r.randint(-7, 7)}, axis={ax})"
            view = False
        elif c == 11 and x.dtype.kind in "iuf":
            lo = r.randint(-2, 1)
            e = f"xp.clip({a}, {lo}, {lo + r.randint(0, 3)})"
            view = False
        elif c == 12 and nd >= 1 and x.dtype.kind in "iufc":
            ax = r.randint(-nd, nd - 1)
            kw = [f"axis={ax}"]
            if r.random() < 0.3:
                kw.append("n=2")
            if r.random() < 0.3:
                key = ", ".join([":"] * (ax % nd) + ["0:1"])
                kw.append(r.choice(["prepend", "append"]) + f"={a}[{key}]")
            e = f"xp.diff({a}, {', '.join(kw)})"
            view = False
        elif c == 13 and nd >= 1:
            if r.random() < 0.5:
                reps = tuple(r.randint(1, 2) for _ in range(nd))
                e = f"xp.tile({a}, {reps})"
            else:
                ax = r.choice([None] + list(range(nd)))
                e = f"xp.repeat({a}, {r.randint(0, 3)}, axis={ax})"
            view = False
        elif c == 14 and nd >= 2:
            e = f"xp.moveaxis({a}, 0, -1)"
        else:
            return False
        return self.define(e, view_of=a if view else None)

    def f_astype(self):
        r = self.r
        a = self.pick()
        if a is None:
            return False
        x = np.asarray(self.ns[a])
        dt = r.choice(DTYPES)
        t = np.dtype(dt)
        if x.dtype.kind == "c" and t.kind != "c":
            return False
        if t.kind in "iu" and x.size:
            if x.dtype.kind == "f" and not np.all(np.isfinite(x)):
                return False
            if x.dtype.kind == "f" and a in self.inexact:
                return False
            info = np.iinfo(t)
            if float(x.min()) < info.min or float(x.max()) > info.max:
                return False
        if t == np.float16 and x.size and np.max(np.abs(x)) > 1000:
            return False
        return self.define(f"xp.astype({a}, xp.{dt})")

    def index_array(self, n, count, negative=False):
        lo = -n if negative else 0
        vals = [self.r.randint(lo, n - 1) for _ in range(count)] if n else []
        split = self.r.choice([None, None, 0])
        return f"inp({literal(np.array(vals, dtype=np.int64))}, {split!r})"

    def f_advanced(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1)
        if a is None:
            return False
        x = self.ns[a]
        nd, sh = x.ndim, x.shape
        c = r.randint(0, 9)
        if c == 0 and sh[0] > 0 or c == 1 and sh[0] > 0:
            ax = r.randint(0, nd - 1)
            if sh[ax] == 0:
                return False
            idx = self.index_array(sh[ax], r.randint(0, 6),
                                   negative=r.random() < 0.2)
            if c == 0:
                return self.define(f"xp.take({a}, {idx}, axis={ax})")
            if nd != 1 and r.random() < 0.5:
                return False
            return self.define(f"{a}[{self.index_array(sh[0], 4)}]")
        if c == 2:
            s = self.scalar(x.dtype.kind) if x.dtype.kind in "iuf" else None
            if s is None:
                return self.define(f"{a}[{a} != 0]")
            return self.define(f"{a}[{a} > {s}]")
        if c == 3 and x.dtype.kind in "iuf" and self.writable(a):
            s = self.scalar(x.dtype.kind)
            return self.try_stmt(f"{a}[{a} < {s}] = {self.scalar(x.dtype.kind)}")
        if c == 4 and nd == 1 and sh[0] > 0 and self.writable(a):
            idx = self.index_array(sh[0], r.randint(1, 5))
            return self.try_stmt(
                f"{a}[{idx}] = {self.scalar(x.dtype.kind if x.dtype.kind != 'c' else 'f')}")
        if c == 5:
            return self.define(f"xp.nonzero({a})[{r.randint(0, nd - 1)}]")
        if c == 6 and nd >= 1:
            idx = self.index_array(sh[-1], 1) if sh[-1] else None
            if idx is None:
                return False
            ishape = sh[:-1] + (r.randint(1, 3),)
            vals = np.array([r.randint(0, sh[-1] - 1) for _ in
                             range(int(np.prod(ishape)))],
                            dtype=np.int64).reshape(ishape)
            return self.define(f"xp.take_along_axis({a}, "
                               f"inp({literal(vals)}, None), axis=-1)")
        if c == 7 and nd >= 2 and 0 not in sh[:2]:
            # integer arrays (broadcast together) and integers
            first = self.index_array(sh[0], r.randint(1, 4),
                                     negative=r.random() < 0.3)
            second = (str(r.randint(-sh[1], sh[1] - 1)) if r.random() < 0.5
                      else self.index_array(sh[1], 1))
            return self.define(f"{a}[{first}, {second}]")
        if c == 8:
            mask = r.choice(["True", "False"])
            return self.define(f"{a}[inp(np.array({mask}), None)]")
        if c == 9:
            fn, field = r.choice([("unique_all", "inverse_indices"),
                                  ("unique_all", "indices"),
                                  ("unique_counts", "counts"),
                                  ("unique_inverse", "inverse_indices"),
                                  ("unique_inverse", "values")])
            return self.define(f"xp.{fn}({a}).{field}")
        return False

    def f_sort(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1 and a.dtype.kind in "biuf")
        if a is None:
            return False
        nd = np.ndim(self.ns[a])
        c = r.randint(0, 3)
        if c <= 1:
            fn = "sort" if c == 0 else "argsort"
            kw = [f"axis={r.randint(-nd, nd - 1)}"]
            if r.random() < 0.4:
                kw.append("descending=True")
            return self.define(f"xp.{fn}({a}, {', '.join(kw)})")
        if c == 2:
            return self.define(f"xp.unique_values({a})")
        if nd != 1:
            return False
        b = self.pick(lambda b: b.dtype.kind in "iuf") or a
        side = r.choice(["left", "right"])
        return self.define(f"xp.searchsorted(xp.sort({a}), {b}, "
                           f"side={side!r})")

    def f_linalg(self):
        r = self.r
        a = self.pick(lambda a: 1 <= a.ndim <= 3 and a.dtype.kind in "iufc")
        if a is None:
            return False
        x = self.ns[a]
        dt = x.dtype.name if r.random() < 0.7 else r.choice(FLOATS)
        n = x.shape[-1]
        c = r.randint(0, 3)
        split = r.choice([None, 0, 1])
        if c == 0:
            other = (n,) if r.random() < 0.3 else (n, r.choice([1, 2, 3, 5]))
            if split == 1 and len(other) == 1:
                split = 0
            b = self.input_expr(other, dt, split)
            e = f"{a} @ {b}" if r.random() < 0.5 else f"xp.matmul({a}, {b})"
        elif c == 1:
            b = self.input_expr(x.shape, dt, None)
            e = f"xp.vecdot({a}, {b})"
        elif c == 2:
            b = self.input_expr((n, r.choice([1, 2, 4])), dt, None)
            e = f"xp.tensordot({a}, {b}, axes=1)"
        else:
            if x.ndim != 1:
                return False
            b = self.input_expr((r.choice([1, 3, 4]),), dt, None)
            e = f"xp.outer({a}, {b})"
        return self.define(e)

    def f_fft(self):
        """A transform of the fft extension over some axes (any order), of
        a variable (real transforms of a real one) or of a new input."""
        r = self.r
        a = self.pick(lambda a: 1 <= a.ndim <= 3 and a.dtype.kind in "iufc"
                      and a.dtype != np.float16 and a.size > 0)
        if a is None or r.random() < 0.3:
            x = self.data(self.shape(r.choice([1, 2, 2, 3])), r.choice(
                ["float32", "float64", "complex64", "complex128"]))
            a = f"inp({literal(x)}, {r.choice(valid_splits(x.ndim))!r})"
        else:
            x = np.asarray(self.ns[a])
        if x.size == 0 or x.ndim == 0:
            return False
        name = r.choice(["fft", "ifft", "fftn", "ifftn", "rfft", "irfft",
                         "rfftn", "irfftn", "hfft", "ihfft", "fftshift"])
        if name in ("rfft", "rfftn", "ihfft") and x.dtype.kind == "c":
            return False
        nd = x.ndim
        kw = []
        if name == "fftshift":
            if r.random() < 0.5:
                kw.append(f"axes={r.randint(-nd, nd - 1)}")
        elif name.endswith("n"):
            axes = r.sample(range(nd), r.randint(1, nd))
            kw.append(f"axes={tuple(axes)!r}")
            if r.random() < 0.2:
                kw.append(f"s={tuple(r.randint(1, 6) for _ in axes)!r}")
        else:
            kw.append(f"axis={r.randint(-nd, nd - 1)}")
            if r.random() < 0.2:
                kw.append(f"n={r.randint(1, 9)}")
        if name != "fftshift" and r.random() < 0.5:
            kw.append(f"norm={r.choice(['backward', 'ortho', 'forward'])!r}")
        return self.define(f"xp.fft.{name}({a}, {', '.join(kw)})")

    def f_linalg_ext(self):
        """A routine of the linalg extension on (stacks of) well-conditioned
        matrices built as inputs: diagonally dominant for inv/solve/det,
        symmetric positive definite for cholesky/eigvalsh."""
        r = self.r
        n = r.choice([1, 2, 3, 4])
        batch = r.choice([(), (), (r.choice([1, 2, 3, 5]),)])
        dt = r.choice(["float32", "float64", "float64", "int64"])
        base = self.data(batch + (n, n), "float64")
        name = r.choice(["inv", "det", "solve", "cholesky", "eigvalsh",
                         "svdvals", "matrix_power", "diagonal", "trace",
                         "cross", "qr"])
        if name in ("svdvals", "qr"):
            # (Any shape; QR compared through Q R, unique up to rounding.)
            shape = batch + (r.choice([1, 2, 3, 5, 7]), n)
            # (float64: small singular values of singular matrices are
            # rounding noise, beyond float32's tolerance.)
            a = self.input_expr(shape, "float64",
                                r.choice(valid_splits(len(shape))))
            if name == "qr":
                return self.define(f"xp.matmul(*xp.linalg.qr({a}))")
            return self.define(f"xp.linalg.svdvals({a})")
        if name in ("cholesky", "eigvalsh"):
            m = base @ np.swapaxes(base, -1, -2) + n * np.eye(n)
        else:
            m = base + (8 * n + 1) * np.eye(n)
        if dt == "int64":
            m = np.round(m)
        split = r.choice(valid_splits(m.ndim))
        a = f"inp({literal(m.astype(dt))}, {split!r})"
        if name == "solve":
            rhs = self.data(batch + (n, r.choice([1, 2])), dt)
            b = f"inp({literal(rhs)}, {r.choice(valid_splits(rhs.ndim))!r})"
            return self.define(f"xp.linalg.solve({a}, {b})")
        if name == "matrix_power":
            a = f"inp({literal(self.data(batch + (n, n), dt))}, {split!r})"
            return self.define(f"xp.linalg.matrix_power({a}, "
                               f"{r.randint(0, 3)})")
        if name in ("diagonal", "trace"):
            v = self.pick(lambda v: v.ndim >= 2 and v.dtype.kind in "iufc")
            if v is not None:
                a = v
            return self.define(f"xp.linalg.{name}({a}, "
                               f"offset={r.randint(-2, 2)})")
        if name == "cross":
            shape = batch + (3,)
            x = self.input_expr(shape, dt, r.choice(valid_splits(len(shape))))
            y = self.input_expr(shape, dt, None)
            return self.define(f"xp.linalg.cross({x}, {y})")
        return self.define(f"xp.linalg.{name}({a})")

    def f_redistribute(self):
        a = self.pick(lambda a: a.ndim >= 1)
        if a is None:
            return False
        s = self.r.choice(valid_splits(np.ndim(self.ns[a]))[1:])
        return self.define(f"xp.asarray({a}, split={s!r})", view_of=a)

    def f_jit(self):
        r = self.r
        a = self.grid_var()
        if a is None:
            return False
        nd = np.ndim(self.ns[a])
        k = r.randint(0, 4)
        if r.random() < 0.5:
            # carried: the body returns a new array
            e = (f"jit(lambda a: fori_loop(0, {k}, lambda i, x: 0.5 * x + a,"
                 f" a))({a})") if r.random() < 0.7 else \
                f"fori_loop(0, {k}, lambda i, x: x * 0.5 + 1.0, {a})"
            return self.define(e)
        if not self.writable(a):
            return False
        b = self.new()
        sl = "1:-1" if nd == 1 else "1:-1, 1:-1"
        lo = "[:-2]" if nd == 1 else "[:-2, 1:-1]"
        hi = "[2:]" if nd == 1 else "[2:, 1:-1]"
        code = (f"{b} = {a} * 1.0\n"
                f"def _step(i, s):\n"
                f"    u, w = s\n"
                f"    w[{sl}] = 0.5 * (u{lo} + u{hi})\n"
                f"    return w, u\n"
                f"jit(lambda u, w: fori_loop(0, {k}, _step, (u, w)))"
                f"({a}, {b})\n"
                f"del _step")
        if self.try_stmt(code):
            self.count += 1
            self.meta[b] = {"root": b, "unsafe": False}
            return True
        return False

    def f_error(self):
        r = self.r
        a = self.pick(lambda a: a.ndim >= 1)
        if a is None:
            return False
        x = self.ns[a]
        sh = x.shape
        c = r.randint(0, 8)
        if c == 0:
            n = sh[0]
            e = f"{a}[{r.choice([n, n + 2, -n - 1])}]"
        elif c == 1:
            e = f"{a}[{', '.join(['0'] * (x.ndim + 1))}]"
        elif c == 2:
            b = self.pick(lambda b: b.ndim >= 1 and b.shape[-1] != sh[-1]
                          and b.shape[-1] != 1 and sh[-1] != 1)
            if b is None:
                return False
            e = f"{a} + {b}"
        elif c == 3:
            e = f"xp.reshape({a}, ({x.size + r.randint(1, 3)},))"
        elif c == 4:
            e = f"xp.take({a}, {self.index_array(sh[0] + 3, 2)}, axis=0)"
            if sh[0] + 3 <= 0:
                return False
            e = (f"xp.take({a}, inp({literal(np.array([sh[0] + r.randint(0, 2)]))},"
                 f" None), axis=0)")
        elif c == 5:
            b = self.pick(lambda b: b.ndim != x.ndim)
            if b is None:
                return False
            e = f"xp.concat([{a}, {b}], axis=0)"
        elif c == 6:
            if x.dtype.kind == "b":
                return False
            b = self.input_expr((sh[-1] + 1, 2), "float64", None)
            e = f"xp.matmul({a}, {b})"
        elif c == 7:
            fn = r.choice(["add", "multiply", "abs", "floor", "square"])
            b = self.pick(lambda b: b.dtype.kind == "b")
            if b is None:
                return False
            e = f"xp.{fn}({b}, {b})" if fn in ("add", "multiply") else \
                f"xp.{fn}({b})"
        else:
            axis = [i for i, n in enumerate(sh) if n != 1]
            if not axis:
                return False
            e = f"xp.squeeze({a}, axis={axis[0]})"
        if r.random() < 0.2 and c == 0:
            return self.try_stmt(f"{a}[{sh[0]}] = 0", err=True)
        return self.try_stmt(f"_e = {e}", err=True)

    FAMILIES = [("f_input", 4), ("f_create", 2), ("f_unary", 6),
                ("f_binary", 10), ("f_chain", 2), ("f_reduce", 6),
                ("f_cumulative", 2), ("f_slice", 6), ("f_setitem", 6),
                ("f_inplace", 2), ("f_stencil", 3), ("f_manip", 8),
                ("f_astype", 3), ("f_advanced", 5), ("f_sort", 3),
                ("f_linalg", 3), ("f_fft", 2), ("f_linalg_ext", 2),
                ("f_redistribute", 3), ("f_jit", 2),
                ("f_error", 2)]

    def run(self):
        r = self.r
        for _ in range(r.randint(1, 3)):
            for _ in range(20):
                if self.f_input():
                    break
        names = [n for n, _ in self.FAMILIES]
        weights = [w for _, w in self.FAMILIES]
        while len(self.stmts) < self.nstmts:
            for _ in range(30):
                f = r.choices(names, weights)[0]
                try:
                    if getattr(self, f)():
                        break
                except Exception:  # noqa: BLE001 (Reject, generator slips)
                    self.replay()
            else:
                break
        return {"id": f"s{self.seed}", "seed": self.seed,
                "stmts": self.stmts, "err": self.err}


def generate(seed, nstmts=None):
    return Gen(seed, nstmts).run()


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["0"]:
        p = generate(int(s))
        print(f"# program {p['id']} (errors at {p['err']})")
        for st in p["stmts"]:
            print(st)

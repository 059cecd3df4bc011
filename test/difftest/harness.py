"""Runs one generated program in a namespace (numpy's or imex's) and turns
its variables into comparable, JSON-able results; compares two results.

A program is a dict: {"id": str, "stmts": [code, ...], "err": [index, ...]}.
Each statement is Python source (possibly several lines) run with `exec`
in one namespace holding `xp` (numpy's array-API shim, npxp.py, or imex),
`np`, `inp(array, split)`, `jit`, `fori_loop`. Statements define v0, v1,
...; statements listed in "err" assign `_e` and are expected to raise
(IndexError, ValueError, TypeError): they run in a try block, and `_e` is
converted to numpy there (so a run-time error of imex's deferred
evaluation counts as raised by that statement).
"""

import base64
import math
import re

import numpy as np

VAR = re.compile(r"^v(\d+)$")
UNSUPPORTED = (NotImplementedError,)


def _names(exc):
    return [c.__name__ for c in type(exc).__mro__
            if c.__name__ not in ("object", "BaseException")]


def exc_record(i, exc):
    return {"stmt": i, "type": type(exc).__name__, "mro": _names(exc),
            "msg": str(exc)[:300]}


def encode(a):
    a = np.ascontiguousarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "data": base64.b64encode(a.tobytes()).decode()}


def decode(r):
    return np.frombuffer(base64.b64decode(r["data"]),
                         dtype=np.dtype(r["dtype"])).reshape(r["shape"])


def to_numpy(value, imex):
    if isinstance(value, tuple):
        raise TypeError("tuple result")
    if imex is not None and isinstance(value, imex.ndarray):
        return value.to_numpy()
    return np.asarray(value)


def run_program(prog, ns, imex=None, progress=None):
    """Runs `prog` in the namespace `ns` (a fresh dict with xp, inp, ...).
    `imex` is the imex module when running imex (for sync/to_numpy).
    Returns {"err": [...], "stop": exc|None, "sync": exc|None,
    "unsupported": msg|None, "vars": {name: encoded | {"exc": ...}}}."""
    res = {"err": [], "stop": None, "sync": None, "unsupported": None,
           "vars": {}}
    errs = set(prog.get("err", ()))
    for i, code in enumerate(prog["stmts"]):
        if progress is not None:
            progress(i)
        if i in errs:
            try:
                exec(code, ns)
                e = ns.pop("_e", None)
                if e is not None and not isinstance(e, (int, float, bool)):
                    to_numpy(e, imex)
                res["err"].append({"stmt": i, "type": None})
            except UNSUPPORTED as ex:
                res["unsupported"] = f"{i}: {type(ex).__name__}: {ex}"[:300]
                return res
            except Exception as ex:  # noqa: BLE001
                res["err"].append(exc_record(i, ex))
            ns.pop("_e", None)
            continue
        try:
            exec(code, ns)
        except UNSUPPORTED as ex:
            res["unsupported"] = f"{i}: {type(ex).__name__}: {ex}"[:300]
            return res
        except Exception as ex:  # noqa: BLE001
            res["stop"] = exc_record(i, ex)
            break
    if progress is not None:
        progress("sync")
    if imex is not None:
        try:
            imex.sync()
        except UNSUPPORTED as ex:
            res["unsupported"] = f"sync: {type(ex).__name__}: {ex}"[:300]
            return res
        except Exception as ex:  # noqa: BLE001
            res["sync"] = exc_record(-1, ex)
    names = sorted((k for k in ns if VAR.match(k)), key=lambda k: int(k[1:]))
    for name in names:
        try:
            res["vars"][name] = encode(to_numpy(ns[name], imex))
        except UNSUPPORTED as ex:
            res["unsupported"] = f"{name}: {type(ex).__name__}: {ex}"[:300]
            return res
        except Exception as ex:  # noqa: BLE001
            res["vars"][name] = {"exc": exc_record(-1, ex)}
    return res


# --- comparison ---------------------------------------------------------------

# Relative and absolute tolerance per float component size; the absolute
# part is scaled by the largest magnitude of the expected array (so that
# cancellation in sums of larger values is not a finding).
TOL = {2: 1e-2, 4: 1e-5, 8: 1e-9}


def program_tolerance(prog):
    """The loosest tolerance any float dtype of `prog` needs: intermediate
    float16 (float32) results may be computed in a wider type inside a
    fused imex kernel, which numpy rounds at every step."""
    text = "\n".join(prog["stmts"]) if prog else ""
    if "float16" in text:
        return TOL[2]
    if "float32" in text or "complex64" in text:
        return TOL[4]
    return 0.0


def values_close(got, exp, min_tol=0.0):
    """None if equal (exact for ints/bools, tolerance for floats), else a
    short description."""
    if got.dtype != exp.dtype:
        return f"dtype {got.dtype} != numpy {exp.dtype}"
    if got.shape != exp.shape:
        return f"shape {got.shape} != numpy {exp.shape}"
    if exp.size == 0:
        return None
    if exp.dtype.kind in "fc":
        comp = exp.dtype.itemsize // (2 if exp.dtype.kind == "c" else 1)
        tol = max(TOL[comp], min_tol)
        e = exp.astype(np.complex128 if exp.dtype.kind == "c" else
                       np.float64)
        g = got.astype(e.dtype)
        finite = np.isfinite(e)
        scale = float(np.max(np.abs(e[finite]))) if finite.any() else 1.0
        scale = max(scale, 1.0)
        nan_e, nan_g = np.isnan(e), np.isnan(g)
        bad = nan_e != nan_g
        inf_e = np.isinf(e)
        bad |= inf_e & (g != e)
        ok_vals = ~nan_e & ~inf_e
        diff = np.abs(g - e)
        bad |= ok_vals & ~(diff <= tol * (np.abs(e) + scale))
    else:
        bad = got != exp
    if not np.any(bad):
        return None
    idx = tuple(int(i[0]) for i in np.nonzero(bad))
    return (f"{int(np.count_nonzero(bad))} of {exp.size} elements differ, "
            f"first at {idx}: got {got[idx]!r}, numpy {exp[idx]!r}")


def exc_matches(got, exp):
    """imex's exception record `got` is compatible with numpy's `exp`."""
    return exp["type"] in got["mro"] or got["type"] in exp["mro"]


def compare(exp, got, prog=None):
    """Findings (list of (class, detail)) of imex's result `got` against
    numpy's `exp` (of program `prog`)."""
    out = []
    min_tol = program_tolerance(prog)
    if got.get("unsupported"):
        return [("unsupported", got["unsupported"])]
    if got["stop"] is not None:
        s = got["stop"]
        out.append(("spurious-exception",
                    f"statement {s['stmt']}: {s['type']}: {s['msg']}"))
        return out
    if got["sync"] is not None:
        s = got["sync"]
        # A deferred error surfacing at the final sync: fine if numpy
        # raised the same type at an error statement that imex missed.
        missed = [e for e in exp["err"] if e["type"] is not None]
        if not any(exc_matches(s, e) for e in missed):
            out.append(("spurious-exception",
                        f"at sync: {s['type']}: {s['msg']}"))
            return out
    gerr = {e["stmt"]: e for e in got["err"]}
    for e in exp["err"]:
        g = gerr.get(e["stmt"])
        if e["type"] is None:
            continue
        if g is None or g["type"] is None:
            if got["sync"] is not None and exc_matches(got["sync"], e):
                continue
            out.append(("missing-exception",
                        f"statement {e['stmt']}: numpy raised {e['type']}: "
                        f"{e['msg']}"))
        elif not exc_matches(g, e):
            out.append(("wrong-exception-type",
                        f"statement {e['stmt']}: imex raised {g['type']}: "
                        f"{g['msg']}; numpy {e['type']}: {e['msg']}"))
    if got["sync"] is not None:
        return out
    for name, ev in exp["vars"].items():
        gv = got["vars"].get(name)
        if gv is None:
            out.append(("wrong-result", f"{name}: missing"))
            continue
        if "exc" in gv:
            s = gv["exc"]
            out.append(("spurious-exception",
                        f"{name} to numpy: {s['type']}: {s['msg']}"))
            continue
        if "exc" in ev:
            continue
        g, e = decode(gv), decode(ev)
        d = values_close(g, e, min_tol)
        if d is not None:
            cls = ("dtype-shape-mismatch" if d.startswith(("dtype", "shape"))
                   else "wrong-result")
            out.append((cls, f"{name}: {d}"))
    return out


def same_results(a, b):
    """Two imex results (ranks of one run) agree: exception types and
    variables (exact)."""
    def key(r):
        return (r.get("unsupported") is None,
                r["stop"] and r["stop"]["type"],
                r["sync"] and r["sync"]["type"],
                tuple((e["stmt"], e["type"]) for e in r["err"]))
    if key(a) != key(b):
        return False
    for name, av in a["vars"].items():
        bv = b["vars"].get(name)
        if bv is None or ("exc" in av) != ("exc" in bv):
            return False
        if "exc" in av:
            if av["exc"]["type"] != bv["exc"]["type"]:
                return False
        elif av != bv:
            ga, gb = decode(av), decode(bv)
            if values_close(ga, gb) is not None:
                return False
    return True


def literal(a):
    """Python source of numpy array `a` (for programs and reproducers)."""
    a = np.asarray(a)
    flat = a.ravel().tolist()

    def lit(x):
        if isinstance(x, float) and not math.isfinite(x):
            return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")
        if isinstance(x, complex):
            return f"complex({lit(x.real)}, {lit(x.imag)})"
        return repr(x)
    body = "[" + ", ".join(lit(x) for x in flat) + "]"
    return f"np.array({body}, dtype='{a.dtype}').reshape({tuple(a.shape)})"

"""Compiled functions: imex.jit (one kernel per call signature) and the
loops recorded as scf loops (fori_loop, while_loop).

Part of the imex namespace (imex/__init__.py re-exports every name).
"""

import builtins
import functools
import itertools
import operator

from . import _core
from ._array import ndarray
from ._core import Node
from ._dtypes import bool, int64  # noqa: A004


# --- compiled functions -----------------------------------------------------

def jit(function):
    """Compiles `function` over arrays as one kernel per call signature.

    The function is traced with the arrays it is called with: its array
    operations and in-place updates are recorded (not run) and compiled
    together, so a whole time-step loop written with `fori_loop` is one
    compiled function. Kernels are cached by structure (dtypes, ranks,
    distribution), so later calls with other sizes or scalars only
    dispatch. Inside, arrays have no values: converting one to numpy or a
    Python scalar raises RuntimeError (return it instead).
    """
    @functools.wraps(function)
    def traced(*args, **kwargs):
        if _core._State.tracing:
            return function(*args, **kwargs)  # nested: part of the trace
        _core.sync()
        _core._State.tracing += 1
        try:
            result = function(*args, **kwargs)
            _core.sync()
        except BaseException:
            _core._State.pending.clear()
            _core._State.pending_views.clear()
            _core._State.scopes.clear()
            raise
        finally:
            _core._State.tracing -= 1
        return result
    return traced


_loop_keys = itertools.count()


def _loop_index(key, scale, offset, lower):
    """The index of an iteration of a traced fori_loop, as a 0-d int64
    array: `lower + offset + scale * iv` with `iv` the induction variable
    of the compiled loop `key` (None: an iteration traced outside it)."""
    return ndarray(Node((), int64, None, "loop_index",
                        attrs=(key, scale, offset, lower)))


def _loop_values(name, init_val):
    """(single, list of arrays) of a loop's initial value."""
    single = isinstance(init_val, ndarray)
    inits = [init_val] if single else list(init_val)
    if not inits or not builtins.all(isinstance(a, ndarray) for a in inits):
        raise TypeError(f"{name}: init_val must be an array or a tuple of "
                        "arrays")
    return single, inits


def _loop_results(name, out, inits, single):
    """The arrays a loop body returned, checked against the initial ones."""
    outs = [out] if single else list(out)
    if len(outs) != len(inits):
        raise TypeError(f"{name}: the body returned {len(outs)} values for "
                        f"{len(inits)} loop-carried arrays")
    outs = [o if isinstance(o, ndarray) else asarray(o) for o in outs]
    for k, (o, n) in enumerate(zip(outs, inits)):
        if o.shape != n.shape or o.dtype != n.dtype:
            raise TypeError(f"{name}: value {k} changes from shape {n.shape} "
                            f"{n.dtype} to {o.shape} {o.dtype} in the body")
    return outs


def fori_loop(lower, upper, body, init_val):
    """`for i in range(lower, upper): val = body(i, val)`; returns val.

    `init_val` is an array or a tuple of arrays. Inside an @imex.jit
    function the loop stays a loop in the compiled code (the number of
    iterations is a run-time argument); elsewhere it runs in Python. The
    body may update arrays in place. A body that returns its arrays
    unchanged or permuted (`return v, u`: double buffering) updates them in
    place, as in Python; a body that returns new arrays carries them.
    Under jit, the body's `i` is a 0-d int64 array holding the index.
    """
    lower, upper = operator.index(lower), operator.index(upper)
    if not _core._State.tracing:
        value = init_val
        for i in range(lower, upper):
            value = body(i, value)
        return value
    single, inits = _loop_values("fori_loop", init_val)
    key = next(_loop_keys)

    def call(values, index, scope=None):
        """Traces one iteration into `scope` (None: where the loop is)."""
        if scope is not None:
            _core._State.scopes.append(scope)
        try:
            out = body(index, values[0] if single else tuple(values))
        finally:
            if scope is not None:
                _core._State.scopes.pop()
        return _loop_results("fori_loop", out, inits, single)

    # Trace once on stand-ins to see what the body returns.
    init_nodes = [a._node for a in inits]
    args = [Node(n.shape, n.dtype, n.split, "loop_arg") for n in init_nodes]
    probe_scope = []
    outs = call([ndarray(a) for a in args], _loop_index(key, 1, 0, lower),
                probe_scope)
    position = {a.id: k for k, a in enumerate(args)}
    permutation = [position.get(o._node.id) for o in outs]
    trips = builtins.max(0, upper - lower)
    if None not in permutation:
        return _permuting_loop(call, inits, permutation, lower, trips, single,
                               key)
    # New arrays each iteration: loop-carried values.
    results = [o._node for o in outs]
    loop = _core.record(Node((), None, op="loop", inputs=init_nodes,
                             attrs=(0, trips, args, probe_scope, results,
                                    key)))
    handles = [ndarray(_core.record(Node(n.shape, n.dtype, n.split,
                                         "loop_result", [loop], k)))
               for k, n in enumerate(init_nodes)]
    return handles[0] if single else tuple(handles)


def while_loop(cond_fun, body_fun, init_val):
    """`while cond_fun(val): val = body_fun(val)`; returns val.

    `cond_fun` returns a 0-d boolean array (e.g. a comparison of a
    reduction); `init_val` is an array or a tuple of arrays. Inside an
    @imex.jit function the loop stays a loop (`scf.while`); elsewhere it runs
    in Python. Arrays the body returns unchanged are updated in place; the
    others are carried (new arrays each iteration).
    """
    if not _core._State.tracing:
        value = init_val
        while builtins.bool(cond_fun(value)):
            value = body_fun(value)
        return value
    single, inits = _loop_values("while_loop", init_val)
    pack = (lambda values: values[0]) if single else tuple
    init_nodes = [a._node for a in inits]

    def stand_ins():
        return [Node(n.shape, n.dtype, n.split, "loop_arg")
                for n in init_nodes]

    def trace(function, values, scope):
        _core._State.scopes.append(scope)
        try:
            return function(pack(values))
        finally:
            _core._State.scopes.pop()

    def results_of(out):
        return _loop_results("while_loop", out, inits, single)

    # Which arrays does the body return unchanged? Those are the arrays
    # themselves, updated in place; the others are carried.
    probe = stand_ins()
    outs = results_of(trace(body_fun, [ndarray(a) for a in probe], []))
    carried = [k for k, o in enumerate(outs) if o._node is not probe[k]]

    def bind(args):
        values = list(inits)
        for k in carried:
            values[k] = ndarray(args[k])
        return values

    cond_args, body_args = stand_ins(), stand_ins()
    cond_scope, body_scope = [], []
    condition = trace(cond_fun, bind(cond_args), cond_scope)
    if not isinstance(condition, ndarray) or condition.shape != () or \
            condition.dtype != bool:
        raise TypeError("while_loop: cond_fun must return a 0-d boolean "
                        "array")
    outs = results_of(trace(body_fun, bind(body_args), body_scope))
    loop = _core.record(Node(
        (), None, op="while", inputs=[init_nodes[k] for k in carried],
        attrs=([cond_args[k] for k in carried], cond_scope,
               condition._node, [body_args[k] for k in carried],
               body_scope, [outs[k]._node for k in carried])))
    results = list(inits)
    for position, k in enumerate(carried):
        n = init_nodes[k]
        results[k] = ndarray(_core.record(Node(n.shape, n.dtype, n.split,
                                               "loop_result", [loop],
                                               position)))
    return pack(results)


def _permuting_loop(call, inits, permutation, lower, trips, single, key):
    """The loop of a body that returns its own arrays, permuted: the arrays
    are updated in place. The compiled loop runs blocks of as many
    iterations as the permutation's order (after which every array is back
    in its place); the rest of the iterations follow it."""
    order = 1
    cycle = list(range(len(permutation)))
    while True:
        cycle = [permutation[c] for c in cycle]
        if cycle == list(range(len(permutation))):
            break
        order += 1
    blocks, rest = divmod(trips, order)
    scope = []
    current = list(inits)
    for k in range(order):
        current = call(current, _loop_index(key, order, k, lower), scope)
    _core.record(Node((), None, op="loop", attrs=(0, blocks, [], scope,
                                                  [], key)))
    for r in range(rest):
        current = call(current,
                       _loop_index(None, 0, blocks * order + r, lower))
    return current[0] if single else tuple(current)


# Names of the other parts of the namespace, bound once all are defined
# (the functions above use them only when called).
from . import (  # noqa: E402
    asarray,
)

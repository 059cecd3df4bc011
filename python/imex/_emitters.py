"""One emitter per recorded operation: writes the ndarray IR of a node with
the Builder (EMITTERS maps each node kind to its emitter).

Part of imex._core (which imports every name).
"""

from . import _dtypes


# --- emitters ---------------------------------------------------------------

def _emit_operands(b, node):
    return [b.value(x) if isinstance(x, Node) else
            b.scalar(x[0], x[1]) for x in node.inputs]


def _emit_ewbin(b, node):
    x, y = _emit_operands(b, node)
    dims = _broadcast_dims(x[1], y[1])
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.ewbin {node.attrs} {x[0]}, {y[0]} : "
                f"({_type(x[1], x[2])}, {_type(y[1], y[2])}) -> "
                f"{_type(dims, dtype)}")
    return name, dims, dtype


def _emit_ewuny(b, node):
    (x,) = _emit_operands(b, node)
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.ewuny {node.attrs} {x[0]} : {_type(x[1], x[2])} "
                f"-> {_type(x[1], dtype)}")
    return name, x[1], dtype


def _emit_where(b, node):
    c, x, y = _emit_operands(b, node)
    dims = _broadcast_dims(c[1], x[1], y[1])
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.where {c[0]}, {x[0]}, {y[0]} : "
                f"({_type(c[1], c[2])}, {_type(x[1], x[2])}, "
                f"{_type(y[1], y[2])}) -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_reduction(b, node):
    (x,) = _emit_operands(b, node)
    kind, axes, keepdims, correction = node.attrs
    dims = []
    for d, n in enumerate(x[1]):
        if d in axes:
            if keepdims:
                dims.append(1)
        else:
            dims.append(n)
    dtype = _dtypes.to_mlir(node.dtype)
    text = f"ndarray.reduction {kind} {x[0]}"
    if len(axes) != len(x[1]):
        text += f" axes [{', '.join(str(a) for a in axes)}]"
    if keepdims:
        text += " keepdims"
    if correction:
        text += f" correction {float(correction)!r}"
    name = b.op(f"{text} : {_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_sort(b, node):
    (x,) = _emit_operands(b, node)
    name, axis, descending = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    flag = " descending" if descending else ""
    r = b.op(f"ndarray.{name} {x[0]} axis {axis}{flag} : {_type(x[1], x[2])} "
             f"-> {_type(x[1], dtype)}")
    return r, x[1], dtype


def _linalg_result_dims(kind, flag, a, rhs):
    """The static dims of ndarray.linalg's results before the status (the
    op's table), from those of its inputs (1 or None each)."""
    batch, m, n = list(a[:-2]), a[-2], a[-1]
    k = 1 if 1 in (m, n) else None
    q = m if flag else k
    tails = {
        "cholesky": [[n, n]], "inv": [[n, n]],
        "solve": [[n, rhs[-1] if rhs else None]],
        "det": [[]], "slogdet": [[], []],
        "eigh": [[n], [n, n]], "eigvalsh": [[n]],
        "qr": [[m, q], [q, n]],
        "svd": [[m, m], [k], [n, n]] if flag else [[m, k], [k], [k, n]],
        "svdvals": [[k]],
    }[kind]
    return [batch + tail for tail in tails]


def _emit_linalg(b, node):
    ops = _emit_operands(b, node)
    kind, flag, dtypes = node.attrs
    dims = _linalg_result_dims(kind, flag, ops[0][1],
                               ops[1][1] if len(ops) > 1 else None)
    results = [_type(d, _dtypes.to_mlir(t)) for d, t in zip(dims, dtypes)]
    results.append(_type([], "i64"))
    name = b.fresh()
    operands = ", ".join(x[0] for x in ops)
    b.line(f"{name}:{len(results)} = ndarray.linalg {kind} {operands}"
           f"{' flag' if flag else ''} : "
           f"({', '.join(_type(x[1], x[2]) for x in ops)}) -> "
           f"({', '.join(results)})")
    return name, dims, dtypes


def _emit_linalg_result(b, node):
    name, dims, dtypes = b.value(node.inputs[0])
    i = node.attrs
    if i == len(dims):  # the status
        return f"{name}#{i}", [], "i64"
    return f"{name}#{i}", dims[i], _dtypes.to_mlir(dtypes[i])


def _emit_fft(b, node):
    (x,) = _emit_operands(b, node)
    kind, axes, length = node.attrs
    dims = _static_dims(node.shape)
    dtype = _dtypes.to_mlir(node.dtype)
    extra = f" length {length}" if kind == "c2r" else ""
    axes = ", ".join(map(str, axes))
    r = b.op(f"ndarray.fft {kind} {x[0]} axes [{axes}]{extra} : "
             f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return r, dims, dtype


def _emit_take(b, node):
    x, i = _emit_operands(b, node)
    axis = node.attrs
    dims = list(x[1])
    dims[axis] = i[1][0]
    r = b.op(f"ndarray.take {x[0]}[{i[0]}] axis {axis} : ({_type(x[1], x[2])}"
             f", {_type(i[1], i[2])}) -> {_type(dims, x[2])}")
    return r, dims, x[2]


def _emit_put(b, node):
    x, i, v = _emit_operands(b, node)
    r = b.op(f"ndarray.put {v[0]} into {x[0]}[{i[0]}] axis {node.attrs} : "
             f"({_type(v[1], v[2])}, {_type(x[1], x[2])}, "
             f"{_type(i[1], i[2])}) -> {_type(x[1], x[2])}")
    return r, x[1], x[2]


def _emit_searchsorted(b, node):
    x, v = _emit_operands(b, node)
    flag = " right" if node.attrs else ""
    r = b.op(f"ndarray.searchsorted {x[0]}, {v[0]}{flag} : ({_type(x[1], x[2])}"
             f", {_type(v[1], v[2])}) -> {_type(v[1], 'i64')}")
    return r, v[1], "i64"


def _emit_flip(b, node):
    (x,) = _emit_operands(b, node)
    axes = ", ".join(str(a) for a in node.attrs)
    t = _type(x[1], x[2])
    return b.op(f"ndarray.flip {x[0]} [{axes}] : {t} -> {t}"), x[1], x[2]


def _emit_masked_select(b, node):
    x, m = _emit_operands(b, node)
    dims = [None] + list(x[1][len(m[1]):])
    name = b.op(f"ndarray.masked_select {x[0]}[{m[0]}] : {_type(x[1], x[2])}, "
                f"{_type(m[1], m[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_argreduce(b, node):
    (x,) = _emit_operands(b, node)
    kind, axis, keepdims = node.attrs
    dims = []
    for d, n in enumerate(x[1]):
        if axis is not None and d != axis:
            dims.append(n)
        elif keepdims:
            dims.append(1)
    text = f"ndarray.argreduce {kind} {x[0]}"
    if axis is not None:
        text += f" axis {axis}"
    if keepdims:
        text += " keepdims"
    name = b.op(f"{text} : {_type(x[1], x[2])} -> {_type(dims, 'i64')}")
    return name, dims, "i64"


def _emit_cumulative(b, node):
    (x,) = _emit_operands(b, node)
    kind, axis, include_initial = node.attrs
    dims = list(x[1])
    if include_initial and dims[axis] is not None:
        dims[axis] += 1
    dtype = _dtypes.to_mlir(node.dtype)
    flag = " include_initial" if include_initial else ""
    name = b.op(f"ndarray.cumulative {kind} {x[0]} axis {axis}{flag} : "
                f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_matmul(b, node):
    x, y = _emit_operands(b, node)
    dims = [None] * len(node.shape)  # conservative: always valid
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.matmul {x[0]}, {y[0]} : ({_type(x[1], x[2])}, "
                f"{_type(y[1], y[2])}) -> {_type(dims, dtype)}")
    return name, dims, dtype


def _sized_result(b, node, mnemonic, suffix=""):
    """An op whose result sizes are operands for its dynamic dimensions."""
    (x,) = _emit_operands(b, node)
    dims = _static_dims(node.shape)
    dtype = _dtypes.to_mlir(node.dtype)
    dynamic = [b.size(n)[1] for n, d in zip(node.shape, dims) if d is None]
    operands = f"({', '.join(dynamic)})" if dynamic else ""
    name = b.op(f"ndarray.{mnemonic} {x[0]}{operands}{suffix} : "
                f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_reshape(b, node):
    return _sized_result(b, node, "reshape",
                         " copy" if node.attrs else "")


def _emit_broadcast_to(b, node):
    """A size the source keeps is its own `ndarray.dim`: the compiler sees
    the axes that are not broadcast (ranks broadcast their own rows of a
    split array; a broadcast to the source's shape folds away)."""
    (x,) = _emit_operands(b, node)
    dims = _static_dims(node.shape)
    dtype = _dtypes.to_mlir(node.dtype)
    lead = len(node.shape) - len(x[1])
    source_shape = node.inputs[0].shape
    dynamic = [b.dim(x, d - lead)
               if d >= lead and source_shape[d - lead] == n
               else b.size(n)[1]
               for d, (n, s) in enumerate(zip(node.shape, dims)) if s is None]
    operands = f"({', '.join(dynamic)})" if dynamic else ""
    name = b.op(f"ndarray.broadcast_to {x[0]}{operands} : "
                f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_permute_dims(b, node):
    (x,) = _emit_operands(b, node)
    dims = [x[1][a] for a in node.attrs]
    name = b.op(f"ndarray.permute_dims {x[0]} "
                f"[{', '.join(str(a) for a in node.attrs)}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_expand_dims(b, node):
    (x,) = _emit_operands(b, node)
    dims = list(x[1])
    for a in sorted(node.attrs):
        dims.insert(a, 1)
    name = b.op(f"ndarray.expand_dims {x[0]} "
                f"[{', '.join(str(a) for a in sorted(node.attrs))}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_squeeze(b, node):
    (x,) = _emit_operands(b, node)
    dims = [n for d, n in enumerate(x[1]) if d not in node.attrs]
    name = b.op(f"ndarray.squeeze {x[0]} "
                f"[{', '.join(str(a) for a in sorted(node.attrs))}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_concat(b, node):
    xs = _emit_operands(b, node)
    axis = node.attrs
    dims = []
    for d in range(len(node.shape)):
        dims.append(1 if d != axis and all(x[1][d] == 1 for x in xs)
                    else None)
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.concat {', '.join(x[0] for x in xs)} axis {axis} "
                f": ({', '.join(_type(x[1], x[2]) for x in xs)}) -> "
                f"{_type(dims, dtype)}")
    return name, dims, dtype


def _emit_astype(b, node):
    (x,) = _emit_operands(b, node)
    dtype = _dtypes.to_mlir(node.dtype)
    copy = " copy" if node.attrs else ""
    name = b.op(f"ndarray.cast_elemtype {x[0]}{copy} : {_type(x[1], x[2])} "
                f"to {_type(x[1], dtype)}")
    return name, x[1], dtype


def _team_attr(node):
    return (f" {{dist.team = {_State.team} : i64{_split_attr(node.split)}}}"
            if distributed(node) else "")


def _creation_sizes(b, node):
    """The dims of a created array and its dynamic-size operand list
    (`(%a, %b)` or empty); marks the kernel distributed if it is."""
    dims = _static_dims(node.shape)
    sizes = [b.size(n)[1] for n, d in zip(node.shape, dims) if d is None]
    if distributed(node):
        b.distributed = True
    return dims, f"({', '.join(sizes)})" if sizes else ""


def _emit_full(b, node):
    dtype = _dtypes.to_mlir(node.dtype)
    storage = dtype[1:] if dtype.startswith("ui") else dtype
    dims, operands = _creation_sizes(b, node)
    fill = ""
    if node.attrs is not None:
        fill = f" value {b.element(node.attrs, dtype)[0]}"
    name = b.op(f"ndarray.create{operands}{fill}{_team_attr(node)} : "
                f"{_type(dims, storage)}")
    return b.cast_unsigned((name, dims, storage), dtype)


def _emit_linspace(b, node):
    start, stop, num, endpoint = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    s = b._arg("f64", [float(start)])
    e = b._arg("f64", [float(stop)])
    n = b.size(num)[1]
    dims = _static_dims(node.shape)
    if distributed(node):
        b.distributed = True
    flag = " endpoint" if endpoint else ""
    name = b.op(f"ndarray.linspace {s}, {e}, {n}{flag}{_team_attr(node)} : "
                f"f64 -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_random(b, node):
    distribution, seed, stream = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    signed = lambda v: (v + 2 ** 63) % 2 ** 64 - 2 ** 63  # noqa: E731
    s = b._arg("i64", [signed(seed)])
    t = b._arg("i64", [signed(stream)])
    dims, operands = _creation_sizes(b, node)
    name = b.op(f"ndarray.random {distribution} {s}, {t} {operands}"
                f"{_team_attr(node)} : {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_tri(b, node):
    (k,) = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    dims, operands = _creation_sizes(b, node)
    # (k is an argument: every diagonal runs the same kernel.)
    name = b.op(f"ndarray.tri {b.index_arg(k)} {operands}{_team_attr(node)} "
                f": {_type(dims, dtype)}")
    return name, dims, dtype


def _slice_operand(b, shape, d, value, from_end, literal=True):
    """An offset or size: a literal (an argument unless `literal`), or
    `size - from_end` when it was given relative to the end of dimension
    `d` of an array of `shape` (so that the kernel does not depend on the
    size)."""
    if from_end is None:
        return str(int(value)) if literal else b.index_arg(value)
    if from_end == 0:
        return b.size_value(shape[d])
    return b.size_minus(shape[d], from_end, literal)


def _split_axes(node):
    """The axes along which kernels see `node` distributed."""
    if not distributed(node):
        return ()
    return node.split if isinstance(node.split, tuple) else (0,)


def _view_slice(b, node):
    """The offsets, sizes and strides of the view `node` in its parent,
    and the view's dims. Integer indices and slice bounds are run-time
    arguments (a loop over indices compiles once), but for slice bounds
    along the split axes of a distributed array: they decide the
    communication (halo widths, which ranks hold the slice), so they stay
    in the kernel."""
    parent = node.inputs[0]
    shape = parent.shape
    split_axes = _split_axes(parent)
    offsets, sizes, strides, dims = [], [], [], []
    for d, entry in enumerate(node.attrs):
        kind, start, start_end, size, size_end, step = entry
        literal = d in split_axes and kind == "slice"
        if start_end is None and not literal:
            offsets.append(b.offset_arg(start, shape, d))
        else:
            offsets.append(_slice_operand(b, shape, d, start, start_end,
                                          literal))
        strides.append(str(step))
        if kind == "int":
            sizes.append("1")
            continue
        if size == 1:
            # (Static, as a size of 1 is everywhere else: the compiler must
            # see where a view broadcasts, also one ending relative to the
            # end of its dimension, `a[1:]` of two rows.)
            sizes.append("1")
            dims.append(1)
        else:
            if size_end is not None:
                sizes.append(_slice_operand(b, shape, d, size, size_end,
                                            literal))
            elif literal:
                sizes.append(b.index(size))
            else:
                sizes.append(b.size(size)[1])
            dims.append(None)
    return offsets, sizes, strides, dims


def _emit_view(b, node):
    parent = b.value(node.inputs[0])
    offsets, sizes, strides, dims = _view_slice(b, node)
    name = b.op(f"ndarray.subview {parent[0]}[{', '.join(offsets)}] "
                f"[{', '.join(sizes)}] [{', '.join(strides)}] : "
                f"{_type(parent[1], parent[2])} to {_type(dims, parent[2])}")
    return name, dims, parent[2]


def _emit_write(b, destination, source):
    """`destination[...] = source`; a view is written as a slice of its
    parent (the same IR as `parent[slice] = source`, which distributed
    arrays update in place without copies of the view)."""
    if destination.op == "view":
        b.share_write_offsets(destination.inputs[0].shape, {
            d: entry[1] for d, entry in enumerate(destination.attrs)
            if entry[2] is None})
    src = (b.value(source) if isinstance(source, Node)
           else b.scalar(*source))
    # (Views dropping dimensions keep the subview: the source broadcasts to
    # the view's shape, not to the slice's.)
    if destination.op != "view" or any(
            entry[0] == "int" for entry in destination.attrs):
        b.insert(src, b.value(destination))
        return
    parent = b.value(destination.inputs[0])
    offsets, sizes, strides, _ = _view_slice(b, destination)
    b.line(f"ndarray.insert_slice {src[0]} into {parent[0]}"
           f"[{', '.join(offsets)}] [{', '.join(sizes)}] "
           f"[{', '.join(strides)}] : {_type(src[1], src[2])} into "
           f"{_type(parent[1], parent[2])}")


def _cast_to(b, value, dims):
    name, vdims, dtype = value
    if list(vdims) == list(dims):
        return name
    return b.op(f"ndarray.cast {name} : {_type(vdims, dtype)} to "
                f"{_type(dims, dtype)}")


def _emit_loop(b, node):
    """`scf.for` over the traced body of an imex.fori_loop."""
    lower, upper, args, body, results, key = node.attrs
    inits = [b.value(n) for n in node.inputs]
    # Loop-carried arrays keep the types of their initial values, with sizes
    # other than 1 dynamic (the body may change which sizes are static).
    types = [[None if d != 1 else 1 for d in v[1]] for v in inits]
    init_names = [_cast_to(b, v, t) for v, t in zip(inits, types)]
    lb, ub = b.index_arg(lower), b.index_arg(upper)
    name = b.fresh()
    iv = b.fresh()
    carried = [b.fresh() for _ in args]
    type_list = ", ".join(_type(t, v[2]) for t, v in zip(types, inits))
    iter_args = ", ".join(f"{c} = {i}" for c, i in zip(carried, init_names))
    count = f":{len(args)}" if len(args) > 1 else ""
    if args:
        b.line(f"{name}{count} = scf.for {iv} = {lb} to {ub} step "
               f"{b.index(1)} iter_args({iter_args}) -> ({type_list}) {{")
    else:
        b.line(f"scf.for {iv} = {lb} to {ub} step {b.index(1)} {{")
    outer_indent = b.indent
    b.indent += "  "
    outside = set(b.ssa)
    b.loop_ivs[key] = iv
    for arg, c, t, v in zip(args, carried, types, inits):
        # Seen through a view with the shared sizes, as arguments are.
        b.ssa[arg.id] = (b.view_with_sizes(c, t, v[2], arg.shape), t, v[2])
    emit_in_order(b, body)
    yields = [_cast_to(b, b.value(r), t) for r, t in zip(results, types)]
    if yields:
        b.line(f"scf.yield {', '.join(yields)} : {type_list}")
    b.indent = outer_indent
    b.line("}")
    # Values defined in the body are not visible after the loop.
    b.forget_region(outside)
    return [(f"{name}#{k}" if len(args) > 1 else name, t, v[2])
            for k, (t, v) in enumerate(zip(types, inits))]


def _emit_while(b, node):
    """`scf.while` over the traced condition and body of an
    imex.while_loop."""
    cond_args, cond_scope, condition, body_args, body_scope, results = \
        node.attrs
    inits = [b.value(n) for n in node.inputs]
    types = [[None if d != 1 else 1 for d in v[1]] for v in inits]
    init_names = [_cast_to(b, v, t) for v, t in zip(inits, types)]
    type_list = ", ".join(_type(t, v[2]) for t, v in zip(types, inits))
    name = b.fresh()
    before = [b.fresh() for _ in inits]
    after = [b.fresh() for _ in inits]
    if inits:
        count = f":{len(inits)}" if len(inits) > 1 else ""
        operands = ", ".join(f"{x} = {i}" for x, i in zip(before, init_names))
        b.line(f"{name}{count} = scf.while ({operands}) : ({type_list}) -> "
               f"({type_list}) {{")
    else:
        b.line("scf.while : () -> () {")

    def region(args, names, scope, finish):
        outer_indent = b.indent
        b.indent += "  "
        outside = set(b.ssa)
        for arg, n, t, v in zip(args, names, types, inits):
            b.ssa[arg.id] = (b.view_with_sizes(n, t, v[2], arg.shape), t,
                             v[2])
        emit_in_order(b, scope)
        finish()
        b.forget_region(outside)
        b.indent = outer_indent

    def condition_op():
        flag = b.op(f"ndarray.load {b.value(condition)[0]}[] : "
                    f"{_type([], 'i1')}")
        forwarded = f" {', '.join(before)} : {type_list}" if inits else ""
        b.line(f"scf.condition({flag}){forwarded}")

    def yield_op():
        yields = [_cast_to(b, b.value(r), t) for r, t in zip(results, types)]
        b.line(f"scf.yield {', '.join(yields)} : {type_list}" if yields
               else "scf.yield")

    region(cond_args, before, cond_scope, condition_op)
    b.line("} do {")
    if inits:
        b.line("^bb0(" + ", ".join(f"{a}: {_type(t, v[2])}" for a, t, v in
                                   zip(after, types, inits)) + "):")
    region(body_args, after, body_scope, yield_op)
    b.line("}")
    return [(f"{name}#{k}" if len(inits) > 1 else name, t, v[2])
            for k, (t, v) in enumerate(zip(types, inits))]


def _emit_loop_index(b, node):
    """The 0-d int64 array of a fori_loop index (see imex._loop_index): the
    lower bound is a run-time argument, the rest is structure."""
    key, scale, offset, lower = node.attrs
    if key is None:
        index = b.index_arg(lower + offset)
    else:
        index = b.loop_ivs[key]
        if scale != 1:
            index = b.op(f"arith.muli {index}, {b.index(scale)} : index")
        index = b.op(f"arith.addi {index}, {b.index_arg(lower)} : index")
        if offset:
            index = b.op(f"arith.addi {index}, {b.index(offset)} : index")
    value = b.op(f"arith.index_cast {index} : index to i64")
    name = b.op(f"ndarray.create value {value} : !ndarray.ndarray<i64>")
    return name, [], "i64"


def _emit_loop_result(b, node):
    return b.value(node.inputs[0])[node.attrs]


def emit_in_order(b, nodes):
    """Emits traced nodes in program order (writes among them)."""
    for node in nodes:
        if node.op == "write":
            _emit_write(b, *node.inputs)
        else:
            b.value(node)


EMITTERS = {
    "ewbin": _emit_ewbin, "ewuny": _emit_ewuny, "where": _emit_where,
    "reduction": _emit_reduction, "matmul": _emit_matmul,
    "reshape": _emit_reshape, "broadcast_to": _emit_broadcast_to,
    "permute_dims": _emit_permute_dims, "expand_dims": _emit_expand_dims,
    "squeeze": _emit_squeeze, "concat": _emit_concat, "astype": _emit_astype,
    "full": _emit_full, "linspace": _emit_linspace, "random": _emit_random,
    "tri": _emit_tri, "cumulative": _emit_cumulative,
    "argreduce": _emit_argreduce, "masked_select": _emit_masked_select,
    "flip": _emit_flip, "sort": _emit_sort, "linalg": _emit_linalg,
    "linalg_result": _emit_linalg_result, "fft": _emit_fft,
    "searchsorted": _emit_searchsorted, "take": _emit_take, "put": _emit_put,
    "loop": _emit_loop,
    "while": _emit_while,
    "loop_result": _emit_loop_result, "loop_index": _emit_loop_index,
}


# Names of the other parts of imex._core, bound once all are defined
# (the functions above use them only when called).
from ._core import (  # noqa: E402
    Node,
    _State,
    distributed,
)
from ._builder import (  # noqa: E402
    _broadcast_dims,
    _split_attr,
    _static_dims,
    _type,
)

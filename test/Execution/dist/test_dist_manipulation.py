"""Shape manipulation of distributed arrays: reshape (rank changes, rows
crossing rank boundaries, copy), permute_dims (moving dimension 0 or not),
concat along axis 0 and 1 (distributed and replicated inputs), and loading
single elements owned by different ranks."""

import pytest

from dist_harness import data, iota, named, run_cases


def reshapes(d, dynamic):
    a = d.array(iota((6, 4)), dynamic=dynamic)
    d.check(d.reshape(a, (3, 8), dynamic=dynamic), "6x4 -> 3x8")
    d.check(d.reshape(a, (24,), dynamic=dynamic), "6x4 -> 24")
    d.check(d.reshape(a, (2, 3, 4), copy=True, dynamic=dynamic),
            "6x4 -> 2x3x4 copy")
    d.check(d.reshape(a, (8, 3), dynamic=dynamic), "6x4 -> 8x3")
    v = d.array(iota((12,), "i64"), dynamic=dynamic)
    r = d.reshape(v, (4, 3), dynamic=dynamic)
    d.check(r, "12 -> 4x3")
    # the reshaped array takes part in distributed computation
    d.check(d.add(d.view(r, slice(1, None)), d.view(r, slice(None, -1))),
            "r[1:] + r[:-1]")
    d.check(d.reshape(d.array(iota((5, 2))), (2, 5)), "5x2 -> 2x5 (small)")
    one = d.array(iota((1,)), dynamic=dynamic)
    scalar = d.reshape(one, (), dynamic=dynamic)
    d.check(scalar, "1 -> () (0-d)")
    d.check(d.reshape(scalar, (1, 1), dynamic=dynamic), "() -> 1x1")


def permutes(d, dynamic):
    a = d.array(iota((5, 3)), dynamic=dynamic)
    t = d.permute(a, [1, 0])
    d.check(t, "a.T")
    d.check(d.add(t, d.view(t, 0)), "a.T + a.T[0]")
    b = d.array(data((4, 3, 2), "i32", -9, 9), dynamic=dynamic)
    d.check(d.permute(b, [2, 0, 1]), "(4,3,2) -> [2,0,1]")
    d.check(d.permute(b, [0, 2, 1]), "(4,3,2) -> [0,2,1] keeps dim 0")
    d.check(d.permute(b, [1, 2, 0]), "(4,3,2) -> [1,2,0]")
    tall = d.array(iota((2, 7)))
    d.check(d.permute(tall, [1, 0]), "2x7 -> 7x2 (few rows in)")


def flips(d, dynamic):
    """Along dimension 0 each rank fetches its mirrored rows (a
    repartition); along other axes local."""
    a = d.array(iota((7, 3)), dynamic=dynamic)
    d.check(d.flip(a, [0]), "flip(a, 0)")
    d.check(d.flip(a, [1]), "flip(a, 1)")
    d.check(d.flip(a, [0, 1]), "flip(a)")
    d.check(d.add(d.flip(a, [0]), a), "flip(a, 0) + a")
    b = d.array(data((2, 5), "i32", -9, 9), dynamic=dynamic)
    d.check(d.flip(b, [0]), "flip of 2 rows")
    d.check(d.flip(d.view(a, (slice(1, 6, 2), slice(None))), [0]),
            "flip(a[1:6:2], 0)")


def concats(d, dynamic):
    a = d.array(iota((3, 4)), dynamic=dynamic)
    b = d.array(data((5, 4)), dynamic=dynamic)
    r = d.array(data((2, 4)), dist=False)
    d.check(d.concat([a, b], 0), "concat dist dist axis 0")
    d.check(d.concat([b, r, a], 0), "concat dist repl dist axis 0")
    c = d.array(data((5, 2)), dynamic=dynamic)
    d.check(d.concat([b, c], 1), "concat axis 1")
    rc = d.array(data((5, 1)), dist=False)
    d.check(d.concat([rc, b, c], 1), "concat repl dist dist axis 1")
    i = d.array(iota((4, 4), "i32"))
    d.check(d.concat([a, i], 0), "concat f64 and i32 axis 0 (promotes)")
    d.check(d.concat([d.array(iota((1, 4))), d.array(iota((1, 4)))], 0),
            "concat of single rows")


def loads(d, dynamic):
    a = d.array(data((9, 3)), dynamic=dynamic)
    for i, j in ((0, 0), (4, 2), (8, 1)):
        d.check(d.load(a, (i, j)), f"a[{i}, {j}]")
    v = d.array(iota((5,), "i64"), dynamic=dynamic)
    d.check(d.load(v, (4,)), "v[4]")
    # a loaded element scales a distributed array
    s = d.load(a, (6, 0))
    d.check(d.mul(a, s), "a * a[6, 0]")


def cases(dynamic):
    return [named("reshapes", reshapes, dynamic),
            named("permutes", permutes, dynamic),
            named("concats", concats, dynamic),
            named("flips", flips, dynamic),
            named("loads", loads, dynamic)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_manipulation(dynamic):
    run_cases(cases(dynamic))

"""ndarray.insert_slice into distributed arrays: from distributed values
(aligned, shifted, from other ranks' rows, overlapping the destination),
from replicated values (same rank, lower rank, 0-d scalars), into strided
and rank-reduced destinations."""

import pytest

from dist_harness import data, iota, named, run_cases


def from_distributed(d, n, dynamic):
    a = d.array(iota((n,)), dynamic=dynamic)
    b = d.array(data((n,)), dynamic=dynamic, via="create")
    # a[1:-1] = b[2:] + b[:-2]
    d.setitem(a, slice(1, -1), d.add(d.view(b, slice(2, None)),
                                     d.view(b, slice(None, -2))))
    d.check(a, "a[1:-1] = b[2:] + b[:-2]")
    # rows move between ranks: a[:k] = b[n-k:]
    k = n // 2
    d.setitem(a, slice(None, k), d.view(b, slice(n - k, None)))
    d.check(a, "a[:k] = b[n-k:]")
    # a smaller distributed array into the middle
    c = d.array(data((3,)))
    d.setitem(a, slice(n - 4, n - 1), c)
    d.check(a, "a[n-4:n-1] = c (3 rows)")


def overlapping(d, dynamic):
    a = d.array(iota((9,)), dynamic=dynamic)
    d.setitem(a, slice(1, None), d.view(a, slice(None, -1)))
    d.check(a, "a[1:] = a[:-1]")
    d.setitem(a, slice(None, -2), d.view(a, slice(2, None)))
    d.check(a, "a[:-2] = a[2:]")
    m = d.array(iota((6, 4)), dynamic=dynamic)
    d.setitem(m, (slice(1, None), slice(None, -1)),
              d.view(m, (slice(None, -1), slice(1, None))))
    d.check(m, "m[1:, :-1] = m[:-1, 1:]")


def from_replicated(d, dynamic):
    a = d.array(data((7, 4)), dynamic=dynamic)
    block = d.array(data((3, 4)), dist=False)
    d.setitem(a, slice(2, 5), block)
    d.check(a, "a[2:5] = repl 3x4")
    row = d.array(data((4,)), dist=False)
    d.setitem(a, slice(4, 7), row)
    d.check(a, "a[4:7] = repl row (broadcast)")
    col = d.array(data((7,)), dist=False)
    d.setitem(a, (slice(None), 1), col)
    d.check(a, "a[:, 1] = repl column")
    d.setitem(a, (5, slice(None)), row)
    d.check(a, "a[5, :] = repl row")
    ints = d.array(data((4,), "i64", -5, 5), dist=False)
    d.setitem(a, 0, ints)
    d.check(a, "a[0] = i64 row (converted)")


def scalars(d, dynamic):
    a = d.array(iota((10, 3)), dynamic=dynamic)
    d.setitem(a, (slice(None, None, 2), slice(None)), d.scalar(7.0))
    d.check(a, "a[::2] = 7")
    d.setitem(a, (3, 1), d.scalar(-2.0))
    d.check(a, "a[3, 1] = -2")
    d.setitem(a, (slice(None), slice(None)), d.scalar(0.5, dist=True))
    d.check(a, "a[...] = 0-d with a team")
    i = d.array(iota((5,), "i32"), dynamic=dynamic)
    d.setitem(i, slice(1, 4), d.scalar(3.9))  # f64 into i32: truncates
    d.check(i, "i32[1:4] = 3.9")
    b = d.array(data((4,), "i1"), dynamic=dynamic)
    d.setitem(b, slice(None), d.scalar(True, "i1"))
    d.check(b, "bool[:] = True")


def strided_destinations(d, dynamic):
    a = d.array(iota((11, 6)), dynamic=dynamic)
    src = d.array(data((4, 3)))
    d.setitem(a, (slice(1, None, 3), slice(None, None, 2)), src)
    d.check(a, "a[1::3, ::2] = dist 4x3")
    rsrc = d.array(data((3, 2)), dist=False)
    d.setitem(a, (slice(2, 9, 3), slice(1, 6, 3)), rsrc)
    d.check(a, "a[2:9:3, 1:6:3] = repl 3x2")
    v = d.array(data((11,)), dynamic=dynamic)
    d.setitem(a, (slice(None), 5), v)
    d.check(a, "a[:, 5] = dist column")
    w = d.array(iota((6,)))
    d.setitem(a, (slice(None, None, 2), 4), w)
    d.check(a, "a[::2, 4] = dist 6")


def two_d_shifted(d, dynamic):
    u = d.array(data((8, 6)), dynamic=dynamic)
    new = d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                d.view(u, (slice(2, None), slice(1, -1))))
    d.setitem(u, (slice(1, -1), slice(1, -1)), new)
    d.check(u, "u[1:-1, 1:-1] = u[:-2, 1:-1] + u[2:, 1:-1]")


def into_small(d):
    # destination with fewer rows than ranks; source spread over all ranks
    a = d.array(iota((2, 3)))
    b = d.array(data((9, 3)))
    d.setitem(a, slice(None), d.view(b, slice(3, 9, 3)))
    d.check(a, "a[:] = b[3:9:3]")
    e = d.array(iota((1,)))
    d.setitem(e, 0, d.view(b, (8, 2)))
    d.check(e, "e[0] = b[8, 2]")


def cases(dynamic):
    return [named("from_distributed_10", from_distributed, 10, dynamic),
            named("from_distributed_5", from_distributed, 5, dynamic),
            named("overlapping", overlapping, dynamic),
            named("from_replicated", from_replicated, dynamic),
            named("scalars", scalars, dynamic),
            named("strided_destinations", strided_destinations, dynamic),
            named("two_d_shifted", two_d_shifted, dynamic),
            named("into_small", into_small)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_insert(dynamic):
    run_cases(cases(dynamic))

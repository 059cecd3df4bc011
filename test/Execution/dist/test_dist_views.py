"""Views of distributed arrays (ndarray.subview): offsets, strides, rank
reduction, views of views, and shifted stencil reads (`a[2:] + a[:-2]`,
2-D shifted views) that need rows owned by neighbouring ranks (halos)."""

import pytest

from dist_harness import data, iota, named, run_cases


def shifted_1d(d, n, dynamic):
    a = d.array(data((n,)), dynamic=dynamic)
    d.check(d.add(d.view(a, slice(2, None)), d.view(a, slice(None, -2))),
            "a[2:] + a[:-2]")
    two = d.scalar(2.0)
    lap = d.sub(d.add(d.view(a, slice(None, -2)), d.view(a, slice(2, None))),
                d.mul(two, d.view(a, slice(1, -1))))
    d.check(lap, "a[:-2] - 2 a[1:-1] + a[2:]")
    if n > 4:
        # wider than one neighbour on small blocks
        d.check(d.sub(d.view(a, slice(4, None)), d.view(a, slice(None, -4))),
                "a[4:] - a[:-4]")


def strided_1d(d, dynamic):
    a = d.array(iota((17,)), dynamic=dynamic)
    d.check(d.view(a, slice(1, None, 2)), "a[1::2]")
    d.check(d.view(a, slice(3, 14, 3)), "a[3:14:3]")
    # two strided views with different offsets combined
    d.check(d.add(d.view(a, slice(0, 16, 2)), d.view(a, slice(1, 17, 2))),
            "a[0:16:2] + a[1:17:2]")
    d.check(d.view(d.view(a, slice(2, -1)), slice(None, None, 4)),
            "a[2:-1][::4]")
    d.check(d.view(a, slice(5, 5)), "a[5:5] (empty)")
    d.check(d.view(a, slice(-3, None)), "a[-3:]")


def shifted_2d(d, shape, dynamic):
    u = d.array(data(shape), dynamic=dynamic)
    north = d.view(u, (slice(None, -2), slice(1, -1)))
    south = d.view(u, (slice(2, None), slice(1, -1)))
    west = d.view(u, (slice(1, -1), slice(None, -2)))
    east = d.view(u, (slice(1, -1), slice(2, None)))
    quarter = d.scalar(0.25)
    d.check(d.mul(d.add(d.add(north, south), d.add(west, east)), quarter),
            "5-point")
    # diagonal neighbours
    d.check(d.sub(d.view(u, (slice(2, None), slice(2, None))),
                  d.view(u, (slice(None, -2), slice(None, -2)))),
            "u[2:,2:] - u[:-2,:-2]")
    d.check(d.view(u, (slice(1, None, 2), slice(None, None, 2))),
            "u[1::2, ::2]")


def rank_reducing(d, dynamic):
    a = d.array(iota((9, 5)), dynamic=dynamic)
    d.check(d.view(a, 4), "a[4]")
    d.check(d.add(d.view(a, 0), d.view(a, -1)), "a[0] + a[-1]")
    d.check(d.view(a, (slice(None), 2)), "a[:, 2]")
    d.check(d.view(a, (slice(1, 8, 3), 3)), "a[1:8:3, 3]")
    col = d.view(a, (slice(None), 1))
    row = d.view(a, 7)
    # a distributed column against a row owned by one rank
    d.check(d.sub(d.view(col, slice(None, 5)), row), "a[:5, 1] - a[7]")
    d.check(d.view(a, (6, 3)), "a[6, 3] (0-d view)")


def mixed_with_replicated(d, dynamic):
    a = d.array(data((8, 3)), dynamic=dynamic)
    r = d.array(data((10, 3)), dist=False, dynamic=dynamic)
    # a replicated view aligned with shifted distributed rows
    d.check(d.add(d.view(a, slice(1, None)), d.view(r, slice(3, 10))),
            "a[1:] + r[3:10]")
    d.check(d.mul(d.view(r, slice(None, 8)), a), "r[:8] * a")


def small(d, n):
    # fewer rows than ranks
    a = d.array(iota((n, 2)))
    d.check(d.add(d.view(a, slice(1, None)), d.view(a, slice(None, -1))),
            "a[1:] + a[:-1]")
    d.check(d.view(a, (slice(None), 1)), "a[:, 1]")


def writes_through_views(d, dynamic):
    # v = a[2:7]; v[1:3] = 9; a[5] = v[0]  (views alias the distributed array)
    a = d.array(iota((10,)), dynamic=dynamic)
    v = d.view(a, slice(2, 7))
    d.setitem(v, slice(1, 3), d.scalar(9.0))
    d.check(a, "a after v[1:3] = 9")
    d.setitem(a, slice(5, 6), d.view(v, slice(0, 1)))
    d.check(v, "v after a[5] = v[0]")
    w = d.view(a, slice(None, None, 3))
    d.setitem(w, slice(None), d.scalar(-1.0))
    d.check(a, "a after a[::3] = -1 through a view")


def cases(dynamic):
    return [named("shifted_1d_11", shifted_1d, 11, dynamic),
            named("shifted_1d_5", shifted_1d, 5, dynamic),
            named("shifted_1d_3", shifted_1d, 3, dynamic),
            named("strided_1d", strided_1d, dynamic),
            named("shifted_2d_9x7", shifted_2d, (9, 7), dynamic),
            named("shifted_2d_4x5", shifted_2d, (4, 5), dynamic),
            named("rank_reducing", rank_reducing, dynamic),
            named("mixed_with_replicated", mixed_with_replicated, dynamic),
            named("small_2", small, 2), named("small_3", small, 3),
            named("writes_through_views", writes_through_views, dynamic)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_views(dynamic):
    run_cases(cases(dynamic), expect_halo=True)

"""Generated programs: seeded random sequences of in-place updates of 2-D
arrays through row blocks, column views, shifted stencil views and loops,
with several arrays created with the same shape and fill value (so that
CSE could merge their creations while one of them is updated in place, and
dist-coalesce could move or merge exchanges across pending updates). Each
program runs distributed on 1-4 ranks (split on rows, and some split over
the 2-D grid of ranks) and, with the same operations, replicated (no team:
the single-process lowering of every op); all are compared with numpy.

The rule these programs test: an op may be merged with another (CSE) or
moved (communication coalescing, loop-invariant motion) only if no in-place
update of what it reads, or of what it creates, lies between the two
places."""

import numpy as np
import pytest

from dist_harness import named, run_cases

SHAPES = [(7, 5), (9, 4), (5, 6), (11, 3)]
FILLS = [0.0, 1.0]


class Generator:
    def __init__(self, d, seed, team):
        self.d, self.team = d, team
        self.rng = np.random.default_rng(seed)

    def pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def block(self, extent, min_size=1):
        """A random [start, stop) inside [0, extent) of at least min_size."""
        size = int(self.rng.integers(min_size, extent + 1))
        start = int(self.rng.integers(0, extent - size + 1))
        return start, start + size

    def expr(self, sources, rows, cols):
        """An elementwise combination of views of `sources` with the block
        shape rows x cols (each view at a random position)."""
        d = self.d
        terms = []
        for a in self.rng.choice(len(sources), size=2, replace=True):
            a = sources[a]
            nrows, ncols = a.shape
            r0 = int(self.rng.integers(0, nrows - rows + 1))
            c0 = int(self.rng.integers(0, ncols - cols + 1))
            terms.append(d.view(a, (slice(r0, r0 + rows),
                                    slice(c0, c0 + cols))))
        value = self.pick([d.add, d.sub, d.mul])(terms[0], terms[1])
        if self.rng.random() < 0.5:
            value = d.add(value, d.scalar(float(self.rng.integers(-2, 3))))
        return value

    def update_block(self, arrays):
        dst = self.pick(arrays)
        nrows, ncols = dst.shape
        r0, r1 = self.block(nrows)
        c0, c1 = self.block(ncols)
        self.d.setitem(dst, (slice(r0, r1), slice(c0, c1)),
                       self.expr(arrays, r1 - r0, c1 - c0))

    def update_column(self, arrays):
        """dst[:, j][r0:r1] = ... through a rank-reduced column view."""
        d = self.d
        dst = self.pick(arrays)
        nrows, ncols = dst.shape
        col = d.view(dst, (slice(None), int(self.rng.integers(ncols))))
        r0, r1 = self.block(nrows)
        src = self.pick(arrays)
        j = int(self.rng.integers(src.shape[1]))
        s0 = int(self.rng.integers(0, src.shape[0] - (r1 - r0) + 1))
        value = d.view(src, (slice(s0, s0 + r1 - r0), j))
        if self.rng.random() < 0.5:
            value = d.mul(value, d.scalar(2.0))
        d.setitem(col, slice(r0, r1), value)

    def stencil(self, arrays):
        """dst[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1] - a[1:-1, :-2]."""
        d = self.d
        dst, a = self.pick(arrays), self.pick(arrays)
        if dst.shape != a.shape:
            return
        inner = (slice(1, -1), slice(1, -1))
        d.setitem(dst, inner, d.sub(
            d.add(d.view(a, (slice(None, -2), slice(1, -1))),
                  d.view(a, (slice(2, None), slice(1, -1)))),
            d.view(a, (slice(1, -1), slice(None, -2)))))

    def overwrite(self, arrays):
        """dst[...] = expr (a whole-array update), sometimes of an array
        created just before, alike an existing one (CSE merges them)."""
        d = self.d
        if self.rng.random() < 0.5:
            like = self.pick(arrays)
            arrays.append(d.create(like.shape, like.fill, dynamic=like.dims[0]
                                   is None, team=self.team))
            arrays[-1].fill = like.fill
            d.check(like, "alike")
        dst = self.pick(arrays)
        d.setitem(dst, (slice(None), slice(None)),
                  self.expr(arrays, *dst.shape))

    def step(self, arrays, depth=0):
        kind = self.rng.random()
        if kind < 0.15 and depth == 0:
            self.overwrite(arrays)
        elif kind < 0.35:
            self.update_block(arrays)
        elif kind < 0.6:
            self.update_column(arrays)
        elif kind < 0.8 or depth > 0:
            self.stencil(arrays)
        else:
            count = int(self.rng.integers(1, 4))
            body = [self.rng.random() for _ in range(2)]
            state = self.rng.bit_generator.state

            def loop_body(d):
                # The same steps every iteration (numpy runs them `count`
                # times, the IR is emitted once).
                self.rng.bit_generator.state = state
                for _ in body:
                    self.step(arrays, depth + 1)
            self.d.loop(count, loop_body)

    def program(self):
        d = self.d
        shape = self.pick(SHAPES)
        dynamic = bool(self.rng.integers(2))
        fill = self.pick(FILLS)
        # Same shape and fill: candidates for CSE.
        fills = [fill, fill, self.pick(FILLS)]
        arrays = [d.create(shape, f, dynamic=dynamic, team=self.team)
                  for f in fills]
        for a, f in zip(arrays, fills):
            a.fill = f
        # Distinct contents to start from (a[0, :] = 1, ...).
        for i, a in enumerate(arrays):
            d.setitem(a, (i, slice(None)), d.scalar(float(i + 2)))
        for _ in range(int(self.rng.integers(4, 9))):
            self.step(arrays)
            if self.rng.random() < 0.3:
                d.check(self.pick(arrays), "midway")
        for i, a in enumerate(arrays):
            d.check(a, f"array {i}")


def generated(d, seed, team):
    Generator(d, seed, team).program()


# Programs of a few seeds each: LLVM's compile time grows faster than the
# size of one function.
PROGRAMS = [range(first, first + 4) for first in range(0, 24, 4)]
GRID_PROGRAMS = 2


@pytest.mark.parametrize("seeds", PROGRAMS,
                         ids=lambda r: f"seeds{r.start}-{r.stop - 1}")
@pytest.mark.parametrize("team", [True, False], ids=["dist", "replicated"])
def test_generated_programs(team, seeds):
    # Replicated arrays are computed alike on every rank: one is enough.
    run_cases([named(f"seed{s}", generated, s, team) for s in seeds],
              ranks=None if team else [1])


@pytest.mark.parametrize("seeds", PROGRAMS[:GRID_PROGRAMS],
                         ids=lambda r: f"seeds{r.start}-{r.stop - 1}")
def test_generated_programs_on_a_grid(seeds):
    # The same programs with every array split over the run-time 2-D grid
    # of ranks: stencil views and block updates on the grid, the rest
    # through rows.
    run_cases([named(f"seed{s}", generated, s, True) for s in seeds],
              distribution=([0, 1], None))

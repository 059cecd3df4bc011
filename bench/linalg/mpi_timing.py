"""The timing loop of the distributed drivers of bench/linalg (dist_*.py,
run under mpirun): each call between barriers, the first one (which
compiles the kernel) not counted, as the C references time theirs."""

import time


def best_time(xp, call, reps):
    """The best time of `reps` calls of `call()` (after one untimed call)
    and the last call's result."""
    # (Imported here: run.py imports the drivers' operands without MPI,
    # which would break the mpirun it starts.)
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    best = float("inf")
    result = None
    for rep in range(reps + 1):
        result = None  # (the previous result is freed before the call)
        comm.Barrier()
        t0 = time.perf_counter()
        result = call()
        xp.sync()
        comm.Barrier()
        if rep:
            best = min(best, time.perf_counter() - t0)
    return best, result

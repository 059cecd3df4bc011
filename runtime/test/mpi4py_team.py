"""Embedding check: an mpi4py application registers its own communicator
with libidtr (comm.py2f()) and calls the C ABI through ctypes, passing
memrefs as (rank, descriptor) like lowered MLIR code.

usage: mpiexec -n N python3 mpi4py_team.py /path/to/libidtr.so
"""
import ctypes as C
import sys

from mpi4py import MPI

lib = C.CDLL(sys.argv[1])
i64 = C.c_int64
lib._idtr_register_team.argtypes = [i64]
lib._idtr_register_team.restype = i64
lib._idtr_nprocs.argtypes = [i64]
lib._idtr_nprocs.restype = i64
lib._idtr_prank.argtypes = [i64]
lib._idtr_prank.restype = i64
lib._idtr_unregister_team.argtypes = [i64]
lib._idtr_reduce_all_f64.argtypes = [i64, i64, C.c_void_p, i64]
lib._idtr_gather_i32.argtypes = [i64] + [i64, C.c_void_p] * 4 + [i64]


def memref(buf, ctype, sizes):
    """Ranked MLIR descriptor {allocated, aligned, offset, sizes, strides}."""
    r = len(sizes)

    class Desc(C.Structure):
        _fields_ = [("allocated", C.c_void_p), ("aligned", C.c_void_p),
                    ("offset", i64), ("sizes", i64 * r), ("strides", i64 * r)]

    strides, s = [0] * r, 1
    for k in reversed(range(r)):
        strides[k] = s
        s *= sizes[k]
    d = Desc(C.addressof(buf), C.addressof(buf), 0, (i64 * r)(*sizes),
             (i64 * r)(*strides))
    return r, d


def index_vec(values):
    buf = (i64 * max(len(values), 1))(*values)
    r, d = memref(buf, i64, [len(values)])
    return r, d, buf


world = MPI.COMM_WORLD
sub = world.Split(world.rank % 2, world.rank)
team = lib._idtr_register_team(sub.py2f())
assert team >= 2, team
assert lib._idtr_nprocs(team) == sub.size
assert lib._idtr_prank(team) == sub.rank

# Allreduce (sum) over the sub-communicator only.
x = (C.c_double * 2)(world.rank, 1.0)
r, d = memref(x, C.c_double, [2])
lib._idtr_reduce_all_f64(team, r, C.byref(d), 0)
expect = sum(q for q in range(world.size) if q % 2 == world.rank % 2)
assert x[0] == expect and x[1] == sub.size, (list(x), expect)

# Gather a 1-D i32 array distributed with the default partition.
n = 2 * sub.size + 1
off, size = i64(), i64()
lib._idtr_default_partition(n, sub.size, sub.rank, C.byref(off), C.byref(size))
loc = (C.c_int32 * max(size.value, 1))(*[off.value + i for i in range(size.value)])
out = (C.c_int32 * n)()
ri, di = memref(loc, C.c_int32, [size.value])
ro, do = memref(out, C.c_int32, [n])
rg, dg, _g = index_vec([n])
rl, dl, _l = index_vec([off.value])
lib._idtr_gather_i32(team, ri, C.byref(di), rg, C.byref(dg), rl, C.byref(dl),
                     ro, C.byref(do), -1)
assert list(out) == list(range(n)), list(out)

lib._idtr_unregister_team(team)
sub.Free()
if world.rank == 0:
    print("mpi4py team ok on %d ranks" % world.size, flush=True)

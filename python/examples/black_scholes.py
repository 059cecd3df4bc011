"""Black-Scholes prices of European call and put options, distributed by
`split=0`; checks itself against numpy (with math.erf for the normal
distribution).

    PYTHONPATH=build/python mpirun -n 2 python3 python/examples/black_scholes.py
"""

import argparse
import math
import time

import numpy as np

import imex as xp


def normal_cdf(m, x, erf):
    return 0.5 * (1.0 + erf(x / math.sqrt(2.0)))


def black_scholes(m, price, strike, t, rate, volatility, erf):
    sqrt_t = m.sqrt(t)
    d1 = (m.log(price / strike) + (rate + 0.5 * volatility * volatility) *
          t) / (volatility * sqrt_t)
    d2 = d1 - volatility * sqrt_t
    discount = strike * m.exp(-rate * t)
    call = price * normal_cdf(m, d1, erf) - discount * normal_cdf(m, d2, erf)
    put = discount * normal_cdf(m, -d2, erf) - price * normal_cdf(m, -d1,
                                                                  erf)
    return call, put


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100000)
    args = parser.parse_args()
    xp.init()
    rate, volatility = 0.1, 0.2

    rng = np.random.default_rng(7)
    price = rng.uniform(5.0, 30.0, args.n)
    strike = rng.uniform(1.0, 100.0, args.n)
    t = rng.uniform(0.25, 10.0, args.n)

    start = time.perf_counter()
    call, put = black_scholes(xp, xp.asarray(price, split=0),
                              xp.asarray(strike, split=0),
                              xp.asarray(t, split=0), rate, volatility,
                              xp.erf)
    total = float(xp.sum(call)) + float(xp.sum(put))
    seconds = time.perf_counter() - start

    np_erf = np.vectorize(math.erf)
    ref_call, ref_put = black_scholes(np, price, strike, t, rate, volatility,
                                      np_erf)
    ok = (np.allclose(call.to_numpy(), ref_call, rtol=1e-9, atol=1e-9) and
          np.allclose(put.to_numpy(), ref_put, rtol=1e-9, atol=1e-9))
    xp.print0(f"black_scholes n={args.n} ranks={xp.nprocs()}: "
              f"sum={total:.10g} ({seconds:.3f} s) "
              f"{'OK' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit("black_scholes: result differs from numpy")


if __name__ == "__main__":
    main()

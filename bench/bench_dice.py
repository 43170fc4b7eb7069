"""Dragon Run's escape-test d10: is it uniform?

Rolls the die 100 000 times through the production path — the Session's
default random source (``random.SystemRandom, os.urandom``) handed to the game's
``prepare`` hook, exactly as :meth:`Session.apply` does — and runs Pearson's
chi-square goodness-of-fit test against the uniform distribution on the faces
0–9 (9 degrees of freedom).

The verdict uses a strict significance level, ``ALPHA = 1e-6``: a fair die is
wrongly rejected about once in a million runs, so a test built on it is not
flaky, while a die whose faces are off by even one percentage point over
100 000 rolls is rejected every time. To show the test can fail, the same test
runs on a deliberately biased die (a 6-bit random number taken modulo 10, so
faces 0–3 come up 7/64 of the time instead of 1/10).

Also measured: the escape test through the real game rules, for every number
of location cards left (0–10), compared with the rule's odds, and the fact that
the face 0 never escapes whatever the deck holds.

Standard library only; the chi-square tail is computed here (the regularized
upper incomplete gamma function), so no SciPy is needed. ``tests/engine/
test_dragon_run.py`` imports this module so the test and the bench share one
implementation.
"""
from __future__ import annotations

import math
import random
import tempfile
import time
from collections import Counter

FACES = 10
ROLLS = 100_000
ALPHA = 1e-6


# -- statistics ---------------------------------------------------------------------
def chi_square(counts: list[int]) -> float:
    """Pearson's statistic of ``counts`` (one per face) against equal expected counts."""
    n = sum(counts)
    expected = n / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def _upper_gamma_q(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) (series below a+1, continued fraction above)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Modified Lentz's method for the continued fraction of Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, dof: int) -> float:
    """P(X ≥ x) for a chi-square variable with ``dof`` degrees of freedom (the p-value)."""
    return _upper_gamma_q(dof / 2, x / 2)


def chi2_critical(alpha: float, dof: int) -> float:
    """The statistic above which a fair source is rejected at level ``alpha`` (bisection)."""
    lo, hi = 0.0, 1000.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, dof) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def uniformity(rolls: list[int], alpha: float = ALPHA) -> dict:
    """The chi-square test of ``rolls`` (faces 0–9): counts, statistic, dof, p-value, verdict."""
    counts = [0] * FACES
    for r in rolls:
        counts[r] += 1
    stat = chi_square(counts)
    dof = FACES - 1
    p = chi2_sf(stat, dof)
    return {"counts": counts, "statistic": stat, "dof": dof, "p_value": p,
            "critical": chi2_critical(alpha, dof), "alpha": alpha, "uniform": p >= alpha}


# -- the dice ---------------------------------------------------------------------------
def production_rolls(n: int = ROLLS) -> list[int]:
    """``n`` faces from the production path: the Session's default rng through ``prepare``."""
    from tablekeeper.engine import Journal, Session

    with tempfile.TemporaryDirectory() as d:
        journal = Journal(d, durable=False)
        try:
            session = Session.new(journal, "dragon-run", ["Ana", "Ben"],
                                  {"hands": {"Ana": [1, 1, 1, 1], "Ben": [1, 1, 1, 1]}})
            hide = {"action": "hide", "discard": [1]}
            prepare, state, rng = session.rules.prepare, session.state, session.rng
            return [prepare(state, dict(hide), rng)["roll"] for _ in range(n)]
        finally:
            journal.close()


class BiasedDie:
    """A broken die for the negative check: a 6-bit random number modulo 10.

    ``randrange(10)`` gives 0–3 with probability 7/64 and 4–9 with 6/64: the
    kind of modulo bias a hand-rolled die makes. Seeded, so the check is exact.
    """

    def __init__(self, seed: int = 5):
        self._r = random.Random(seed)

    def randrange(self, n: int) -> int:
        return self._r.getrandbits(6) % n


def biased_rolls(n: int = ROLLS) -> list[int]:
    from tablekeeper.engine.games.dragon_run import GAME

    rules = GAME(["Ana", "Ben"], {"hands": {"Ana": [1, 1, 1, 1], "Ben": [1, 1, 1, 1]}})
    state, die = rules.setup_state(), BiasedDie()
    return [rules.prepare(state, {"action": "hide", "discard": [1]}, die)["roll"] for _ in range(n)]


def escape_rates(per_deck: int = 2_000) -> dict[int, dict]:
    """Escape tests through the game's rules at every deck size: measured vs the rule's odds."""
    from tablekeeper.engine.games.dragon_run import GAME

    rules = GAME(["Ana", "Ben"], {"hands": {"Ana": [1] * 4, "Ben": [1] * 4}})
    rng = random.SystemRandom()
    out = {}
    for left in range(0, 11):
        state = rules.setup_state()
        state["table"]["dungeon"] = left
        escaped = zero_escapes = 0
        for _ in range(per_deck):
            act = rules.prepare(state, {"action": "hide", "discard": [1]}, rng)
            after, _ = rules.apply(state, act)
            ok = after["last_roll"]["escaped"]
            escaped += ok
            zero_escapes += ok and act["roll"] == 0
        # Rule: escape iff roll > left and roll != 0; faces 0–9 equally likely.
        expected = sum(1 for f in range(FACES) if f != 0 and f > left) / FACES
        out[left] = {"measured": escaped / per_deck, "expected": expected, "zero_escapes": zero_escapes}
    return out


# -- the bench ---------------------------------------------------------------------------
def run() -> dict:
    t0 = time.perf_counter()
    rolls = production_rolls()
    elapsed = time.perf_counter() - t0
    fair = uniformity(rolls)
    bad = uniformity(biased_rolls())
    rates = escape_rates()
    worst = max(abs(v["measured"] - v["expected"]) for v in rates.values())
    faces = Counter(rolls)
    return {
        "dragon_run_d10_uniformity": {
            "rolls": {"value": len(rolls), "unit": "rolls"},
            "chi_square": {"value": round(fair["statistic"], 3), "unit": "chi-square statistic"},
            "degrees_of_freedom": {"value": fair["dof"], "unit": "dof"},
            "p_value": {"value": fair["p_value"], "unit": "probability"},
            "critical_value": {"value": round(fair["critical"], 3),
                               "unit": f"chi-square at alpha={ALPHA:g}"},
            "rejected": {"value": int(not fair["uniform"]), "unit": "bool (1 = not uniform)"},
            "min_face_count": {"value": min(faces.values()), "unit": "rolls"},
            "max_face_count": {"value": max(faces.values()), "unit": "rolls"},
            "time_per_roll": {"value": round(elapsed / len(rolls) * 1e6, 3), "unit": "µs"},
            "notes": "Session default rng (random.SystemRandom, os.urandom) through DragonRun.prepare",
        },
        "dragon_run_d10_biased_control": {
            "chi_square": {"value": round(bad["statistic"], 3), "unit": "chi-square statistic"},
            "p_value": {"value": bad["p_value"], "unit": "probability"},
            "rejected": {"value": int(not bad["uniform"]), "unit": "bool (1 = not uniform)"},
            "notes": "6-bit random number modulo 10: the same test must reject it",
        },
        "dragon_run_escape_test": {
            "tests_per_deck_size": {"value": 2_000, "unit": "escape tests"},
            "worst_rate_deviation": {"value": round(worst, 4), "unit": "probability"},
            "zero_face_escapes": {"value": sum(v["zero_escapes"] for v in rates.values()),
                                  "unit": "escapes (must be 0)"},
            "rates": {str(k): {"measured": v["measured"], "expected": v["expected"]} for k, v in rates.items()},
        },
    }


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2, ensure_ascii=False))

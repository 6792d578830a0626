"""A tiny ruleset whose clause table is data, for testing the explorer itself.

A scene is a pair of numbers (a, b) from 0 to 5; the clause table says which
way the pair "leans". Each clause is (id, condition, prescription)."""

from __future__ import annotations

from itertools import product

from hypothesis import strategies as st

from verifier.ruleset import Capability, Cause, Citation, Clause, Decision, Outcome, Ruleset

CONSISTENT = (
    ("lean.1", lambda a, b: a < b, "left"),
    ("lean.2", lambda a, b: a == b, "level"),
    ("lean.3", lambda a, b: a > b, "right"),
)

# lean.1 and lean.2 both hold when a == b and disagree; nothing holds when a == b + 1.
PLANTED = (
    ("lean.1", lambda a, b: a <= b, "left"),
    ("lean.2", lambda a, b: a == b, "level"),
    ("lean.3", lambda a, b: a > b + 1, "right"),
)


class ToyRuleset(Ruleset):
    key = "toy"
    title = "toy lean rules"
    capabilities = frozenset({Capability.SEARCH, Capability.EXHAUSTIVE})

    def __init__(self, table):
        self.table = table
        self.clauses = tuple(Clause(cid, f"clause {cid}", Citation("toy", "table")) for cid, _, _ in table)

    def resolve(self, before, actions, reading):
        a, b = before
        applicable = [(cid, said) for cid, holds, said in self.table if holds(a, b)]
        decisions = ()
        if len(applicable) != 1:
            decisions = (Decision("", tuple(c for c, _ in applicable), tuple(s for _, s in applicable), ("pair",),
                                  near=() if applicable else tuple(c for c, _, _ in self.table)),)
        result = applicable[0][1] if applicable else "undecided"
        provenance = {"pair": tuple(Cause.applied(c, 1) for c, _ in applicable)}
        return Outcome(result, (), provenance, decisions=decisions)

    def outcome_key(self, outcome):
        return outcome.after

    def strategy(self):
        return st.tuples(st.tuples(st.integers(0, 5), st.integers(0, 5)), st.none())

    def simpler(self, before, actions):
        a, b = before
        if a > 0 and b > 0:
            yield (a - 1, b - 1), actions

    def exhaustive_spaces(self):
        return {"pairs": "every pair of numbers from 0 to 5"}

    def exhaustive_space(self, name):
        scenes = [((a, b), None) for a, b in product(range(6), range(6))]
        return len(scenes), iter(scenes)

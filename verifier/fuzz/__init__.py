"""Differential conformance: generated scenes through another implementation.

Scenes come from the ruleset's explorer strategy (``scenes``). Each goes to the
implementation over the adapter protocol, through the one implementation session
``check --impl`` uses (``ask``), told the ruleset's default reading, and to the reference
resolver under every full reading (``reference``). Its answers are read under its hello:
only the parts of the outcome it declares it reports are compared (``compare``). From the
answers the run (``engine``) tells

- which option of each reading point the implementation follows, on the scenes where
  the options disagree, and which full reading explains most scenes;
- the disagreements that no reading explains, grouped by fingerprint, each shrunk
  (``Ruleset.simpler``, ``shrink``) while the disagreement persists;
- whether its outcome depends on the order pieces are listed in (the ruleset's
  ``order`` transforms) or changes when the same scene is sent again;
- every timeout, crash, malformed answer or refusal, per scene;

and ``report`` writes it down. Everything goes through the ``Ruleset`` interface, so it
serves every ruleset with the search, interchange and findings capabilities.
"""

from __future__ import annotations

from .compare import deciding_points, departure_clauses, difference, fingerprint, matching, situation_and_shape
from .engine import MAX_GROUPS, REPEAT_EVERY, SHRINK_LIMIT, run
from .reference import MAX_RESOLVES, ReadingTable, reading_table
from .report import report_json, report_markdown, timing, verdict, write_report
from .result import Divergence, DivergenceGroup, FuzzResult, Group, ProblemKind, SceneProblem, Trial
from .scenes import require

__all__ = [
    "MAX_GROUPS", "MAX_RESOLVES", "REPEAT_EVERY", "SHRINK_LIMIT", "Divergence", "DivergenceGroup", "FuzzResult",
    "Group", "ProblemKind", "ReadingTable", "SceneProblem", "Trial", "deciding_points", "departure_clauses",
    "difference",
    "fingerprint", "matching", "reading_table", "report_json", "report_markdown", "require", "run",
    "situation_and_shape", "timing", "verdict", "write_report",
]

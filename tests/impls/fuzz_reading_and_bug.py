"""A toy implementation for ``verifier fuzz`` tests (python:fuzz_reading_and_bug:handle),
one for every ruleset: the reference resolver always under a reading other than the
default (``READINGS``), whatever reading it is told, with one planted bug in a narrow
situation (``_plant``). The fuzz report must name the reading as the one the
implementation follows, and give the bug exactly one group of disagreements."""

from verifier.adapters.reference import handle as reference

READINGS = {
    "ypp": {"bump": "motion-first"},
    "scatter": {"side": "counterclockwise"},
    "armada": {"tool": "model-b"},
    "armada2k": {"footprint": "upright"},
    "civ": {"advantage": "phantom"},
}
ANTICLOCKWISE = {"N": "W", "W": "S", "S": "E", "E": "N"}


def _plant(ruleset, outcome):
    """The bug, in place: a situation no reading answers this way."""
    if ruleset == "ypp":  # a ship that hits a rock turns a quarter anticlockwise
        for event in outcome["events"]:
            if event["kind"] == "rock":
                ship = outcome["ships"][event["ships"][0]]
                ship["heading"] = ANTICLOCKWISE[ship["heading"]]
    elif ruleset == "scatter":  # a capped deviation that still hits is said to move an inch more
        if outcome.get("result") == "hit" and any(event["kind"] == "capped" for event in outcome["events"]):
            outcome["moved"] += 1
    elif ruleset == "armada":  # a ship that switches its tool to the other side ends turned 22.5 degrees more
        for event in outcome["events"]:
            if event["kind"] == "switch":
                ship = outcome["ships"][event["pieces"][0]]
                ship["heading"] = (ship["heading"] + 22.5) % 360
    elif ruleset == "armada2k":  # a ship whose move is blocked ends turned 30 degrees more
        for event in outcome["events"]:
            if event["kind"] == "blocked":
                ship = outcome["ships"][event["pieces"][0]]
                ship["heading"] = (ship["heading"] + 30) % 360
    elif ruleset == "civ":  # a ship that blockades is reported as not blockading
        for branch in outcome["branches"]:
            for ship in branch["ships"].values():
                if ship.get("blockading"):
                    ship["blockading"] = False


def handle(message):
    if isinstance(message, dict) and message.get("type") == "case":
        message = {**message, "readings": {**message["readings"], **READINGS.get(message["ruleset"], {})}}
    answer = reference(message)
    if isinstance(answer, dict) and answer.get("type") == "outcome":
        _plant(message["ruleset"], answer["outcome"])
    if isinstance(answer, dict) and answer.get("type") == "hello":
        answer = {**answer, "implementation": {"name": "fuzz toy: another reading and a planted bug"}}
    return answer

"""The adapter protocol's messages: the JSON Schema of every message (published as
docs/schema/adapter.schema.json), validation, what the verifier sends (hello, a
case) and how an answer is read and checked."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import jsonschema

from .. import __version__, registry
from ..case import Case
from ..errors import ImplementationError, VerifierError
from ..quickschema import Check, compile_schema, fits
from ..ruleset import Capability, Frame, Outcome, Refusal, Ruleset, refused_outcome
from ..source import Located
from .declare import (
    CAPABILITIES_SCHEMA,
    STATES,
    Declaration,
    carries,
    read_capabilities,
    relaxed_schema,
    without_fields,
)
from .limits import MESSAGE, clip_message, excerpt

PROTOCOL = "verifier-adapter/1"
ANSWER_TYPES = ("outcome", "refused", "skipped", "errored")  # the kinds of answer to a case
REFUSED = "refused"  # the one field of the data a refused answer is read into (see ``refusal_data``)
SCHEMA_ID = "https://example.invalid/verifier/adapter.schema.json"


# --- the schema -----------------------------------------------------------------

def supports_protocol(ruleset: Ruleset) -> bool:
    """Whether answers for this ruleset can be read back and compared."""
    return ruleset.supports(Capability.INTERCHANGE)


def _ruleset_names() -> list[str]:
    return registry.names()


def adapter_schema() -> dict[str, Any]:
    """The JSON Schema of every message of the protocol, as published in
    docs/schema/adapter.schema.json. ``$defs`` holds one schema per message, and
    one per ruleset for the ``outcome`` field (``outcome_ypp``, ...)."""
    readings = {"type": "object", "additionalProperties": {"type": "string"}}
    defs: dict[str, Any] = {
        "hello": {
            "description": "verifier -> implementation, once, first. Answer with hello_reply.",
            "type": "object", "required": ["type", "protocol"],
            "properties": {
                "type": {"const": "hello"},
                "protocol": {"const": PROTOCOL},
                "verifier": {"type": "string", "description": "the verifier's version"},
                "rulesets": {"type": "array", "items": {"type": "string"},
                             "description": "rulesets whose cases may follow"},
            },
        },
        "hello_reply": {
            "description": "implementation -> verifier: the answer to hello. 'protocol' must be the "
                           "verifier's; 'rulesets', if given, limits the cases sent (others are skipped).",
            "type": "object", "required": ["type", "protocol"],
            "properties": {
                "type": {"const": "hello"},
                "protocol": {"type": "string", "pattern": "^verifier-adapter/[0-9]+$"},
                "implementation": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string", "minLength": 1}, "version": {"type": "string"},
                                   "language": {"type": "string"}, "homepage": {"type": "string"}},
                },
                "rulesets": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                "capabilities": CAPABILITIES_SCHEMA,
            },
        },
        "case": {
            "description": "verifier -> implementation: one case to resolve. The expectation is not sent. "
                           "Later versions of this protocol may add optional fields; ignore those you do not know.",
            "type": "object",
            "required": ["type", "id", "ruleset", "readings", "pinned", "before", "actions"],
            "properties": {
                "type": {"const": "case"},
                "id": {"type": "string", "description": "the case's stable id; echo it in the answer"},
                "ruleset": {"enum": _ruleset_names()},
                "readings": {**readings, "description": "the full reading: every reading point of the "
                                                        "ruleset and the option to resolve under"},
                "pinned": {**readings, "description": "the part of 'readings' that the case pins; the "
                                                      "rest are the ruleset's defaults"},
                "depends_on": {"type": "array", "items": {"type": "string"},
                               "description": "the reading points the case's outcome depends on: those the "
                                              "reference resolver consulted under 'readings'. Under any option "
                                              "of the other points the outcome is the same"},
                "before": {"type": "object", "description": "as in the case file (docs/schema/case.schema.json)"},
                "actions": {"description": "as in the case file"},
            },
        },
        "response": {
            "description": "implementation -> verifier: the answer to one case, on one line.",
            "type": "object", "required": ["type"],
            "properties": {"type": {"enum": list(ANSWER_TYPES)}},
            "oneOf": [{"$ref": f"#/$defs/{kind}"} for kind in ANSWER_TYPES],
        },
        "outcome": {
            "description": "the implementation's outcome, in the ruleset's outcome form (outcome_<ruleset>)",
            "type": "object", "required": ["type", "outcome"],
            "properties": {"type": {"const": "outcome"}, "id": {"type": "string"}, "outcome": {"type": "object"}},
        },
        "refused": {
            "description": "the rules forbid the case's action, so the implementation does not carry it out. "
                           "Compared like an outcome: it passes where the case expects a refusal (by the clause "
                           "named, where the answer names one) and fails where the action is legal",
            "type": "object", "required": ["type"],
            "properties": {"type": {"const": "refused"}, "id": {"type": "string"},
                           "clause": {"type": "string", "minLength": 1,
                                      "description": "the id of the ruleset's clause that forbids the action"},
                           "reason": {"type": "string", "description": "why, in words, for reports"}},
        },
        "skipped": {
            "description": "the implementation does not handle this case (an unsupported ruleset, reading "
                           "or feature); not a failure",
            "type": "object", "required": ["type", "reason"],
            "properties": {"type": {"const": "skipped"}, "id": {"type": "string"},
                           "reason": {"type": "string", "minLength": 1}},
        },
        "errored": {
            "description": "the implementation tried and failed (an exception, an internal error); "
                           "counts against it",
            "type": "object", "required": ["type", "message"],
            "properties": {"type": {"const": "errored"}, "id": {"type": "string"},
                           "message": {"type": "string", "minLength": 1},
                           "detail": {"type": "string", "description": "a traceback or log excerpt"}},
        },
    }
    for key in _ruleset_names():
        ruleset = registry.get(key)
        if supports_protocol(ruleset) and ruleset.outcome_schema:
            defs[f"outcome_{key}"] = {"description": f"the 'outcome' field of an answer to a {key} case",
                                      **ruleset.outcome_schema}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"verifier adapter protocol ({PROTOCOL})",
        "description": "JSON lines between the verifier and another implementation of a ruleset. "
                       "See docs/protocol.md.",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in ("hello", "hello_reply", "case", "response")],
        "$defs": defs,
    }


_validators: dict[str, jsonschema.Draft202012Validator] = {}
_quick: dict[str, Check | None] = {}
_schema: list[dict[str, Any]] = []  # the schema the validators are made from, built once (it looks up every ruleset)


def _built_schema() -> dict[str, Any]:
    if not _schema:
        _schema.append(adapter_schema())
    return _schema[0]


def validator(name: str) -> jsonschema.Draft202012Validator:
    """A validator of one message kind (a key of ``$defs``)."""
    if name not in _validators:
        schema = _built_schema()
        _validators[name] = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})
    return _validators[name]


def schema_problem(name: str, data: Any) -> str | None:
    """The first way ``data`` breaks ``$defs/name``, as one sentence, or None."""
    if name not in _quick:
        schema = _built_schema()
        _quick[name] = compile_schema({"$ref": f"#/$defs/{name}"}, schema)
    if fits(_quick[name], data):
        return None
    errors = sorted(validator(name).iter_errors(data), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if not errors:
        return None
    error = errors[0]
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return clip_message(f"{path.lstrip('.') or '(top level)'}: {error.message}", 400)


_outcome_validators: dict[tuple[str, frozenset[str]], jsonschema.Draft202012Validator] = {}
_quick_outcomes: dict[tuple[str, frozenset[str]], Check | None] = {}


def outcome_problem(ruleset: Ruleset, data: Any, omitted: Iterable[str] = ()) -> str | None:
    """The first way an answer's outcome breaks ``$defs/outcome_<ruleset>``, or None.
    ``omitted``: fields of parts the implementation does not report, which may be absent."""
    if not ruleset.outcome_schema:
        return None
    key = (ruleset.key, frozenset(omitted))
    if key not in _outcome_validators:
        relaxed = relaxed_schema(ruleset.outcome_schema, key[1])
        _outcome_validators[key] = jsonschema.Draft202012Validator(relaxed)
        _quick_outcomes[key] = compile_schema(relaxed)
    if fits(_quick_outcomes[key], data):  # the common case; jsonschema says why not
        return None
    errors = sorted(_outcome_validators[key].iter_errors(data),
                    key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if not errors:
        return None
    error = errors[0]
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return clip_message(f"{path.lstrip('.') or '(top level)'}: {error.message}", 400)


def answer_problem(raw: Any) -> str | None:
    """Why a decoded answer to a case does not fit the protocol, or None. (Checked
    against the branch its "type" names, which gives a plainer message than oneOf.)"""
    if not isinstance(raw, dict):
        return f"expected a JSON object, got {type(raw).__name__}"
    kind = raw.get("type")
    if kind not in ANSWER_TYPES:
        return f"type: expected {', '.join(repr(k) for k in ANSWER_TYPES[:-1])} or {ANSWER_TYPES[-1]!r}, got {kind!r}"
    return schema_problem(kind, raw)


# --- messages -------------------------------------------------------------------

def hello_message(rulesets: Iterable[str] | None = None) -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL, "verifier": __version__,
            "rulesets": sorted(rulesets) if rulesets is not None else _ruleset_names()}


def case_request(case: Case, depends_on: Iterable[str] | None = None) -> dict[str, Any]:
    """What an implementation is told about a case: everything but the expectation.
    ``depends_on``: the reading points its outcome depends on (default: resolve it and see)."""
    data = case.doc.data
    if depends_on is None:
        depends_on = case.ruleset.resolve(case.before, case.actions, case.readings).consulted
    order = [p.name for p in case.ruleset.reading_points]
    return {"type": "case", "id": case.id, "ruleset": case.ruleset.key, "readings": dict(case.readings),
            "pinned": dict(case.pinned), "depends_on": sorted(depends_on, key=order.index),
            "before": case.ruleset.request_before(data["before"], case.before), "actions": data["actions"]}


@dataclass(frozen=True)
class Answer:
    """An implementation's answer to one case, after the protocol checks.

    ``kind`` is outcome, refused, skipped or errored. An errored answer is either the
    implementation's own (``protocol`` False) or a protocol failure the verifier saw:
    a timeout, a crash, a line that is not JSON, a wrong shape (``protocol`` True)."""

    kind: str
    data: Any = None  # the outcome (kind "outcome"), or the refusal as ``refusal_data`` writes it (kind "refused")
    message: str = ""  # the reason (skipped) or what went wrong (errored)
    detail: str = ""
    protocol: bool = False
    seconds: float = 0.0


def read_answer(request: dict[str, Any], raw: Any) -> Answer:
    """Check one decoded answer against the protocol."""
    problem = answer_problem(raw)
    if problem:
        return Answer("errored", message=f"the answer does not fit the protocol ({problem}): {excerpt(raw)}",
                      protocol=True)
    if "id" in raw and raw["id"] != request["id"]:
        return Answer("errored", message=f"the answer is for case {excerpt(raw['id'], 80)}, not "
                                         f"{request['id']!r}; the implementation is out of step", protocol=True)
    if raw["type"] == "skipped":
        return Answer("skipped", message=clip_message(raw["reason"]))
    if raw["type"] == "errored":
        return Answer("errored", message=clip_message(raw["message"]),
                      detail=clip_message(raw.get("detail", ""), 4 * MESSAGE))
    if raw["type"] == "refused":
        refusal = Refusal(raw.get("clause", ""), (), clip_message(raw.get("reason", "")))
        return Answer("refused", data=refusal_data(refusal), message=refusal.reason)
    return Answer("outcome", data=raw["outcome"])


def refusal_data(refusal: Refusal) -> dict[str, Any]:
    """A refused answer as the data that travels with the answers to be read (``reported_outcome``
    reads it back): one field, which no ruleset's outcome has."""
    return {REFUSED: {"clause": refusal.clause, "reason": refusal.reason}}


def _refusal_of(data: Any) -> Refusal | None:
    if isinstance(data, dict) and set(data) == {REFUSED} and isinstance(data[REFUSED], dict):
        return Refusal(str(data[REFUSED].get("clause", "")), (), str(data[REFUSED].get("reason", "")))
    return None


class ProtocolMismatch(VerifierError):
    """The implementation speaks another version of the protocol: nothing can be checked."""


def check_hello_reply(raw: Any) -> tuple[dict[str, Any], str | None]:
    """(reply, problem): the hello answer, and why it is unusable (or None)."""
    if not isinstance(raw, dict) or raw.get("type") != "hello":
        return {}, f"the first answer must be a hello, got {excerpt(raw)}"
    if isinstance(raw.get("protocol"), str) and raw["protocol"] != PROTOCOL:
        raise ProtocolMismatch(f"the implementation speaks {clip_message(raw['protocol'], 80)}, but this verifier "
                               f"speaks {PROTOCOL}; see docs/protocol.md")
    problem = schema_problem("hello_reply", raw)
    if problem:
        return {}, f"the hello answer does not fit the protocol ({problem})"
    _, problem = read_capabilities(raw)
    if problem:
        return {}, f"the hello answer's declaration cannot be used: {problem}"
    return raw, None


def answer_text(value: Any) -> str:
    """An answer (or part of one) as JSON text that does not depend on the order of its
    mappings or its lists, since events and the like may come in any order: two answers
    that mean the same give the same text."""
    try:
        return _normal_text(value)
    except _NotPlain:
        pass

    def norm(item: Any) -> Any:
        if isinstance(item, dict):
            return {k: norm(v) for k, v in item.items()}
        if isinstance(item, list):
            return sorted((norm(v) for v in item), key=lambda v: json.dumps(v, sort_keys=True))
        return item
    return json.dumps(norm(value), sort_keys=True)


class _NotPlain(Exception):
    """A value ``_normal_text`` leaves to the general way (a mapping with keys that are not strings)."""


def _normal_text(item: Any) -> str:
    """``answer_text`` of plain JSON data, each part's text made once from its parts' texts
    (the general way encodes every part again at each level it is sorted in): the same
    text ``json.dumps(..., sort_keys=True)`` writes, lists in the order of their items' texts."""
    if isinstance(item, dict):
        if not all(type(k) is str for k in item):
            raise _NotPlain
        return "{" + ", ".join(f"{json.dumps(k)}: {_normal_text(item[k])}" for k in sorted(item)) + "}"
    if isinstance(item, list):
        return "[" + ", ".join(sorted(_normal_text(v) for v in item)) + "]"
    if isinstance(item, tuple):
        raise _NotPlain  # json.dumps writes a tuple as a list, but the general way leaves its order
    return json.dumps(item)


def outcome_answer(ruleset: Ruleset, outcome: Outcome) -> dict[str, Any]:
    """An outcome (not a refusal) as the reference adapter answers it: the ruleset's JSON
    form and, where the ruleset has intermediate states, the state after every phase and
    step, as the resolver went."""
    answer = ruleset.outcome_json(outcome)
    if ruleset.supports(Capability.STATES):
        answer["states"] = [{"round": f.round, "phase": f.phase, "step": f.step, **ruleset.state_json(f.state)}
                            for f in outcome.frames if not f.is_start]
    return answer


def read_outcome(ruleset: Ruleset, before: Any, data: Any) -> Outcome | str:
    """The outcome an answer's (schema-checked) data gives, or why the ruleset cannot read it."""
    try:
        return ruleset.outcome_from_json(before, data)
    except ImplementationError as exc:
        return f"the outcome cannot be read: {exc}"
    except Exception as exc:  # a gap in a ruleset's reader must not end the run
        return f"the outcome cannot be read ({type(exc).__name__}: {exc})"


def with_places(answer: Outcome, reference: Outcome) -> Outcome:
    """``answer`` with the place and step of each event it does not place taken from the
    reference's matching event (same kind and pieces, the same round and phase first; each
    used once): the adapter protocol does not carry where an event happened, and a drawing
    needs it. An event the reference does not have stays unplaced."""
    unused = list(reference.events)

    def twin(event: Any) -> Any:
        for same_moment in (True, False):
            for i, other in enumerate(unused):
                if (other.kind, other.pieces) == (event.kind, event.pieces) and other.at is not None and (
                        not same_moment or (other.round, other.phase) == (event.round, event.phase)):
                    return unused.pop(i)
        return None

    events = []
    for event in answer.events:
        found = twin(event) if event.at is None else None
        events.append(event if found is None else replace(event, at=found.at, step=event.step or found.step))
    return replace(answer, events=tuple(events))


def as_answered(ruleset: Ruleset, before: Any, outcome: Outcome) -> Outcome:
    """``outcome`` as an answer over the protocol carries it: its JSON form read back by the
    ruleset's reader (no intermediate frames, nothing the JSON form leaves out), keeping
    its reading. A reference drawn this way beside an implementation's answer is drawn from
    what the answer could have said, in the same layout, so a picture's difference is a
    difference of outcome; where the reader cannot read it back, the outcome as it is."""
    try:
        read = ruleset.outcome_from_json(before, json.loads(json.dumps(ruleset.outcome_json(outcome))))
    except Exception:  # a gap in a ruleset's reader must not lose the picture
        return outcome
    return replace(with_places(read, outcome), reading=outcome.reading, consulted=outcome.consulted,
                   unreported=outcome.unreported)


def reported_outcome(ruleset: Ruleset, declaration: Declaration, before: Any, data: Any,
                     states: tuple[Frame, ...] | None = None) -> Outcome | str:
    """The outcome an answer's data gives, or why it cannot be read: the data is checked
    against the ruleset's outcome schema less the parts the hello says are not reported
    (and the optional parts this answer leaves out unpromised), then read by the ruleset,
    with those parts named in ``Outcome.unreported``. A refused answer gives an outcome with
    that refusal and nothing else. ``check --impl`` and fuzz read every answer through this.
    The states an answer reports become the outcome's frames (``answer_states``);
    ``states``: those frames, where the caller knows them already (an answer that is a
    reference outcome's own form has its frames)."""
    unreported = declaration.unreported(ruleset)
    if isinstance(data, dict):
        unreported += declaration.absent(ruleset, data)
    omitted = frozenset(f for part in unreported for f in part.fields)
    refusal = _refusal_of(data)
    if refusal is not None:  # no part is reported; the parts left out are named as for any answer
        return replace(refused_outcome(refusal), unreported=frozenset(p.name for p in unreported))
    data = without_fields(data, omitted)
    problem = outcome_problem(ruleset, data, omitted)
    if problem:
        return (f"the outcome does not fit the {ruleset.key} outcome schema "
                f"(docs/schema/adapter.schema.json#/$defs/outcome_{ruleset.key}): {problem}")
    for part in declaration.promised(ruleset):
        if not any(carries(data, f) for f in part.fields):
            return (f"the hello declares that it reports {part.name}, but this answer has no "
                    + " or ".join(repr(f) for f in part.fields))
    outcome = read_outcome(ruleset, before, data)
    if isinstance(outcome, str):
        return outcome
    names = frozenset(p.name for p in unreported)
    if ruleset.supports(Capability.STATES) and STATES not in names and outcome.refusal is None:
        frames = answer_states(ruleset, data) if states is None else states
        if isinstance(frames, str):
            return frames
        outcome = replace(outcome, frames=frames)
    return outcome if outcome.unreported == names else replace(outcome, unreported=names)


def answer_states(ruleset: Ruleset, data: Any) -> tuple[Frame, ...] | str:
    """The intermediate states an answer reports (its ``states`` entries, schema-checked),
    as frames: an entry without a phase stands for the end of its round (phase "").
    Or why one cannot be read."""
    frames = []
    for i, entry in enumerate(data.get("states") or ()):
        try:
            state = ruleset.state_from_json(entry)
        except ImplementationError as exc:
            return f"states[{i}] cannot be read: {exc}"
        except Exception as exc:  # a gap in a ruleset's reader must not end the run
            return f"states[{i}] cannot be read ({type(exc).__name__}: {exc})"
        frames.append(Frame(int(entry["round"]), entry.get("phase") or "", int(entry.get("step") or 0), state))
    return tuple(frames)


def reference_frames_at(reference: Outcome, moments: Iterable[tuple[int, str | None, int]]) -> list[tuple[int, Frame]]:
    """The reference's frame at each reported moment (round, phase, step; no phase: the end
    of its round), as (the moment's place among ``moments``, the frame), in the order the
    reference went through them. A moment the reference records no state at (nothing moved
    then) is left out. How ``check --impl`` and fuzz pair an answer's states with the reference's."""
    frames = [f for f in reference.frames if not f.is_start]
    at = {(f.round, f.phase, f.step): i for i, f in enumerate(frames)}
    end_of_round = {f.round: i for i, f in enumerate(frames)}
    found = []
    for place, (round_, phase, step) in enumerate(moments):
        index = end_of_round.get(round_) if phase is None else at.get((round_, phase, step))
        if index is not None:
            found.append((index, place))
    return [(place, frames[index]) for index, place in sorted(found)]


def restated_expectation(ruleset: Ruleset, file: str, before: Any, before_data: Any, actions_data: Any,
                         outcome: Outcome, expect_data: dict[str, Any] | None = None) -> Any:
    """An expectation that ``outcome`` satisfies, parsed as a case's would be: how a reference
    outcome under another reading is compared with an implementation's answer. A refusal is
    its own expectation. ``expect_data``: the outcome's ``expect`` section, where the caller
    has it."""
    if outcome.refusal is not None:
        return outcome.refusal
    if expect_data is None:
        expect_data = ruleset.expect_data(before, outcome)
    data = {"before": before_data, "actions": actions_data, "expect": expect_data}
    _, _, expect = ruleset.parse(Located(file, data, {}, {}), ("before",), ("actions",), ("expect",),
                                 breaches_allowed=True)
    return expect

"""Journals forged as a deliberate edit makes them: a record changed, its checksum computed
anew (the checksum is no secret), and the rule a family's reading of one must obey.

A family's split search resumed from a journal with one forged record either refuses it,
naming the journal and the record's line, or gives the answer of the honest journal: a
payload is never summed, decoded or listed into a wrong count, nor ends in a traceback.
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st

from slidelab.parallel import journal as journal_module
from slidelab.parallel.journal import JournalError

FORGING = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**65), 2**65)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Any JSON value a forger might write."""


def forged(fingerprint: str, key: Any, count: Any, nodes: Any, payload: Any, **extra: Any) -> str:
    """A record line with a correct checksum, as a deliberate edit could make it."""
    fields = {"key": key, "count": count, "nodes": nodes, "payload": payload} | extra
    body = json.dumps(fields, separators=(",", ":"))
    return f'{{"check":"{journal_module._checksum(fingerprint, body)}",{body[1:]}'


@st.composite
def mutation(draw: st.DrawFn, value: Any) -> Any:
    """`value` with one part of it replaced by any JSON value, nudged (a whole number), dropped
    or added to, however deep inside."""
    if isinstance(value, dict | list) and value and draw(st.booleans()):
        inside = copy.copy(value)
        at = draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        if draw(st.booleans()):
            inside[at] = draw(mutation(value[at]))
        else:
            del inside[at]
        return inside
    if isinstance(value, dict) and draw(st.booleans()):
        return value | {draw(st.text(max_size=4)): draw(JSON)}
    if isinstance(value, list) and draw(st.booleans()):
        return [*value, draw(JSON)]
    if type(value) is int and draw(st.booleans()):
        return value + draw(st.integers(-3, 3))
    return draw(JSON)


def forge(
    data: st.DataObject, lines: list[str], *, count: bool, kept: Collection[str] = ()
) -> tuple[int, list[str]]:
    """One record of a journal's `lines` with its payload mutated (but for its fields `kept`),
    or (if `count`) its count nudged, re-signed; its line number, and the journal's lines with
    it.  Not both: a forger who changes the two to agree makes a record that only a secret key
    could tell apart, and so does one who changes a field nothing else in a record checks."""
    number = data.draw(st.integers(2, len(lines)), label="line")
    record = json.loads(lines[number - 1])
    if count and data.draw(st.booleans(), label="count changed"):
        record["count"] += data.draw(st.integers(-3, 3).filter(bool), label="by")
    else:
        payload = record["payload"]
        rest = {name: value for name, value in payload.items() if name not in kept}
        changed = data.draw(mutation(rest), label="payload")
        kept_values = {name: payload[name] for name in kept}
        record["payload"] = changed | kept_values if isinstance(changed, dict) else changed
    del record["check"]
    fingerprint = json.loads(lines[0])["fingerprint"]
    return number, [*lines[: number - 1], forged(fingerprint, **record), *lines[number:]]


def refused_or_right(
    data: st.DataObject,
    honest: Path,
    run: Callable[[str], Any],
    right: Any,
    *,
    count: bool,
    kept: Collection[str] = (),
) -> None:
    """Resume `run` (a search given a journal's path, returning its answer) from the `honest`
    journal with one record forged (`forge`): it must refuse the record with its line, or
    give `right`, the honest journal's answer."""
    lines = honest.read_text().splitlines()
    number, changed = forge(data, lines, count=count, kept=kept)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / honest.name
        path.write_text("\n".join(changed) + "\n")
        try:
            answer = run(str(path))
        except JournalError as error:
            event("refused")
            assert re.fullmatch(
                rf"{re.escape(str(path))}:{number}: damaged journal record \(.+\); delete this "
                "line to search its subproblem again",
                str(error),
            ), error
        else:
            event("taken")
            assert answer == right

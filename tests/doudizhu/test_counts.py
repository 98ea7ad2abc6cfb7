"""Count files: crafted hands and the number of legal plays, with the arithmetic worked by hand."""

from pathlib import Path
from typing import NamedTuple

import pytest

from pagoda import doudizhu as ddz
from pagoda.doudizhu.cards import RANK_CHARS

COUNTS = Path(__file__).parent / "counts"


class Case(NamedTuple):
    where: str
    rules_text: str
    hand: str
    on: str
    expected: int
    arithmetic: str
    bombs: bool = True


def load_cases() -> list[Case]:
    cases = []
    for path in sorted(COUNTS.glob("*.txt")):
        comment: list[str] = []
        after_case = False
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                if after_case:
                    comment, after_case = [], False
                comment.append(line[1:].strip())
                continue
            after_case = True
            parts = [part.strip() for part in line.split("|")]
            # rules | hand | on | expected, or with "no bombs" before the count (a spent bomb limit)
            bombs = True
            if len(parts) == 5:
                assert parts[3] == "no bombs", f"{path.name}:{number}: the fourth field is 'no bombs'"
                bombs = False
                del parts[3]
            rules_text, hand, on, expected = parts
            where = f"{path.name}:{number}"
            cases.append(Case(where, rules_text, hand, on, int(expected), " ".join(comment), bombs))
    return cases


CASES = load_cases()


def test_every_case_shows_its_arithmetic() -> None:
    assert len(CASES) >= 40
    for case in CASES:
        assert "=" in case.arithmetic, case.where


def legal_plays(
    engine: str, hand: int, on: ddz.Combo | None, rules: ddz.Rules, wild: int, bombs: bool
) -> list[ddz.Combo]:
    """The legal plays of ``hand`` listed by ``engine`` (the Python reference or the native core)."""
    if engine == "python":
        return ddz.legal_plays(hand, on, rules, wild, bombs)
    from pagoda.doudizhu import native

    return [a.combo for a in native.legal_plays(hand, on, rules, wild, bombs) if a.combo is not None]


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("case", CASES, ids=[c.where for c in CASES])
def test_count(case: Case, engine: str) -> None:
    rules = ddz.parse_rules(case.rules_text)
    wild = RANK_CHARS.index(rules.wild) if rules.wild not in ("none", "drawn") else -1
    on = None
    if case.on != "lead":
        on = ddz.classify(case.on, rules)
        assert on is not None, f"{case.on} is no combination"
    found = legal_plays(engine, ddz.parse_cards(case.hand).mask, on, rules, wild, case.bombs)
    if engine == "native":
        assert found == ddz.legal_plays(ddz.parse_cards(case.hand).mask, on, rules, wild, case.bombs)
    assert len(found) == case.expected, sorted(str(p) for p in found)
    keys = [(p.mask, p.reading) for p in found]
    assert len(set(keys)) == len(keys), "a play is listed twice"

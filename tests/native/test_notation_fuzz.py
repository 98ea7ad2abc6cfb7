"""The native notation parsers (the fuzz target of ``native/src/fuzz.rs``) accept exactly what the
Python reference accepts, on random texts (hypothesis): Tichu cards as ``pagoda.tichu.cards.to_mask``
reads them; Dou Di Zhu card sets in canonical notation (``parse_mask`` reads them and
``format_mask`` writes them back unchanged); Dou Di Zhu action texts as ``Round.parse_action``
reads them (the native core's fast path: what it reads, the reference reads as the same action,
and it reads every action's own text, ``str(action)``; other spellings it leaves to the
reference). Each native call also checks the parser's
properties (it reads back from its formatted text) and would raise on a violation.
The native core is required (``make native``).
"""

import pagoda_native
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pagoda.core.errors import IllegalAction, ParseError
from pagoda.doudizhu import Round
from pagoda.doudizhu.cards import format_mask, parse_mask
from pagoda.tichu.cards import to_mask

PIECES = [
    *("2g", "Tk", "10", "10b", "Ar", "Dg", "Mj", "Ph", "Dr", "dR", "mJ", "g", "k", "1", "0", "3"),
    *("4", "5", "9", "T", "J", "Q", "K", "A", "2", "B", "R", "b", "r", "t", "x", "33", "BR"),
    *(" ", "  ", ",", "\t", "\n", ";", "-", "play ", "bid ", "pass", "call", "rob", " as "),
    *("\u212a", "\u0130", "é", "\x00", "\u0661", "\u00a0"),
]
notation = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
texts = st.one_of(notation, st.text(max_size=20))


def python_tichu(text: str) -> int | None:
    try:
        return to_mask(text)
    except ParseError:
        return None


@settings(max_examples=3000, deadline=None)
@given(texts)
@example("2\u212a")  # the Kelvin sign lowers to k in Python: the reference reads it as 2k
@example("mJ,2G\t10k\n")
@example("Tr 10r")
def test_tichu_cards_as_the_reference(text: str) -> None:
    assert pagoda_native.notation_tichu_cards(text) == python_tichu(text)


def python_canonical(text: str) -> int | None:
    try:
        mask = parse_mask(text)
    except ParseError:
        return None
    return mask if format_mask(mask) == text else None


@settings(max_examples=3000, deadline=None)
@given(texts)
@example("3345")
@example("5433")
@example("33 45")
@example("10")
def test_ddz_canonical_cards_as_the_reference(text: str) -> None:
    assert pagoda_native.notation_ddz_cards(text) == python_canonical(text)


# A round in play whose landlord may name any card set: parse_action only refuses what it cannot
# read (ParseError), or what the rules refuse in this state (IllegalAction: the text was read).
_ROUND = Round.from_hands(["3", "4", "5"], landlord=0)


def python_action(text: str) -> tuple[bool, str | None]:
    """Does the reference read ``text``, and the text of the action it reads (None: not read)."""
    try:
        act = _ROUND.parse_action(text)
    except ParseError:
        return False, None
    except IllegalAction:
        # Read, then refused in this state: the action's text is its cards (and reading).
        cards, _, reading = text.split(None, 1)[1].partition(" as ")
        mask, read = parse_mask(cards), parse_mask(reading) if reading else None
        return True, f"play {format_mask(mask)}" + (
            f" as {format_mask(read)}" if read not in (None, mask) else ""
        )
    return True, str(act)


@settings(max_examples=3000, deadline=None)
@given(texts)
@example("bid 3")
@example("bid 03")
@example("bid 300")
@example("play 333 as 345")
@example("play 3 as 3")
@example("play  3")
@example("play ")
@example("PASS")
@example("pass")
def test_ddz_action_texts_as_the_reference(text: str) -> None:
    native = pagoda_native.notation_ddz_action(text)
    read, own = python_action(text)
    if native is not None:  # what the native core reads, the reference reads the same way
        assert read
        assert own == native
    if read and own == text and not (text.startswith("bid ") and int(text[4:]) > 255):
        # An action's own text, the native core reads (bids up to 255: larger ones it leaves to
        # the reference, which refuses them in every round).
        assert native == text


@settings(max_examples=2000, deadline=None)
@given(st.binary(max_size=64))
def test_the_fuzz_target_holds_on_random_bytes(data: bytes) -> None:
    pagoda_native.notation_fuzz(data)

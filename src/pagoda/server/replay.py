"""A finished match as replay frames: every round, every action, and all hands after each.

The frames are built from the stored record (rules, seed, actions) only once the match is over,
so they may show every hand: the server never builds them for a live table. Each round starts
with a frame for its deal (``action`` null); each later frame is the round after one action.
"""

from collections.abc import Sequence
from typing import Any

from pagoda import doudizhu as ddz
from pagoda import tichu
from pagoda.server.games import GAMES, JSON, TableOptions


def _tichu_frame(r: tichu.Round, seat: int | None, action: str | None, scores: Sequence[int]) -> JSON:
    views = [r.view(s, events=False) for s in range(4)]
    v = views[0]
    top = None
    if v.top is not None:
        top = {"seat": v.top_seat, "cards": tichu.format_cards(v.top.mask), "kind": v.top.kind}
    return {
        "seat": seat,
        "action": action,
        "phase": str(v.phase.value),
        "to_move": v.to_move,
        "hands": [[str(c) for c in w.hand_cards] for w in views],
        "top": top,
        "trick": [{"seat": s, "cards": tichu.format_cards(c.mask), "kind": c.kind} for s, c in v.trick],
        "grand_calls": [bool(x) for x in v.grand_calls],
        "tichu_calls": [bool(x) for x in v.tichu_calls],
        "out": list(v.out),
        "won_points": [tichu.count_points(w) for w in v.won],
        "wish": v.wish,
        "scores": list(scores),
    }


def _ddz_frame(r: ddz.Round, seat: int | None, action: str | None, scores: Sequence[int]) -> JSON:
    views = [r.view(s) for s in range(len(r.hands))]
    v = views[0]
    top = None if v.top is None else {"seat": v.top_seat, "cards": str(v.top), "kind": v.top.kind}
    return {
        "seat": seat,
        "action": action,
        "phase": str(v.phase.value),
        "to_move": v.to_move,
        "hands": [str(w.hand) for w in views],
        "top": top,
        "landlord": v.landlord,
        "kitty": None if v.kitty is None else str(v.kitty),
        "multiplier": v.multiplier,
        "scores": list(scores),
    }


def replay_frames(options: TableOptions, actions: Sequence[tuple[int, str]]) -> list[JSON]:
    """The rounds of the match ``actions`` play from ``options``' seed, each with its frames.

    A round is ``{round, frames, summary}``; ``summary`` is the round's end-of-round summary
    (as in the ``round_over`` event), or null for a round the record stops in.
    """
    game = GAMES[options.game]
    match: Any = game.new(options)
    tichu_game = options.game == "tichu"

    def current(m: Any) -> Any:
        return m.round if tichu_game else m.current

    def scores(m: Any) -> list[int]:
        return list(m.scores if tichu_game else m.totals)

    frame = _tichu_frame if tichu_game else _ddz_frame
    rounds: list[JSON] = []
    frames = [frame(current(match), None, None, scores(match))]
    for seat, text in actions:
        before = game.rounds_done(match)
        match = game.apply(match, seat, text)
        done = game.rounds_done(match) > before
        r = (match.finished[-1] if tichu_game else match.rounds[-1]) if done else current(match)
        frames.append(frame(r, seat, text, scores(match)))
        if done:
            rounds.append({"round": len(rounds) + 1, "frames": frames, "summary": game.round_summary(match)})
            frames = [frame(current(match), None, None, scores(match))] if not match.is_over else []
    if frames:
        rounds.append({"round": len(rounds) + 1, "frames": frames, "summary": None})
    return rounds


def replay_json(options: TableOptions, actions: Sequence[tuple[int, str]], events: Sequence[JSON]) -> JSON:
    """The replay of a finished table: its public options, its seats' names and its rounds."""
    seats: list[JSON] = []
    for ev in events:
        if ev.get("kind") == "seats":
            seats = [{"name": s.get("name"), "bot": s.get("bot")} for s in ev["seats"]]
    return {
        "game": options.game,
        "options": options.public(),
        "seats": seats,
        "rounds": replay_frames(options, actions),
    }

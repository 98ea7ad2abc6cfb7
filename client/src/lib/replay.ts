// A finished table's replay (GET /api/tables/{id}/replay) and the stepping through it: a
// position is a round and a frame in it; frame 0 of a round is its deal, each later frame the
// round after one action. Replays exist only for finished matches, so every hand may be shown.

import { ddzCards } from './cards';
import { describe } from './describe';
import type { Lang } from './i18n';
import type { GameName, RoundSummary, TableOptions, Top } from './protocol';

export interface ReplayFrame {
  seat: number | null;
  action: string | null;
  phase: string;
  to_move: number;
  /** Every seat's hand: Tichu a list of cards, Dou Di Zhu the notation string. */
  hands: (string[] | string)[];
  top: Top | null;
  scores: number[];
  // Tichu
  trick?: Top[];
  grand_calls?: boolean[];
  tichu_calls?: boolean[];
  out?: number[];
  won_points?: number[];
  wish?: number;
  // Dou Di Zhu
  landlord?: number | null;
  kitty?: string | null;
  multiplier?: number;
}

export interface ReplayRound {
  round: number;
  frames: ReplayFrame[];
  summary: RoundSummary | null;
}

export interface Replay {
  game: GameName;
  options: TableOptions;
  seats: { name: string | null; bot: string | null }[];
  rounds: ReplayRound[];
}

/** A place in a replay: the index of the round and of the frame in it. */
export interface Position {
  round: number;
  frame: number;
}

export type Step = 'first' | 'back' | 'forward' | 'last' | 'prevRound' | 'nextRound';

function lastFrame(r: Replay, round: number): number {
  return Math.max(0, r.rounds[round].frames.length - 1);
}

/** The position a step leads to; it stays put at either end of the replay. */
export function step(r: Replay, at: Position, how: Step): Position {
  const n = r.rounds.length;
  if (n === 0) return { round: 0, frame: 0 };
  const round = Math.min(Math.max(at.round, 0), n - 1);
  const frame = Math.min(Math.max(at.frame, 0), lastFrame(r, round));
  switch (how) {
    case 'first':
      return { round: 0, frame: 0 };
    case 'last':
      return { round: n - 1, frame: lastFrame(r, n - 1) };
    case 'forward':
      if (frame < lastFrame(r, round)) return { round, frame: frame + 1 };
      return round + 1 < n ? { round: round + 1, frame: 0 } : { round, frame };
    case 'back':
      if (frame > 0) return { round, frame: frame - 1 };
      return round > 0 ? { round: round - 1, frame: lastFrame(r, round - 1) } : { round, frame };
    case 'nextRound':
      return round + 1 < n ? { round: round + 1, frame: 0 } : { round, frame: lastFrame(r, round) };
    case 'prevRound':
      // to this round's deal first, then to the previous round's
      if (frame > 0) return { round, frame: 0 };
      return { round: Math.max(0, round - 1), frame: 0 };
  }
}

/** The frame at a position. */
export function frameAt(r: Replay, at: Position): ReplayFrame | null {
  return r.rounds[at.round]?.frames[at.frame] ?? null;
}

/** The actions of the position's round up to it, oldest first. */
export function actionsUpTo(r: Replay, at: Position): { seat: number; action: string }[] {
  const frames = r.rounds[at.round]?.frames.slice(1, at.frame + 1) ?? [];
  return frames.map((f) => ({ seat: f.seat ?? 0, action: f.action ?? '' }));
}

/** Is the position the last frame of its round (where the round's summary belongs)? */
export function atRoundEnd(r: Replay, at: Position): boolean {
  const round = r.rounds[at.round];
  return !!round && round.summary !== null && at.frame === round.frames.length - 1;
}

/** The number of steps before a position, and in the whole replay (for "12 / 80"). */
export function progress(r: Replay, at: Position): { done: number; total: number } {
  let done = 0;
  let total = 0;
  r.rounds.forEach((round, i) => {
    const steps = round.frames.length;
    if (i < at.round) done += steps;
    else if (i === at.round) done += at.frame + 1;
    total += steps;
  });
  return { done, total };
}

/** A hand as a list of cards: Tichu's list as it is, Dou Di Zhu's notation string split. */
export function handCards(hand: string[] | string): string[] {
  return typeof hand === 'string' ? ddzCards(hand) : hand;
}

/** The position of the `index`-th step of the whole replay (0-based, clamped), for the slider. */
export function positionAt(r: Replay, index: number): Position {
  let left = Math.max(0, Math.floor(index));
  for (let round = 0; round < r.rounds.length; round++) {
    const steps = r.rounds[round].frames.length;
    if (left < steps) return { round, frame: left };
    left -= steps;
  }
  const last = r.rounds.length - 1;
  return last < 0 ? { round: 0, frame: 0 } : { round: last, frame: lastFrame(r, last) };
}

/**
 * The plays to show on the table at a position: the frame's trick (Tichu) or top play (Dou Di
 * Zhu); at a round's end, where the last trick was already taken, the last plays the round
 * showed, so its final frame shows how it ended instead of an empty table.
 */
export function shownPlays(r: Replay, at: Position): { plays: Top[]; final: boolean } {
  const frames = r.rounds[at.round]?.frames ?? [];
  const of = (f: ReplayFrame): Top[] => (r.game === 'tichu' ? (f.trick ?? []) : f.top ? [f.top] : []);
  const here = frames[at.frame];
  if (!here) return { plays: [], final: false };
  if (of(here).length || !atRoundEnd(r, at)) return { plays: of(here), final: false };
  for (let i = at.frame; i >= 0; i--) {
    const f = frames[i];
    if (of(f).length) return { plays: of(f), final: true };
    // the Dog leaves no trick behind, but when it was the round's last play it is what ended it
    if (r.game === 'tichu' && f.action === 'play Dg' && f.seat !== null) {
      return { plays: [{ seat: f.seat, cards: 'Dg', kind: 'dog' }], final: true };
    }
  }
  return { plays: [], final: false };
}

/** One line of a round's log in the replay: the action in words, and the frame it leads to. */
export interface ReplayLine {
  frame: number;
  text: string;
}

/**
 * A round's actions in words, each with its frame. An action the client does not tell (a seat
 * letting the bomb window close, `no-bomb`) is left out, as in the table's log: a line is never empty.
 */
export function replayLog(r: Replay, round: number, lang: Lang, names: readonly string[]): ReplayLine[] {
  const frames = r.rounds[round]?.frames ?? [];
  const out: ReplayLine[] = [];
  frames.forEach((f, i) => {
    const text = i > 0 && f.action !== null ? describe(r.game, lang, f.seat ?? 0, f.action, names) : null;
    if (text !== null) out.push({ frame: i, text });
  });
  return out;
}

/** The line of the log to mark at `frame`: the last one up to it (-1 before the first). */
export function currentLine(log: readonly ReplayLine[], frame: number): number {
  let at = -1;
  log.forEach((l, i) => {
    if (l.frame <= frame) at = i;
  });
  return at;
}

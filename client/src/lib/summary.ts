// A round's score explained line by line, from the round summary the server sends (nothing else
// is needed: every amount below follows from it and the rules named in docs/protocol.md).

import type { Key } from './i18n';
import type { DoudizhuRoundSummary, TableOptions, TichuRoundSummary } from './protocol';

/** One line of the explanation: a catalogue key, its parameters, and the points it gives each side. */
export interface ScoreLine {
  key: Key;
  /** Seat numbers in params are to be replaced by names by the caller: `seat`, `seats` (lists). */
  params: Record<string, number | number[]>;
  /** Points per team (Tichu) or per seat (Dou Di Zhu); null for a line that only explains. */
  points: number[] | null;
}

const team = (seat: number) => seat % 2;
const both = (team_: number, n: number) => (team_ === 0 ? [n, 0] : [0, n]);

/**
 * The Tichu round's points, line by line: the one-two (200, card points ignored) or the card
 * points (with where the last seat's cards went), then each Tichu (±100) and Grand Tichu (±200).
 * The lines' points add up to the summary's `points`.
 */
export function explainTichu(s: TichuRoundSummary, lastTricksTo: 'first_out' | 'opponents' = 'first_out'): ScoreLine[] {
  const lines: ScoreLine[] = [];
  const [first, second] = s.out;
  const oneTwo = s.out.length >= 2 && s.out.length < 4 && team(first) === team(second) && !lastSeat(s.out).length;
  if (oneTwo) {
    lines.push({ key: 'summary.oneTwo', params: { seats: [first, second] }, points: both(team(first), 200) });
    lines.push({ key: 'summary.cardPointsIgnored', params: {}, points: null });
  } else {
    lines.push({ key: 'summary.cardPointsLine', params: {}, points: [...s.card_points] });
    const [last] = lastSeat(s.out);
    if (last !== undefined) {
      lines.push({
        key: lastTricksTo === 'first_out' ? 'summary.lastOut' : 'summary.lastOutOpponents',
        params: { seat: last, first },
        points: null,
      });
    }
  }
  for (const seat of s.grand_calls) {
    const won = seat === first;
    lines.push({ key: won ? 'summary.grandWon' : 'summary.grandLost', params: { seat }, points: both(team(seat), won ? 200 : -200) });
  }
  for (const seat of s.tichu_calls) {
    const won = seat === first;
    lines.push({ key: won ? 'summary.tichuWon' : 'summary.tichuLost', params: { seat }, points: both(team(seat), won ? 100 : -100) });
  }
  return lines;
}

/** The seat still holding cards at the round's end (none after a one-two). */
function lastSeat(out: readonly number[]): number[] {
  if (out.length !== 3) return [];
  return [0, 1, 2, 3].filter((s) => !out.includes(s));
}

/** The sum of the lines' points per side. */
export function sumLines(lines: readonly ScoreLine[], sides: number): number[] {
  const total = new Array<number>(sides).fill(0);
  for (const l of lines) l.points?.forEach((p, i) => (total[i] += p));
  return total;
}

/** One factor of a Dou Di Zhu round's score: a catalogue key, its parameters and what it multiplies by. */
export interface Factor {
  key: Key;
  params: Record<string, number>;
  /** The bid itself for the first line, then 2 to the line's count. */
  factor: number;
}

/** What the Dou Di Zhu round's score is made of, as the server's summary reports it. */
export interface DoudizhuScore {
  /** True when the landlord won, false when the peasants did, null when nobody did (a redeal). */
  landlordWon: boolean | null;
  /** The bid, then a line per multiplier the round had: bombs, rockets, spring or anti-spring. */
  factors: Factor[];
  /** 2 to the bombs, rockets and spring. */
  multiplier: number;
  /** bid × multiplier: what each peasant pays or gets. */
  unit: number;
  /** unit × the peasants: what the landlord gets or pays. */
  landlord: number;
}

/**
 * The Dou Di Zhu round's score as multiplier lines: the bid, ×2 per bomb, ×2 per rocket, ×2 for a
 * spring or an anti-spring. The lines multiply up to `unit`, each peasant's points; the landlord's
 * are the unit times the number of peasants.
 */
export function explainDoudizhu(s: DoudizhuRoundSummary): DoudizhuScore {
  const landlordWon = s.landlord === null || s.winner === null ? null : s.winner === s.landlord;
  const factors: Factor[] = [{ key: 'summary.bid', params: { n: s.bid }, factor: s.bid }];
  if (s.bombs) factors.push({ key: 'summary.bombsLine', params: { n: s.bombs, m: 2 ** s.bombs }, factor: 2 ** s.bombs });
  if (s.rockets) factors.push({ key: 'summary.rocketLine', params: { n: s.rockets, m: 2 ** s.rockets }, factor: 2 ** s.rockets });
  if (s.spring) factors.push({ key: s.anti_spring ? 'summary.antiSpringLine' : 'summary.springLine', params: {}, factor: 2 });
  const unit = s.bid * s.multiplier;
  return { landlordWon, factors, multiplier: s.multiplier, unit, landlord: unit * (s.points.length - 1) };
}

/** What the match is played to, for the score bar: a target score, or a number of rounds. */
export function matchGoal(
  options: Pick<TableOptions, 'game' | 'target' | 'rounds'>,
  round: number,
): { key: 'table.target'; params: { n: number } } | { key: 'table.roundOf'; params: { n: number; total: number } } {
  if (options.rounds !== null) return { key: 'table.roundOf', params: { n: round, total: options.rounds } };
  if (options.target !== null) return { key: 'table.target', params: { n: options.target } };
  // the presets' own ends: Tichu to 1000, Dou Di Zhu ten rounds
  return options.game === 'tichu'
    ? { key: 'table.target', params: { n: 1000 } }
    : { key: 'table.roundOf', params: { n: round, total: 10 } };
}

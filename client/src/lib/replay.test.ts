import { describe, expect, it } from 'vitest';
import { actionsUpTo, atRoundEnd, currentLine, frameAt, handCards, positionAt, progress, replayLog, shownPlays, step, type Position, type Replay, type ReplayFrame, type Step } from './replay';

function frame(seat: number | null, action: string | null): ReplayFrame {
  return { seat, action, phase: 'play', to_move: 0, hands: ['3', '4', '5'], top: null, scores: [0, 0, 0] };
}
// two rounds: the first with its deal and 3 actions (4 frames), the second with 2 (3 frames)
const R: Replay = {
  game: 'doudizhu',
  options: { game: 'doudizhu', preset: 'classic', target: null, rounds: 2, turn_timer: 0, open: true, bot: 'random' },
  seats: [{ name: 'Ann', bot: null }, { name: null, bot: 'random' }, { name: null, bot: 'random' }],
  rounds: [
    { round: 1, frames: [frame(null, null), frame(0, 'bid 3'), frame(0, 'play 3'), frame(1, 'pass')],
      summary: { game: 'doudizhu', round: 1, points: [2, -1, -1], scores: [2, -1, -1], landlord: 0, winner: 0, spring: false, anti_spring: false, bid: 1, bombs: 0, rockets: 0, multiplier: 1 } },
    { round: 2, frames: [frame(null, null), frame(2, 'bid 1'), frame(2, 'play 4')], summary: null },
  ],
};
const at = (round: number, frame: number): Position => ({ round, frame });

describe('replay stepping', () => {
  it('walks forward through every frame of every round, then stays at the end', () => {
    const seen: Position[] = [];
    let p = at(0, 0);
    for (let i = 0; i < 9; i++) {
      seen.push(p);
      p = step(R, p, 'forward');
    }
    // 4 + 3 = 7 frames, then the last one repeats
    expect(seen).toEqual([at(0, 0), at(0, 1), at(0, 2), at(0, 3), at(1, 0), at(1, 1), at(1, 2), at(1, 2), at(1, 2)]);
  });
  it('walks back across the round boundary to the previous round’s last frame, then stays at the start', () => {
    let p = at(1, 1);
    const seen: Position[] = [];
    for (let i = 0; i < 7; i++) {
      p = step(R, p, 'back');
      seen.push(p);
    }
    expect(seen).toEqual([at(1, 0), at(0, 3), at(0, 2), at(0, 1), at(0, 0), at(0, 0), at(0, 0)]);
  });
  it('forward then back returns to the same place everywhere but the ends', () => {
    for (let round = 0; round < 2; round++) {
      for (let f = 0; f < R.rounds[round].frames.length; f++) {
        const p = at(round, f);
        const there = step(R, p, 'forward');
        if (there.round === p.round && there.frame === p.frame) expect(p).toEqual(at(1, 2));
        else expect(step(R, there, 'back')).toEqual(p);
      }
    }
  });
  it('jumps between rounds and to either end', () => {
    const cases: [Position, Step, Position][] = [
      [at(0, 2), 'nextRound', at(1, 0)],
      [at(1, 1), 'nextRound', at(1, 2)], // the last round: to its end
      [at(1, 2), 'prevRound', at(1, 0)], // first this round's deal
      [at(1, 0), 'prevRound', at(0, 0)],
      [at(0, 0), 'prevRound', at(0, 0)],
      [at(0, 2), 'last', at(1, 2)],
      [at(1, 1), 'first', at(0, 0)],
      [at(9, 9), 'forward', at(1, 2)], // out of range is clamped first
    ];
    for (const [from, how, to] of cases) expect(step(R, from, how), `${how} from ${JSON.stringify(from)}`).toEqual(to);
  });
  it('an empty replay has one place', () => {
    const empty = { ...R, rounds: [] };
    expect(step(empty, at(0, 0), 'forward')).toEqual(at(0, 0));
    expect(frameAt(empty, at(0, 0))).toBeNull();
  });
});

describe('what a position shows', () => {
  it('the actions of its round so far', () => {
    expect(actionsUpTo(R, at(0, 0))).toEqual([]);
    expect(actionsUpTo(R, at(0, 2))).toEqual([{ seat: 0, action: 'bid 3' }, { seat: 0, action: 'play 3' }]);
    expect(actionsUpTo(R, at(1, 2)).map((a) => a.action)).toEqual(['bid 1', 'play 4']);
  });
  it('the summary only at the last frame of a finished round', () => {
    expect(atRoundEnd(R, at(0, 3))).toBe(true);
    expect(atRoundEnd(R, at(0, 2))).toBe(false);
    expect(atRoundEnd(R, at(1, 2))).toBe(false); // the record stops in this round: no summary
  });
  it('counts the steps', () => {
    expect(progress(R, at(0, 0))).toEqual({ done: 1, total: 7 });
    expect(progress(R, at(1, 0))).toEqual({ done: 5, total: 7 }); // 4 frames of round 1, then 1
    expect(progress(R, at(1, 2))).toEqual({ done: 7, total: 7 });
  });
  it('reads both games’ hands as lists of cards', () => {
    expect(handCards('3345T2BR')).toEqual(['3', '3', '4', '5', 'T', '2', 'B', 'R']);
    expect(handCards(['Mj', '2g'])).toEqual(['Mj', '2g']);
    expect(frameAt(R, at(0, 1))?.action).toBe('bid 3');
  });
});

describe('the slider and the last frame', () => {
  it('maps every step of a long match to its position and back', () => {
    // a 1,200-step match: 12 rounds of 100 frames
    const long: Replay = { ...R, rounds: Array.from({ length: 12 }, (_, i) => ({
      round: i + 1, frames: Array.from({ length: 100 }, () => frame(0, 'pass')), summary: null })) };
    expect(progress(long, positionAt(long, 1199))).toEqual({ done: 1200, total: 1200 });
    for (const i of [0, 1, 99, 100, 650, 1199]) expect(progress(long, positionAt(long, i)).done).toBe(i + 1);
    expect(positionAt(long, 650)).toEqual(at(6, 50));
    expect(positionAt(long, 5000)).toEqual(at(11, 99));
    expect(positionAt(long, -3)).toEqual(at(0, 0));
  });
  it('shows the last plays at a round’s end instead of an empty table', () => {
    const top = { seat: 0, cards: '3', kind: 'solo' };
    const withTop: Replay = { ...R, rounds: [{ ...R.rounds[0], frames: [frame(null, null), frame(0, 'bid 3'),
      { ...frame(0, 'play 3'), top }, frame(1, 'pass')] }, R.rounds[1]] };
    expect(shownPlays(withTop, at(0, 3))).toEqual({ plays: [top], final: true });
    expect(shownPlays(withTop, at(0, 2))).toEqual({ plays: [top], final: false });
    // not in the middle of a round: there the table is as it was
    expect(shownPlays(withTop, at(0, 1))).toEqual({ plays: [], final: false });
    expect(shownPlays(withTop, at(1, 2))).toEqual({ plays: [], final: false });
  });
  it('ends a Tichu round that ended on the Dog with the Dog, not the trick before it', () => {
    const stairs = { seat: 1, cards: '5g 5k 6g 6k', kind: 'pair_run' };
    const tichu = (seat: number | null, action: string | null, trick: ReplayFrame['trick']): ReplayFrame => ({ ...frame(seat, action), trick });
    const t: Replay = { ...R, game: 'tichu', rounds: [{ round: 1, summary: R.rounds[0].summary, frames: [
      tichu(null, null, []), tichu(1, 'play 5g 5k 6g 6k', [stairs]), tichu(2, 'pass', [stairs]), tichu(3, 'pass', [stairs]),
      tichu(0, 'pass', [stairs]), tichu(1, 'take', []), tichu(1, 'play Dg', []), tichu(2, 'no-bomb', [])] }] };
    expect(shownPlays(t, at(0, 7))).toEqual({ plays: [{ seat: 1, cards: 'Dg', kind: 'dog' }], final: true });
    // the Dog as the very last action of the round (nobody left to answer a bomb window)
    const last: Replay = { ...t, rounds: [{ ...t.rounds[0], frames: t.rounds[0].frames.slice(0, 7) }] };
    expect(shownPlays(last, at(0, 6))).toEqual({ plays: [{ seat: 1, cards: 'Dg', kind: 'dog' }], final: true });
    // a round whose last play was not the Dog still ends on its last trick
    const plain: Replay = { ...t, rounds: [{ ...t.rounds[0], frames: t.rounds[0].frames.slice(0, 6) }] };
    expect(shownPlays(plain, at(0, 5))).toEqual({ plays: [stairs], final: true });
  });
});

describe('the replay’s log', () => {
  it('tells each action with its frame and leaves out what it does not tell, never an empty line', () => {
    const t: Replay = {
      ...R,
      game: 'tichu',
      seats: [{ name: 'Ann', bot: null }, { name: 'Bo', bot: null }, { name: 'Cy', bot: null }, { name: 'Dee', bot: null }],
      rounds: [{ round: 1, summary: null, frames: [frame(null, null), frame(0, 'play 9g 9k 9b 9r'), frame(1, 'no-bomb'), frame(1, 'pass'), frame(2, 'no-bomb')] }],
    };
    const log = replayLog(t, 0, 'ja', ['Ann', 'Bo', 'Cy', 'Dee']);
    expect(log.map((l) => l.frame)).toEqual([1, 3]);
    expect(log[1].text).toBe('Boさんがパスしました');
    for (const l of log) expect(l.text.trim()).not.toBe('');
    // the line marked is the last one up to the frame shown
    expect([0, 1, 2, 3, 4].map((f) => currentLine(log, f))).toEqual([-1, 0, 0, 1, 1]);
  });
});

import { describe, expect, it } from 'vitest';
import { explainDoudizhu, explainTichu, matchGoal, sumLines } from './summary';
import type { TichuRoundSummary } from './protocol';

const tichu = (over: Partial<TichuRoundSummary>): TichuRoundSummary => ({
  game: 'tichu', round: 1, points: [0, 0], scores: [0, 0], card_points: [0, 0], out: [], grand_calls: [], tichu_calls: [], ...over,
});

describe('the Tichu score explained', () => {
  it('card points, the last seat, a won Tichu and a lost Grand Tichu', () => {
    const s = tichu({ points: [165, -165], card_points: [65, 35], out: [2, 1, 0], tichu_calls: [2], grand_calls: [3] });
    const lines = explainTichu(s);
    expect(lines.map((l) => l.key)).toEqual(['summary.cardPointsLine', 'summary.lastOut', 'summary.grandLost', 'summary.tichuWon']);
    expect(lines[1].params).toEqual({ seat: 3, first: 2 });
    expect(lines.map((l) => l.points)).toEqual([[65, 35], null, [0, -200], [100, 0]]);
    expect(sumLines(lines, 2)).toEqual([165, -165]);
  });
  it('a one-two: 200, card points do not count', () => {
    const s = tichu({ points: [0, 300], card_points: [0, 0], out: [1, 3], tichu_calls: [1] });
    const lines = explainTichu(s);
    expect(lines.map((l) => l.key)).toEqual(['summary.oneTwo', 'summary.cardPointsIgnored', 'summary.tichuWon']);
    expect(lines[0].params).toEqual({ seats: [1, 3] });
    expect(sumLines(lines, 2)).toEqual([0, 300]);
  });
  it('the BrettspielWelt rule sends the last seat’s tricks to the opponents', () => {
    const lines = explainTichu(tichu({ card_points: [40, 60], out: [0, 1, 3] }), 'opponents');
    expect(lines[1]).toEqual({ key: 'summary.lastOutOpponents', params: { seat: 2, first: 0 }, points: null });
  });
  it('a Tichu lost by its caller’s partner going out first still costs 100', () => {
    const lines = explainTichu(tichu({ card_points: [50, 50], out: [2, 1, 3], tichu_calls: [0] }));
    expect(sumLines(lines, 2)).toEqual([-50, 50]);
  });
});

describe('the Dou Di Zhu score explained', () => {
  it('finds the bid and the bombs from the points and the multiplier', () => {
    // bid 2, one bomb, a spring: ×4, unit 8, landlord +16
    expect(explainDoudizhu({ game: 'doudizhu', round: 1, points: [16, -8, -8], scores: [16, -8, -8], landlord: 0, winner: 0, spring: true, multiplier: 4 }))
      .toEqual({ landlordWon: true, bid: 2, doubles: 1, spring: true, multiplier: 4, unit: 8 });
    // bid 3, no bomb, the peasants win
    expect(explainDoudizhu({ game: 'doudizhu', round: 2, points: [3, -6, 3], scores: [0, 0, 0], landlord: 1, winner: 2, spring: false, multiplier: 1 }))
      .toEqual({ landlordWon: false, bid: 3, doubles: 0, spring: false, multiplier: 1, unit: 3 });
  });
});

describe('the match goal', () => {
  it('is the target, the rounds, or the preset’s end', () => {
    expect(matchGoal({ game: 'tichu', target: 500, rounds: null }, 2)).toEqual({ key: 'table.target', params: { n: 500 } });
    expect(matchGoal({ game: 'tichu', target: null, rounds: 1 }, 1)).toEqual({ key: 'table.roundOf', params: { n: 1, total: 1 } });
    expect(matchGoal({ game: 'tichu', target: null, rounds: null }, 3)).toEqual({ key: 'table.target', params: { n: 1000 } });
    expect(matchGoal({ game: 'doudizhu', target: null, rounds: null }, 3)).toEqual({ key: 'table.roundOf', params: { n: 3, total: 10 } });
  });
});

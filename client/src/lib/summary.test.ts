import { describe, expect, it } from 'vitest';
import { explainDoudizhu, explainTichu, matchGoal, sumLines } from './summary';
import type { DoudizhuRoundSummary, TichuRoundSummary } from './protocol';

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
  const ddz = (over: Partial<DoudizhuRoundSummary>): DoudizhuRoundSummary => ({
    game: 'doudizhu', round: 1, points: [0, 0, 0], scores: [0, 0, 0], landlord: 0, winner: 0,
    spring: false, anti_spring: false, bid: 1, bombs: 0, rockets: 0, multiplier: 1, ...over,
  });
  const product = (s: DoudizhuRoundSummary) => explainDoudizhu(s).factors.reduce((p, f) => p * f.factor, 1);

  it('shows a spring as its own ×2 line', () => {
    const s = ddz({ points: [12, -6, -6], spring: true, bid: 3, multiplier: 2 });
    expect(explainDoudizhu(s)).toEqual({
      landlordWon: true,
      factors: [
        { key: 'summary.bid', params: { n: 3 }, factor: 3 },
        { key: 'summary.springLine', params: {}, factor: 2 },
      ],
      multiplier: 2,
      unit: 6,
      landlord: 12,
    });
    expect(product(s)).toBe(-s.points[1]);
  });

  it('shows an anti-spring, the peasants winning', () => {
    const s = ddz({ points: [-4, 2, 2], landlord: 0, winner: 2, spring: true, anti_spring: true, bid: 1, multiplier: 2 });
    expect(explainDoudizhu(s)).toEqual({
      landlordWon: false,
      factors: [
        { key: 'summary.bid', params: { n: 1 }, factor: 1 },
        { key: 'summary.antiSpringLine', params: {}, factor: 2 },
      ],
      multiplier: 2,
      unit: 2,
      landlord: 4,
    });
    expect(product(s)).toBe(s.points[2]);
  });

  it('shows the bombs and the rocket apart, multiplying up to the points', () => {
    // bid 2, two bombs (×4), the rocket (×2), no spring: 16 per peasant, the landlord 32
    const s = ddz({ points: [-32, 16, 16], landlord: 0, winner: 1, bid: 2, bombs: 2, rockets: 1, multiplier: 8 });
    expect(explainDoudizhu(s)).toEqual({
      landlordWon: false,
      factors: [
        { key: 'summary.bid', params: { n: 2 }, factor: 2 },
        { key: 'summary.bombsLine', params: { n: 2, m: 4 }, factor: 4 },
        { key: 'summary.rocketLine', params: { n: 1, m: 2 }, factor: 2 },
      ],
      multiplier: 8,
      unit: 16,
      landlord: 32,
    });
    expect(product(s)).toBe(s.points[1]);
  });

  it('has four seats and three peasants in the four-player game', () => {
    const s = ddz({ points: [12, -4, -4, -4], scores: [12, -4, -4, -4], bid: 1, bombs: 1, spring: true, multiplier: 4 });
    expect(explainDoudizhu(s).landlord).toBe(12);
    expect(product(s)).toBe(4);
  });

  it('names nobody the winner after a redeal', () => {
    expect(explainDoudizhu(ddz({ landlord: null, winner: null })).landlordWon).toBeNull();
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

import { describe, expect, it } from 'vitest';
import { cardFace } from './face';

describe('card faces', () => {
  it('mark the special cards and jokers by emblems, never by the notation', () => {
    expect(cardFace('tichu', 'Dr')).toEqual({ rank: '龍', emblem: true, cls: 'special dragon' });
    expect(cardFace('tichu', 'Ph')).toEqual({ rank: '鳳', emblem: true, cls: 'special phoenix' });
    expect(cardFace('tichu', 'Dg')).toEqual({ rank: '犬', emblem: true, cls: 'special dog' });
    expect(cardFace('tichu', 'Mj')).toEqual({ rank: '1', emblem: false, cls: 'special mj' });
    expect(cardFace('doudizhu', 'R')).toEqual({ rank: '★', emblem: true, cls: 'joker red' });
    for (const c of ['Mj', 'Dg', 'Ph', 'Dr']) expect(cardFace('tichu', c).rank).not.toMatch(/[A-Za-z]/);
  });
  it('show ranks', () => {
    expect(cardFace('tichu', 'Tg')).toEqual({ rank: '10', emblem: false, cls: 'jade' });
    expect(cardFace('tichu', 'Ak')).toEqual({ rank: 'A', emblem: false, cls: 'sword' });
    expect(cardFace('doudizhu', 'T')).toEqual({ rank: '10', emblem: false, cls: 'ddz' });
  });
});

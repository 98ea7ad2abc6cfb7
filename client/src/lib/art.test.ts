import { describe, expect, it } from 'vitest';
import { FIGURES, INK, PAPER, SPECIAL_PAPER, cardArt, copies, cornerSize } from './art';
import { contrast, parseColor } from './contrast';

const TICHU_DECK = [
  ...['g', 'k', 'b', 'r'].flatMap((s) => [...'23456789TJQKA'].map((r) => r + s)),
  'Mj', 'Dg', 'Ph', 'Dr',
];
const DDZ_RANKS = [...'3456789TJQKA2', 'B', 'R'];

describe('card art', () => {
  it('draws each Tichu suit and special card with a figure of its own', () => {
    const bySuit = ['2g', '2k', '2b', '2r', 'Mj', 'Dg', 'Ph', 'Dr'].map((c) => cardArt('tichu', c).figure);
    expect(bySuit).toEqual(['jade', 'sword', 'pagoda', 'star', 'mahjong', 'dog', 'phoenix', 'dragon']);
    expect(TICHU_DECK.filter((c) => cardArt('tichu', c).special)).toEqual(['Mj', 'Dg', 'Ph', 'Dr']);
  });
  it('draws the copies of a Dou Di Zhu rank in the four French suits, the jokers as crowns', () => {
    expect([0, 1, 2, 3, 4].map((i) => cardArt('doudizhu', '7', i).figure)).toEqual(['spade', 'heart', 'club', 'diamond', 'spade']);
    expect(cardArt('doudizhu', 'B')).toEqual({ figure: 'crown', ink: INK.black, special: true });
    expect(cardArt('doudizhu', 'R')).toEqual({ figure: 'crown', ink: INK.red, special: true });
    expect(copies(['3', '3', '5', '3', 'B'])).toEqual([0, 1, 0, 2, 0]);
  });
  it('has a path for every figure of both decks', () => {
    const used = [...TICHU_DECK.map((c) => cardArt('tichu', c)), ...DDZ_RANKS.flatMap((r) => [0, 1, 2, 3].map((i) => cardArt('doudizhu', r, i)))];
    for (const a of used) expect(FIGURES[a.figure]).toMatch(/^M[-\d.\s]/);
  });
  it('inks every card in a colour that meets WCAG AA on its paper', () => {
    const used = new Set([...TICHU_DECK.map((c) => cardArt('tichu', c)), ...DDZ_RANKS.map((r) => cardArt('doudizhu', r, 1))].map((a) => [a.ink, a.special] as const).map((x) => x.join()));
    for (const key of used) {
      const [ink, special] = key.split(',');
      const paper = special === 'true' ? SPECIAL_PAPER : PAPER;
      expect(contrast(parseColor(ink), parseColor(paper)), `${ink} on ${paper}`).toBeGreaterThanOrEqual(4.5);
    }
    // the check can fail: the old Mah Jong grey on the special paper
    expect(contrast(parseColor('#999'), parseColor(SPECIAL_PAPER))).toBeLessThan(4.5);
  });
  it('sets a long corner name smaller', () => {
    expect(cornerSize('7', false)).toBe(18);
    expect(cornerSize('10', false)).toBe(15);
    expect(cornerSize('龍', true)).toBe(12);
    expect(cornerSize('1', true)).toBe(12);
  });
});

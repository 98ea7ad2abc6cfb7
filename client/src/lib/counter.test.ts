import { describe as group, expect, it } from 'vitest';
import { onlyPass, unseen } from './counter';

group('the Dou Di Zhu card counter', () => {
  it('counts what neither the table nor the own hand shows', () => {
    const left = Object.fromEntries(unseen(1, '3334', '3BR').map((x) => [x.rank, x.left]));
    expect(left).toEqual({
      3: 0, 4: 3, 5: 4, 6: 4, 7: 4, 8: 4, 9: 4, T: 4, J: 4, Q: 4, K: 4, A: 4, 2: 4, B: 0, R: 0,
    });
    // 54 cards in one pack: 4 played and 3 in hand leave 47 unseen
    expect(unseen(1, '3334', '3BR').reduce((n, x) => n + x.left, 0)).toBe(47);
    // two packs (four players): 108 cards
    expect(unseen(2, '', '').reduce((n, x) => n + x.left, 0)).toBe(108);
  });

  it('auto-passes only when pass is all there is', () => {
    expect(onlyPass(['pass'])).toBe(true);
    expect(onlyPass(['play 3', 'pass'])).toBe(false);
    expect(onlyPass([])).toBe(false);
  });
});

import { describe as group, expect, it } from 'vitest';
import { lastTrick } from './tricks';

const log = (...entries: [number, string][]) => entries.map(([seat, action]) => ({ seat, action }));

group('the last trick taken', () => {
  it('is the plays before the last take, with its taker', () => {
    const l = log([0, 'no-grand'], [1, 'no-grand'], [0, 'play Mj wish 8'], [1, 'play 8g'], [2, 'pass'], [3, 'pass'], [0, 'pass'], [1, 'take'], [1, 'play 2k 2b']);
    expect(lastTrick(l)).toEqual({ taker: 1, plays: [{ seat: 0, cards: 'Mj' }, { seat: 1, cards: '8g' }] });
  });

  it('names the opponent a Dragon trick was given to, and keeps a Phoenix read as a rank as its card', () => {
    const l = log([2, 'no-grand'], [2, 'play 5g 5k 5b Ph as 6'], [3, 'play Dr'], [3, 'give-dragon 0']);
    expect(lastTrick(l)).toEqual({ taker: 0, plays: [{ seat: 2, cards: '5g 5k 5b Ph' }, { seat: 3, cards: 'Dr' }] });
  });

  it('is none before a trick is taken, and none of the last round', () => {
    expect(lastTrick(log([0, 'no-grand'], [0, 'play 3g']))).toBeNull();
    expect(lastTrick(log([0, 'play 3g'], [0, 'take'], [1, 'no-grand']))).toBeNull();
  });
});

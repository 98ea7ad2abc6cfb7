import { describe, expect, it } from 'vitest';
import {
  buttons, choiceStillLegal, ddzCards, exchangeAction, firstLegalBomb, hasTichuBomb, isTichuBomb, parsePlay,
  playsFor, receivedFrom, seatAt, sortDoudizhu, sortTichu, tichuCard,
} from './cards';

describe('Tichu cards', () => {
  it('sorts Dog, Mah Jong, 2g 2k 2b 2r, …, Ar, Phoenix, Dragon', () => {
    expect(sortTichu(['Dr', 'Ar', '2r', 'Ph', '2g', 'Mj', 'Tk', 'Dg', '9b', '2k']))
      .toEqual(['Dg', 'Mj', '2g', '2k', '2r', '9b', 'Tk', 'Ar', 'Ph', 'Dr']);
  });
  it('canonicalises tokens', () => {
    expect(tichuCard('10g')).toBe('Tg');
    expect(tichuCard('mj')).toBe('Mj');
    expect(tichuCard('ak')).toBe('Ak');
    expect(tichuCard('1g')).toBeNull();
  });
  it('finds bombs', () => {
    expect(hasTichuBomb(['7g', '7k', '7b', '7r', 'Mj'])).toBe(true);
    expect(hasTichuBomb(['3b', '4b', '5b', '6b', '7b'])).toBe(true);
    expect(hasTichuBomb(['3b', '4b', '5b', '6b', '7r', 'Ph'])).toBe(false);
    expect(isTichuBomb(['7g', '7k', '7b', '7r'])).toBe(true);
    expect(isTichuBomb(['3b', '4b', '5b', '6b', 'Ph'])).toBe(false);
  });
});

describe('Dou Di Zhu cards', () => {
  it('reads and sorts a hand string', () => {
    expect(ddzCards('R2B3 10A')).toEqual(['R', '2', 'B', '3', 'T', 'A']);
    expect(sortDoudizhu(ddzCards('R2B3TA'))).toEqual(['3', 'T', 'A', '2', 'B', 'R']);
  });
});

describe('selection → action', () => {
  const legal = ['pass', 'play Mj', 'play Mj wish 2', 'play Mj wish A', 'play 4g 4r', 'play Jg Jk Qg Qb',
    'play Kg Kr Qg Qb Ph as Q', 'play Kg Kr Qg Qb Ph as K', 'play 7g 7k 7b 7r', 'tichu', 'give-dragon 1', 'give-dragon 3'];
  it('matches the selected set whatever the order', () => {
    expect(playsFor('tichu', ['4r', '4g'], legal).map((p) => p.text)).toEqual(['play 4g 4r']);
    expect(playsFor('tichu', ['Qb', 'Jg', 'Qg', 'Jk'], legal).map((p) => p.text)).toEqual(['play Jg Jk Qg Qb']);
    expect(playsFor('tichu', ['4g'], legal)).toEqual([]);
    expect(playsFor('tichu', [], legal)).toEqual([]);
  });
  it('offers the wish and the Phoenix readings', () => {
    expect(playsFor('tichu', ['Mj'], legal).map((p) => p.wish)).toEqual([null, '2', 'A']);
    expect(playsFor('tichu', ['Ph', 'Kg', 'Kr', 'Qg', 'Qb'], legal).map((p) => p.as)).toEqual(['Q', 'K']);
  });
  it('parses Dou Di Zhu plays with readings', () => {
    expect(parsePlay('doudizhu', 'play 34 as 44')).toEqual({ text: 'play 34 as 44', cards: ['3', '4'], as: '44', wish: null });
    expect(playsFor('doudizhu', ['4', '3', '3', '3', '4'], ['play 33344', 'pass']).map((p) => p.text)).toEqual(['play 33344']);
  });
  it('writes the exchange as next, partner, previous', () => {
    expect(exchangeAction('5g', 'Ph', 'Kr')).toBe('exchange 5g Ph Kr');
  });
  it('finds the first legal bomb', () => {
    expect(firstLegalBomb(legal)?.text).toBe('play 7g 7k 7b 7r');
    expect(firstLegalBomb(['pass', 'play 4g'])).toBeNull();
  });
});

describe('buttons from the legal actions', () => {
  it('enables what is legal', () => {
    const b = buttons('tichu', { actions: ['pass', 'play 4g 4r', 'tichu', 'play 7g 7k 7b 7r'] }, ['4g', '4r']);
    expect(b).toMatchObject({ play: true, pass: true, tichu: true, grand: false, exchange: false, bomb: false });
    expect(buttons('tichu', { actions: ['play 7g 7k 7b 7r'] }, ['7g', '7k', '7b', '7r']).bomb).toBe(true);
    expect(buttons('tichu', { actions: ['play 4g'] }, ['4r']).play).toBe(false);
  });
  it('handles the grand and the exchange phases', () => {
    expect(buttons('tichu', { actions: ['grand', 'no-grand'] }, [])).toMatchObject({ grand: true, noGrand: true, pass: false });
    expect(buttons('tichu', { actions: ['tichu'], exchange: true }, [])).toMatchObject({ exchange: true, tichu: true });
  });
  it('lists the Dragon gift and the auction', () => {
    expect(buttons('tichu', { actions: ['give-dragon 1', 'give-dragon 3'] }, []).dragon).toEqual([1, 3]);
    expect(buttons('doudizhu', { actions: ['pass', 'bid 1', 'bid 2', 'bid 3'] }, []).auction).toEqual(['bid 1', 'bid 2', 'bid 3']);
    expect(buttons('doudizhu', { actions: ['call', 'pass'] }, []).auction).toEqual(['call']);
    expect(buttons(null as never, null, []).play).toBe(false);
  });
  it('disables everything for a spectator', () => {
    expect(buttons('tichu', null, ['4g'])).toMatchObject({ play: false, pass: false, tichu: false, exchange: false });
  });
});

describe('seat positions', () => {
  it('puts the next seat on the right and the partner on top', () => {
    expect(seatAt(2, 4, 'right')).toBe(3);
    expect(seatAt(2, 4, 'top')).toBe(0);
    expect(seatAt(2, 4, 'left')).toBe(1);
    expect(seatAt(1, 3, 'right')).toBe(2);
    expect(seatAt(1, 3, 'left')).toBe(0);
    expect(seatAt(1, 3, 'top')).toBeNull();
  });
});

describe('the exchange received', () => {
  it('names who gave each card: the previous seat, the partner, the next seat', () => {
    expect(receivedFrom(0, ['7r', 'Kg', '2k'])).toEqual([
      { card: '7r', from: 3 }, { card: 'Kg', from: 2 }, { card: '2k', from: 1 },
    ]);
    expect(receivedFrom(2, ['Dg', 'Ph', 'Ar']).map((r) => r.from)).toEqual([1, 0, 3]);
  });
});

describe('an open choice', () => {
  it('closes once the turn timer (or anything else) has moved on', () => {
    const choice = playsFor('tichu', ['Mj'], ['play Mj', 'play Mj wish 2', 'pass']);
    expect(choice).toHaveLength(2);
    expect(choiceStillLegal(choice, ['play Mj', 'play Mj wish 2', 'pass'])).toBe(true);
    expect(choiceStillLegal(choice, [])).toBe(false);
    expect(choiceStillLegal(choice, ['play Mj'])).toBe(false);
  });
});

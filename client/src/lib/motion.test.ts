import { describe, expect, it } from 'vitest';
import { SOUNDS, placeOf, slideMs, soundFor, towards } from './motion';

describe('motion', () => {
  it('places seats around the screen from the player’s seat', () => {
    expect([0, 1, 2, 3].map((s) => placeOf(s, 2, 4))).toEqual(['top', 'left', 'bottom', 'right']);
    expect([0, 1, 2].map((s) => placeOf(s, 0, 3))).toEqual(['bottom', 'right', 'left']);
    expect(towards('left').x).toBeLessThan(0);
    expect(towards('bottom').y).toBeGreaterThan(0);
  });
  it('does not move for reduced motion', () => {
    expect(slideMs(true)).toBe(0);
    expect(slideMs(false)).toBeGreaterThan(0);
  });
});

describe('sounds', () => {
  it('a play ticks, a bomb booms, the turn chimes; passes are silent', () => {
    expect(soundFor('tichu', [{ action: 'play 7g' }], false, false)).toBe('play');
    expect(soundFor('tichu', [{ action: 'play 7g' }, { action: 'play 9g 9k 9b 9r' }], false, false)).toBe('bomb');
    expect(soundFor('tichu', [{ action: 'pass' }], false, false)).toBeNull();
    expect(soundFor('tichu', [{ action: 'play 9g 9k 9b' }], false, false)).toBe('play');
    expect(soundFor('doudizhu', [{ action: 'play BR' }], false, false)).toBe('bomb');
    expect(soundFor('doudizhu', [{ action: 'play 7777' }], false, false)).toBe('bomb');
    expect(soundFor('doudizhu', [{ action: 'play 777' }], true, false)).toBe('turn');
    // the turn chimes when it comes, not while it lasts
    expect(soundFor('doudizhu', [], true, true)).toBeNull();
  });
  it('every sound is made of notes', () => {
    for (const notes of Object.values(SOUNDS)) {
      expect(notes.length).toBeGreaterThan(0);
      for (const n of notes) expect(n.hz * n.len * n.gain).toBeGreaterThan(0);
    }
  });
});

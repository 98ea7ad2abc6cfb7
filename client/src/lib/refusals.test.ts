import { describe as group, expect, it } from 'vitest';
import { LANGS } from './i18n';
import { REFUSALS, refusalText } from './refusals';

const names = ['Ann', 'Bo', 'Cy', 'Dee'];
const illegal = (reason: string, params: Record<string, string | number>) => ({
  code: 'illegal', message: 'the core’s English message', reason, params,
});

group('refusals in the player’s language', () => {
  it('says why a play does not beat the table, with card faces', () => {
    expect(refusalText('en', 'tichu', illegal('does_not_beat', { play: '2k', top: 'Ag' }), names))
      .toBe('A single 2⚔ does not beat a single A◆.');
    expect(refusalText('ja', 'tichu', illegal('does_not_beat', { play: '2k', top: 'Ag' }), names))
      .toBe('シングル（2⚔）ではシングル（A◆）に勝てません。');
    expect(refusalText('ko', 'tichu', illegal('does_not_beat', { play: '5k 5b', top: 'Ag Ar' }), names))
      .toBe('5페어(5⚔ 5▲)(으)로는 A페어(A◆ A★)을(를) 이길 수 없습니다.');
  });

  it('says what the wish obliges, with the wished rank', () => {
    expect(refusalText('en', 'tichu', illegal('wish_obliges', { rank: 8, seat: 1, example: '8k' }), names))
      .toBe('The wish for 8 is on: you must play an 8 (for example 8⚔).');
    expect(refusalText('en', 'tichu', illegal('wish_obliges', { rank: 7, seat: 1, example: '7k' }), names))
      .toBe('The wish for 7 is on: you must play a 7 (for example 7⚔).');
    expect(refusalText('ko', 'tichu', illegal('wish_obliges', { rank: 14, seat: 1, example: 'Ak' }), names))
      .toBe('A 콜이 있습니다: A을(를) 내야 합니다 (예: A⚔).');
  });

  it('names the players, never a zero-based seat', () => {
    expect(refusalText('en', 'tichu', illegal('not_your_turn', { seat: 2 }), names)).toBe('It is Cy’s turn.');
    expect(refusalText('de', 'tichu', illegal('dragon_to_opponent', { left: 1, right: 3 }), names))
      .toBe('Der Drachenstich geht an einen Gegner: Bo oder Dee.');
  });

  it('tells Dou Di Zhu plays by their combination', () => {
    expect(refusalText('en', 'doudizhu', illegal('does_not_beat', { play: '6', top: '33' }), names.slice(0, 3)))
      .toBe('A solo 6 does not beat a pair of 3s (3 3).');
    expect(refusalText('en', 'doudizhu', illegal('not_held', { seat: 1, cards: '77' }), names.slice(0, 3)))
      .toBe('You do not hold a pair of 7s (7 7).');
  });

  it('falls back to a translated sentence for a reason it does not know, never the notation', () => {
    const text = refusalText('ja', 'tichu', illegal('some_new_rule', { cards: '5k 5b' }), names);
    expect(text).toBe('その手は今は出せません。');
    expect(text).not.toContain('5k');
  });

  it('has every sentence in every language, none in notation', () => {
    const reasons = Object.keys(REFUSALS.en).sort();
    for (const lang of LANGS) expect(Object.keys(REFUSALS[lang]).sort()).toEqual(reasons);
    const params = { play: '2k', top: 'Ag', rank: 7, seat: 1, example: '7k', cards: '5k 5b', left: 1, right: 3, above: 1, most: 3, options: '5' };
    for (const lang of LANGS) {
      for (const reason of reasons) {
        const text = refusalText(lang, 'tichu', illegal(reason, params), names);
        expect(text, `${lang} ${reason}`).not.toMatch(/\b(2k|Ag|7k|5k)\b|\{|undefined/);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS, errorText, pickLang, translate } from './i18n';

describe('message catalogues', () => {
  const keys = Object.keys(CATALOGUES.en).sort();
  for (const lang of LANGS) {
    it(`${lang} has every key, none empty, the same placeholders`, () => {
      const cat = CATALOGUES[lang] as Record<string, string>;
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const k of keys) {
        expect(cat[k].trim().length, k).toBeGreaterThan(0);
        const ph = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
        expect(ph(cat[k]), `${lang} ${k}`).toEqual(ph((CATALOGUES.en as Record<string, string>)[k]));
      }
    });
  }
  it('picks the browser language', () => {
    expect(pickLang(['ko-KR', 'en'])).toBe('ko');
    expect(pickLang(['fr-FR', 'de-AT'])).toBe('de');
    expect(pickLang(['fr'])).toBe('en');
  });
  it('fills placeholders', () => {
    expect(translate('en', 'table.seat', { n: 3 })).toBe('Seat 3');
    expect(translate('ja', 'table.cardsLeft', { n: 5 })).toBe('残り5枚');
  });
  it('has short card labels of its own in each language', () => {
    const labels = ['card.dog', 'card.phoenix', 'card.dragon', 'card.joker'] as const;
    expect(labels.map((k) => translate('en', k))).toEqual(['Dog', 'Ph', 'Dr', 'JK']);
    expect(labels.map((k) => translate('de', k))).toEqual(['Hund', 'Phö', 'Dra', 'Jo']);
    expect(labels.map((k) => translate('ko', k))).toEqual(['개', '봉', '용', '조커']);
    expect(labels.map((k) => translate('ja', k))).toEqual(['犬', '鳳', '龍', 'JK']);
    // a label fits on a card: at most 4 characters
    for (const lang of LANGS) for (const k of labels) expect([...translate(lang, k)].length).toBeLessThanOrEqual(4);
  });
  it('reads known error codes in the reader’s language and others by the server’s reason', () => {
    expect(errorText('de', { code: 'seat_taken', message: 'seat 2 is taken' })).toBe('Dieser Platz ist besetzt.');
    expect(errorText('ko', { code: 'not_owner', message: 'x' })).toBe('테이블을 만든 사람만 할 수 있습니다.');
    // a refused move is said in words, never with the engine's notation
    expect(errorText('en', { code: 'illegal', message: '5k 5b 6k 6b Ph does not beat Ar' })).toBe('That move is not allowed now.');
    expect(errorText('ja', { code: 'illegal', message: '5k 5b 6k 6b Ph does not beat Ar' })).toBe('その手は今は出せません。');
    expect(errorText('en', { code: 'bad_json', message: 'not JSON' })).toBe('Refused: not JSON');
  });
});

import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS, pickLang, translate } from './i18n';

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
});

import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS, errorText, pickLang, translate, type Key, type Lang } from './i18n';
import { API_ERROR_CODES, ERROR_CODES } from './protocol';

describe('message catalogues', () => {
  const keys = Object.keys(CATALOGUES.en).sort();
  for (const lang of LANGS) {
    it(`${lang} has every key, none empty, the same placeholders`, () => {
      const cat = CATALOGUES[lang] as Record<string, string>;
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const k of keys) {
        expect(cat[k].trim().length, k).toBeGreaterThan(0);
        // (a plural's count, `{n, plural, …}`, is its placeholder `{n}`)
        const ph = (s: string) => (s.match(/\{\w+(?=\}|, plural,)/g) ?? []).sort();
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
  it('says counts by the language’s plural rules: never "1 cards"', () => {
    const said = (lang: Lang, key: Key, n: number) => translate(lang, key, { n });
    expect([1, 2, 14].map((n) => said('en', 'table.cardsLeft', n))).toEqual(['1 card', '2 cards', '14 cards']);
    expect([1, 2].map((n) => said('de', 'table.cardsLeft', n))).toEqual(['1 Karte', '2 Karten']);
    expect([1, 0].map((n) => said('en', 'history.target', n))).toEqual(['to 1 point', 'to 0 points']);
    expect([1, 500].map((n) => said('de', 'history.target', n))).toEqual(['bis 1 Punkt', 'bis 500 Punkte']);
    expect([1, 3].map((n) => said('de', 'table.spectators', n))).toEqual(['1 schaut zu', '3 schauen zu']);
    expect([1, 3].map((n) => said('en', 'table.spectators', n))).toEqual(['1 watching', '3 watching']);
    expect([5, 25].map((n) => said('en', 'tichu.points', n))).toEqual(['5 pts', '25 pts']);
    expect(said('en', 'tichu.points', 1)).toBe('1 pt');
    // Korean and Japanese say a count one way
    expect([1, 2].map((n) => said('ko', 'table.cardsLeft', n))).toEqual(['1장', '2장']);
    expect([1, 2].map((n) => said('ja', 'table.cardsLeft', n))).toEqual(['残り1枚', '残り2枚']);
    // no catalogue says a count with a noun of its own without the plural form: "{n} cards", "{n} Karten"
    for (const lang of ['en', 'de'] as const) {
      for (const k of Object.keys(CATALOGUES[lang])) {
        for (const n of [1, 2]) {
          const out = translate(lang, k as Key, { n, m: 2, taken: 1, total: 4 });
          expect(out, `${lang} ${k}`).not.toMatch(n === 1 ? /\b1 (cards|points|pts|Karten|Punkte|schauen)\b/ : /\b2 (card|point|pt|Karte|Punkt|schaut)\b/);
        }
      }
    }
  });
  it('reads known error codes in the reader’s language and others by the server’s reason', () => {
    expect(errorText('de', { code: 'seat_taken', message: 'seat 2 is taken' })).toBe('Dieser Platz ist besetzt.');
    expect(errorText('ko', { code: 'not_owner', message: 'x' })).toBe('테이블을 만든 사람만 할 수 있습니다.');
    // a refused move is said in words, never with the engine's notation
    expect(errorText('en', { code: 'illegal', message: '5k 5b 6k 6b Ph does not beat Ar' })).toBe('That move is not allowed now.');
    expect(errorText('ja', { code: 'illegal', message: '5k 5b 6k 6b Ph does not beat Ar' })).toBe('その手は今は出せません。');
    // a code this client does not know yet (a newer server) is said by the server's reason
    expect(errorText('en', { code: 'new_code', message: 'not JSON' })).toBe('Refused: not JSON');
  });
  it('has words for every code the server refuses with, over HTTP and the table socket', () => {
    // 31 HTTP codes and 29 socket codes, 4 of them both (bad_json, too_large, no_table,
    // invite_required): 31 + 29 - 4 = 56 keys
    const codes = [...new Set([...API_ERROR_CODES, ...ERROR_CODES])];
    expect(codes.length).toBe(56);
    const missing = codes.filter((c) => !(`error.${c}` in CATALOGUES.en));
    expect(missing).toEqual([]);
    for (const lang of LANGS) {
      for (const code of codes) {
        const said = errorText(lang, { code, message: 'the server’s English reason', params: { limit: 2 } });
        expect(said, `${lang} ${code}`).not.toContain('English reason');
      }
    }
  });
  it('says whose table limit a creation ran into, with the limit counted', () => {
    const said = (lang: Lang, code: string, limit: number) => errorText(lang, { code, message: 'x', params: { limit } });
    expect(said('en', 'tables_per_owner', 1)).toBe('You have 1 live table: finish or leave one first.');
    expect(said('en', 'tables_per_address', 3)).toBe('Your network address has 3 live tables: finish or leave one first.');
    expect(said('de', 'tables_per_owner', 2)).toBe('Du hast 2 laufende Tische: beende oder verlasse zuerst einen.');
    expect(said('ko', 'tables_per_owner', 2)).toBe('진행 중인 테이블이 2개 있습니다. 먼저 하나를 끝내거나 나가세요.');
    expect(said('ja', 'tables_per_address', 4)).toBe('このネットワークアドレスに進行中のテーブルが4個あります。先に一つを終えるか退出してください。');
  });
});

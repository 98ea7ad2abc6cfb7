// The seeds' terms as Korean and Japanese players say them, where the client says them: the
// round summary (스프링, 원투), the wish (콜, 指定), the Dragon (龍, never ドラゴン) and the bomb (ボム).
import { describe as group, expect, it } from 'vitest';
import { comboLabel, describe, PHRASES, specialName, tichuFace } from './describe';
import { CATALOGUES, translate, type Lang } from './i18n';
import { REFUSALS, refusalText } from './refusals';
import { explainDoudizhu, explainTichu } from './summary';
import type { DoudizhuRoundSummary, TichuRoundSummary } from './protocol';

const names = ['Ann', 'Bo', 'Cy', 'Dee'];

/** Every line of a round summary as Summary.svelte says it (seats named). */
function tichuLines(lang: Lang, s: TichuRoundSummary): string[] {
  return explainTichu(s).map((l) => {
    const seats = l.params.seats;
    const seat = l.params.seat;
    return translate(lang, l.key, {
      ...(Array.isArray(seats) ? { names: seats.map((i) => names[i]).join(' & ') } : {}),
      ...(typeof seat === 'number' ? { name: names[seat] } : {}),
    });
  });
}
function ddzLines(lang: Lang, s: DoudizhuRoundSummary): string[] {
  return explainDoudizhu(s).factors.map((f) => translate(lang, f.key, f.params));
}

const oneTwo: TichuRoundSummary = {
  game: 'tichu', round: 1, points: [200, 0], scores: [200, 0], card_points: [0, 0], out: [0, 2], grand_calls: [], tichu_calls: [],
};
const spring: DoudizhuRoundSummary = {
  game: 'doudizhu', round: 1, points: [12, -6, -6], scores: [12, -6, -6], landlord: 0, winner: 0,
  spring: true, anti_spring: false, bid: 3, bombs: 0, rockets: 0, multiplier: 2,
};

group('Korean', () => {
  it('says 원투 for the one-two and 스프링 for the spring', () => {
    expect(tichuLines('ko', oneTwo)[0]).toBe('원투: Ann & Cy 님이 1, 2등으로 나갔습니다');
    expect(tichuLines('ko', oneTwo)[1]).toContain('원투');
    expect(ddzLines('ko', spring)).toEqual(['부른 점수: 3', '스프링: ×2']);
    expect(ddzLines('ko', { ...spring, winner: 1, anti_spring: true })[1]).toBe('반스프링: ×2');
  });
  it('says 콜 for the wish', () => {
    expect(translate('ko', 'tichu.wishActive', { rank: '8' })).toBe('8콜');
    expect(translate('ko', 'tichu.noWish')).toBe('콜 안함');
    expect(describe('tichu', 'ko', 2, 'play Mj wish A', names)).toBe('Cy 님이 1 카드를 내고 A콜을 했습니다');
    expect(refusalText('ko', 'tichu', { code: 'illegal', message: '', reason: 'wish_obliges', params: { rank: 8, example: '8g' } }, names))
      .toMatch(/^8 콜이 있습니다/);
  });
});

group('Japanese', () => {
  it('names the Dragon 龍 everywhere, never ドラゴン', () => {
    expect(specialName('ja', 'Dr')).toBe('龍');
    expect(tichuFace('ja', 'Dr')).toBe('龍');
    expect(translate('ja', 'tichu.dragonGive')).toBe('龍のトリックを渡す相手');
    expect(describe('tichu', 'ja', 3, 'give-dragon 1', names)).toBe('Deeさんが龍のトリックをBoさんに渡しました');
    expect(describe('tichu', 'ja', 0, 'play Dr', names)).toBe('Annさんが龍を出しました');
    const said = [
      ...Object.values(CATALOGUES.ja),
      ...Object.values(REFUSALS.ja).map((f) => f({ seat: () => 'X', combo: () => 'X', cards: () => 'X', rank: () => 'X' })),
      ...Object.values(PHRASES.ja.special),
    ];
    for (const text of said) expect(text).not.toMatch(/ドラゴン/);
  });
  it('says ボム for a bomb', () => {
    expect(translate('ja', 'action.bomb')).toBe('ボム！');
    expect(comboLabel('tichu', 'ja', ['9g', '9k', '9b', '9r'])).toBe('9のフォーカードのボム');
    expect(comboLabel('tichu', 'ja', ['3g', '4g', '5g', '6g', '7g'])).toBe('5枚のストレートフラッシュのボム');
    expect(comboLabel('doudizhu', 'ja', ['7', '7', '7', '7'])).toBe('7のボム');
    expect(ddzLines('ja', { ...spring, bombs: 1, multiplier: 4 })[1]).toBe('ボム: 1回 (×2)');
  });
  it('says 指定 for the wish', () => {
    expect(translate('ja', 'tichu.wish')).toBe('指定するランクを選ぶ');
    expect(translate('ja', 'tichu.wishActive', { rank: '8' })).toBe('指定: 8');
    expect(translate('ja', 'tichu.noWish')).toBe('指定なし');
    expect(describe('tichu', 'ja', 2, 'play Mj wish 8', names)).toBe('Cyさんが麻雀を出し、8を指定しました');
  });
});

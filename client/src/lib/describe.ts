// What players read: an action text of the protocol (`play 7g 7k`, `give-dragon 1`, `bid 2`, …)
// told as a sentence in the reader's language, with the players' names and the cards' faces.
// The notation stays on the wire and in records; nothing here is sent back.

import { isTichuBomb, parsePlay, tichuRank } from './cards';
import type { Lang } from './i18n';
import type { GameName } from './protocol';

export type TichuKind =
  | 'single' | 'pair' | 'triple' | 'full_house' | 'pair_run' | 'straight'
  | 'four_of_a_kind' | 'straight_flush' | 'dog';
export type DdzKind =
  | 'solo' | 'pair' | 'trio' | 'trio_solo' | 'trio_pair' | 'chain' | 'pair_chain' | 'plane'
  | 'plane_solo' | 'plane_pair' | 'bomb' | 'four_two_solo' | 'four_two_pair' | 'rocket';
type Special = 'Mj' | 'Dg' | 'Ph' | 'Dr' | 'B' | 'R';

/** What a combination phrase is told from: its rank (as a face, `7`, `10`, `A`), its size, its faces. */
interface Combo {
  rank: string;
  /** Cards for straights, pairs for pair runs, trios for planes. */
  n: number;
  faces: string;
}

interface Phrases {
  special: Record<Special, string>;
  /** The combination, as the object of "plays". */
  tichu: Record<TichuKind, (c: Combo) => string>;
  ddz: Record<DdzKind, (c: Combo) => string>;
  plays(name: string, what: string): string;
  playsWish(name: string, what: string, rank: string): string;
  pass(name: string): string;
  take(name: string): string;
  tichuCall(name: string): string;
  grand(name: string): string;
  noGrand(name: string): string;
  exchange(name: string): string;
  gives(name: string, gifts: readonly (readonly [string, string])[]): string;
  giveDragon(name: string, to: string): string;
  bid(name: string, n: number): string;
  call(name: string): string;
  rob(name: string): string;
  /** The line, said when the turn timer made the move. */
  byTimer(line: string): string;
}

// one Intl.PluralRules a language, made on first use (making one costs far more than a select)
const pluralRules = new Map<Lang, Intl.PluralRules>();
/** `one`/`other` (…) forms picked by the language's plural rules. */
export function plural(lang: Lang, n: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }): string {
  let rules = pluralRules.get(lang);
  if (rules === undefined) {
    rules = new Intl.PluralRules(lang);
    pluralRules.set(lang, rules);
  }
  const form = forms[rules.select(n)] ?? forms.other;
  return form.replace('{n}', String(n));
}

const EN_RANK: Record<string, [string, string]> = {
  J: ['Jack', 'Jacks'], Q: ['Queen', 'Queens'], K: ['King', 'Kings'], A: ['Ace', 'Aces'],
};
const enRank = (r: string, many: boolean) => EN_RANK[r]?.[many ? 1 : 0] ?? (many ? `${r}s` : r);
const enA = (r: string) => (/^(8|A|11|18)/.test(r) ? `an ${enRank(r, false)}` : `a ${enRank(r, false)}`);
const en: Phrases = {
  special: { Mj: 'the Mah Jong', Dg: 'the Dog', Ph: 'the Phoenix', Dr: 'the Dragon', B: 'Black Joker', R: 'Red Joker' },
  tichu: {
    single: (c) => `a single ${c.faces}`,
    pair: (c) => `a pair of ${enRank(c.rank, true)} (${c.faces})`,
    triple: (c) => `three ${enRank(c.rank, true)} (${c.faces})`,
    full_house: (c) => `a full house, ${enRank(c.rank, true)} full (${c.faces})`,
    straight: (c) => `a straight of ${c.n} cards (${c.faces})`,
    pair_run: (c) => `stairs of ${c.n} pairs (${c.faces})`,
    four_of_a_kind: (c) => `a bomb: four ${enRank(c.rank, true)} (${c.faces})`,
    straight_flush: (c) => `a straight-flush bomb of ${c.n} cards (${c.faces})`,
    dog: () => 'the Dog',
  },
  ddz: {
    solo: (c) => `a solo ${c.faces}`,
    pair: (c) => `a pair of ${enRank(c.rank, true)} (${c.faces})`,
    trio: (c) => `a trio of ${enRank(c.rank, true)} (${c.faces})`,
    trio_solo: (c) => `a trio with a solo kicker (${c.faces})`,
    trio_pair: (c) => `a trio with a pair (${c.faces})`,
    chain: (c) => `a chain of ${c.n} cards (${c.faces})`,
    pair_chain: (c) => `a pair chain of ${c.n} pairs (${c.faces})`,
    plane: (c) => `a plane of ${c.n} trios (${c.faces})`,
    plane_solo: (c) => `a plane with solo kickers (${c.faces})`,
    plane_pair: (c) => `a plane with pair kickers (${c.faces})`,
    bomb: (c) => `a bomb: ${c.n === 4 ? 'four' : c.n} ${enRank(c.rank, true)} (${c.faces})`,
    four_two_solo: (c) => `four ${enRank(c.rank, true)} with two solos (${c.faces})`,
    four_two_pair: (c) => `four ${enRank(c.rank, true)} with two pairs (${c.faces})`,
    rocket: (c) => (c.n === 4 ? 'the rocket (all four jokers)' : 'the rocket (both jokers)'),
  },
  plays: (n, w) => `${n} plays ${w}`,
  playsWish: (n, w, r) => `${n} plays ${w} and wishes for ${enA(r)}`,
  pass: (n) => `${n} passes`,
  take: (n) => `${n} takes the trick`,
  tichuCall: (n) => `${n} calls Tichu`,
  grand: (n) => `${n} calls Grand Tichu`,
  noGrand: (n) => `Grand Tichu: ${n} declines`,
  exchange: (n) => `${n} exchanges`,
  gives: (n, g) => `${n} gives ${g.map(([c, to]) => `${c} to ${to}`).join(', ')}`,
  giveDragon: (n, to) => `${n} gives the Dragon trick to ${to}`,
  bid: (n, b) => `${n} bids ${b}`,
  call: (n) => `${n} calls the landlord`,
  rob: (n) => `${n} robs the landlord`,
  byTimer: (l) => `${l} (time ran out)`,
};

const DE_WISH: Record<string, string> = { J: 'einen Buben', Q: 'eine Dame', K: 'einen König', A: 'ein Ass' };
const de: Phrases = {
  special: { Mj: 'den Mah Jong', Dg: 'den Hund', Ph: 'den Phönix', Dr: 'den Drachen', B: 'Schwarzer Joker', R: 'Roter Joker' },
  tichu: {
    single: (c) => `eine Einzelkarte ${c.faces}`,
    pair: (c) => `ein Paar ${c.rank} (${c.faces})`,
    triple: (c) => `einen Drilling ${c.rank} (${c.faces})`,
    full_house: (c) => `ein Full House (${c.faces})`,
    straight: (c) => `eine Straße aus ${c.n} Karten (${c.faces})`,
    pair_run: (c) => `eine Treppe aus ${c.n} Paaren (${c.faces})`,
    four_of_a_kind: (c) => `eine Bombe: vier ${c.rank} (${c.faces})`,
    straight_flush: (c) => `eine Straßenbombe aus ${c.n} Karten (${c.faces})`,
    dog: () => 'den Hund',
  },
  ddz: {
    solo: (c) => `eine Einzelkarte ${c.faces}`,
    pair: (c) => `ein Paar ${c.rank} (${c.faces})`,
    trio: (c) => `einen Drilling ${c.rank} (${c.faces})`,
    trio_solo: (c) => `einen Drilling mit Beikarte (${c.faces})`,
    trio_pair: (c) => `einen Drilling mit Paar (${c.faces})`,
    chain: (c) => `eine Straße aus ${c.n} Karten (${c.faces})`,
    pair_chain: (c) => `eine Paarstraße aus ${c.n} Paaren (${c.faces})`,
    plane: (c) => `ein Flugzeug aus ${c.n} Drillingen (${c.faces})`,
    plane_solo: (c) => `ein Flugzeug mit Einzelkarten (${c.faces})`,
    plane_pair: (c) => `ein Flugzeug mit Paaren (${c.faces})`,
    bomb: (c) => `eine Bombe: ${c.n === 4 ? 'vier' : c.n} ${c.rank} (${c.faces})`,
    four_two_solo: (c) => `vier ${c.rank} mit zwei Einzelkarten (${c.faces})`,
    four_two_pair: (c) => `vier ${c.rank} mit zwei Paaren (${c.faces})`,
    rocket: (c) => (c.n === 4 ? 'die Rakete (alle vier Joker)' : 'die Rakete (beide Joker)'),
  },
  plays: (n, w) => `${n} spielt ${w}`,
  playsWish: (n, w, r) => `${n} spielt ${w} und wünscht sich ${DE_WISH[r] ?? `eine ${r}`}`,
  pass: (n) => `${n} passt`,
  take: (n) => `${n} nimmt den Stich`,
  tichuCall: (n) => `${n} sagt Tichu an`,
  grand: (n) => `${n} sagt Großes Tichu an`,
  noGrand: (n) => `Großes Tichu: ${n} verzichtet`,
  exchange: (n) => `${n} schupft`,
  gives: (n, g) => `${n} gibt ${g.map(([c, to]) => `${c} an ${to}`).join(', ')}`,
  giveDragon: (n, to) => `${n} gibt den Drachenstich an ${to}`,
  bid: (n, b) => `${n} bietet ${b}`,
  call: (n) => `${n} will Grundherr werden`,
  rob: (n) => `${n} raubt den Grundherrn`,
  byTimer: (l) => `${l} (Zeit abgelaufen)`,
};

// Korean: the object particle (을/를) is written with each phrase, after the word it follows.
const ko: Phrases = {
  special: { Mj: '1 카드', Dg: '개', Ph: '봉황', Dr: '용', B: '흑백 조커', R: '컬러 조커' },
  tichu: {
    single: (c) => `싱글(${c.faces})을`,
    pair: (c) => `${c.rank}페어(${c.faces})를`,
    triple: (c) => `${c.rank}트리플(${c.faces})을`,
    full_house: (c) => `풀하우스(${c.faces})를`,
    straight: (c) => `${c.n}장 스트레이트(${c.faces})를`,
    pair_run: (c) => `${c.n}쌍 연페어(${c.faces})를`,
    four_of_a_kind: (c) => `${c.rank}포카드 폭탄(${c.faces})을`,
    straight_flush: (c) => `${c.n}장 스트레이트 플러시 폭탄(${c.faces})을`,
    dog: () => '개를',
  },
  ddz: {
    solo: (c) => `싱글(${c.faces})을`,
    pair: (c) => `${c.rank}페어(${c.faces})를`,
    trio: (c) => `${c.rank}트리플(${c.faces})을`,
    trio_solo: (c) => `트리플+싱글(${c.faces})을`,
    trio_pair: (c) => `트리플+페어(${c.faces})를`,
    chain: (c) => `${c.n}장 스트레이트(${c.faces})를`,
    pair_chain: (c) => `${c.n}쌍 연페어(${c.faces})를`,
    plane: (c) => `비행기(${c.faces})를`,
    plane_solo: (c) => `싱글 날개 비행기(${c.faces})를`,
    plane_pair: (c) => `페어 날개 비행기(${c.faces})를`,
    bomb: (c) => `${c.rank}폭탄(${c.faces})을`,
    four_two_solo: (c) => `포카드+싱글 둘(${c.faces})을`,
    four_two_pair: (c) => `포카드+페어 둘(${c.faces})을`,
    rocket: (c) => (c.n === 4 ? '로켓(조커 네 장)을' : '로켓(조커 두 장)을'),
  },
  plays: (n, w) => `${n} 님이 ${w} 냈습니다`,
  playsWish: (n, w, r) => `${n} 님이 ${w} 내고 ${r}콜을 했습니다`,
  pass: (n) => `${n} 님이 패스했습니다`,
  take: (n) => `${n} 님이 트릭을 가져갔습니다`,
  tichuCall: (n) => `${n} 님이 티츄를 선언했습니다`,
  grand: (n) => `${n} 님이 라지 티츄를 선언했습니다`,
  noGrand: (n) => `라지 티츄: ${n} 님은 선언하지 않았습니다`,
  exchange: (n) => `${n} 님이 카드를 교환했습니다`,
  gives: (n, g) => `${n} 님이 ${g.map(([c, to]) => `${to} 님에게 ${c}`).join(', ')} 카드를 주었습니다`,
  giveDragon: (n, to) => `${n} 님이 용 트릭을 ${to} 님에게 주었습니다`,
  bid: (n, b) => `${n} 님이 ${b}점을 불렀습니다`,
  call: (n) => `${n} 님이 지주를 불렀습니다`,
  rob: (n) => `${n} 님이 지주를 빼앗았습니다`,
  byTimer: (l) => `${l} (시간 초과)`,
};

const ja: Phrases = {
  special: { Mj: '麻雀', Dg: '犬', Ph: '鳳凰', Dr: '龍', B: 'ブラックジョーカー', R: 'レッドジョーカー' },
  tichu: {
    single: (c) => `シングル（${c.faces}）`,
    pair: (c) => `${c.rank}のペア（${c.faces}）`,
    triple: (c) => `${c.rank}のスリーカード（${c.faces}）`,
    full_house: (c) => `フルハウス（${c.faces}）`,
    straight: (c) => `${c.n}枚のストレート（${c.faces}）`,
    pair_run: (c) => `${c.n}組のステアー（${c.faces}）`,
    four_of_a_kind: (c) => `${c.rank}のフォーカードのボム（${c.faces}）`,
    straight_flush: (c) => `${c.n}枚のストレートフラッシュのボム（${c.faces}）`,
    dog: () => '犬',
  },
  ddz: {
    solo: (c) => `シングル（${c.faces}）`,
    pair: (c) => `${c.rank}のペア（${c.faces}）`,
    trio: (c) => `${c.rank}のスリーカード（${c.faces}）`,
    trio_solo: (c) => `スリーカード＋1枚（${c.faces}）`,
    trio_pair: (c) => `スリーカード＋ペア（${c.faces}）`,
    chain: (c) => `${c.n}枚の連番（${c.faces}）`,
    pair_chain: (c) => `${c.n}組の連続ペア（${c.faces}）`,
    plane: (c) => `飛行機（${c.faces}）`,
    plane_solo: (c) => `1枚ずつの翼付き飛行機（${c.faces}）`,
    plane_pair: (c) => `ペアの翼付き飛行機（${c.faces}）`,
    bomb: (c) => `${c.rank}のボム（${c.faces}）`,
    four_two_solo: (c) => `フォーカード＋2枚（${c.faces}）`,
    four_two_pair: (c) => `フォーカード＋2ペア（${c.faces}）`,
    rocket: (c) => (c.n === 4 ? 'ロケット（ジョーカー4枚）' : 'ロケット（ジョーカー2枚）'),
  },
  plays: (n, w) => `${n}さんが${w}を出しました`,
  playsWish: (n, w, r) => `${n}さんが${w}を出し、${r}を指定しました`,
  pass: (n) => `${n}さんがパスしました`,
  take: (n) => `${n}さんがトリックを取りました`,
  tichuCall: (n) => `${n}さんがティチューを宣言しました`,
  grand: (n) => `${n}さんがラージ・ティチューを宣言しました`,
  noGrand: (n) => `ラージ・ティチュー：${n}さんは宣言しませんでした`,
  exchange: (n) => `${n}さんがカードを交換しました`,
  gives: (n, g) => `${n}さんが${g.map(([c, to]) => `${to}さんに${c}`).join('、')}を渡しました`,
  giveDragon: (n, to) => `${n}さんが龍のトリックを${to}さんに渡しました`,
  bid: (n, b) => `${n}さんが${b}点をコールしました`,
  call: (n) => `${n}さんが地主をコールしました`,
  rob: (n) => `${n}さんが地主を奪いました`,
  byTimer: (l) => `${l}（時間切れ）`,
};

export const PHRASES: Record<Lang, Phrases> = { en, de, ko, ja };

const SUIT_SYMBOL: Record<string, string> = { g: '◆', k: '⚔', b: '▲', r: '★' };
const rankFace = (r: string) => (r === 'T' ? '10' : r);

/** A Tichu card's face in text: `7★`, `10◆`, or the special card's name (`the Dragon`). */
export function tichuFace(lang: Lang, card: string): string {
  if (card === 'Mj' || card === 'Dg' || card === 'Ph' || card === 'Dr') return specialName(lang, card);
  return rankFace(card[0]) + (SUIT_SYMBOL[card[1]] ?? '');
}

type Suit = 'g' | 'k' | 'b' | 'r';
/** A Tichu card read out in words, from its face (`7`, `10`, `J` … `A`) and suit. */
const CARD_NAME: Record<Lang, (rank: string, suit: Suit) => string> = {
  en: (r, s) => `${({ J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' } as Record<string, string>)[r] ?? r} of ${{ g: 'Jade', k: 'Swords', b: 'Pagodas', r: 'Stars' }[s]}`,
  de: (r, s) => `${{ g: 'Jade', k: 'Schwert', b: 'Pagode', r: 'Stern' }[s]} ${({ J: 'Bube', Q: 'Dame', K: 'König', A: 'Ass' } as Record<string, string>)[r] ?? r}`,
  ko: (r, s) => `${{ g: '옥', k: '검', b: '탑', r: '별' }[s]} ${r}`,
  ja: (r, s) => `${{ g: '玉', k: '剣', b: '塔', r: '星' }[s]}の${r}`,
};

/**
 * A card's name in words, as a screen reader says it: "7 of Stars", "Jack of Swords", "별 7",
 * "星の7"; the special cards and jokers by name ("Dragon"); a Dou Di Zhu rank by its face.
 */
export function cardName(lang: Lang, game: GameName, card: string): string {
  if (game === 'doudizhu') return ddzFace(lang, card);
  if (card === 'Mj' || card === 'Dg' || card === 'Ph' || card === 'Dr') return specialName(lang, card);
  const suit = card[1] as Suit;
  return suit in SUIT_SYMBOL ? CARD_NAME[lang](rankFace(card[0]), suit) : card;
}

/** A special card's or joker's name, without an article where the language has one. */
export function specialName(lang: Lang, card: Special): string {
  return PHRASES[lang].special[card].replace(/^(the|den|die) /, '');
}

/** A Dou Di Zhu card's face in text: `7`, `10`, or the joker's name. */
export function ddzFace(lang: Lang, card: string): string {
  if (card === 'B' || card === 'R') return specialName(lang, card);
  return rankFace(card);
}

/** The kind of a Tichu play, told from its cards (the server names it too: `top.kind`). */
export function tichuKind(cards: readonly string[]): TichuKind {
  const n = cards.length;
  if (n === 1) return cards[0] === 'Dg' ? 'dog' : 'single';
  if (isTichuBomb(cards)) return n === 4 ? 'four_of_a_kind' : 'straight_flush';
  if (n === 2) return 'pair';
  if (n === 3) return 'triple';
  const natural = cards.filter((c) => c !== 'Ph').map(tichuRank);
  const distinct = new Set(natural).size === natural.length;
  if (n >= 5 && distinct) return 'straight';
  if (n === 5) return 'full_house';
  return n % 2 === 0 ? 'pair_run' : 'straight';
}

const DDZ_ORDER = '3456789TJQKA2BR';

/** The kind of a Dou Di Zhu play, told from its cards (the default preset's kinds). */
export function ddzKind(cards: readonly string[]): DdzKind {
  const n = cards.length;
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  const ranks = [...counts.keys()].sort((a, b) => DDZ_ORDER.indexOf(a) - DDZ_ORDER.indexOf(b));
  const with_ = (k: number) => ranks.filter((r) => (counts.get(r) ?? 0) >= k);
  const consecutive = (rs: string[]) =>
    rs.every((r, i) => i === 0 || DDZ_ORDER.indexOf(r) === DDZ_ORDER.indexOf(rs[i - 1]) + 1) &&
    rs.every((r) => DDZ_ORDER.indexOf(r) <= DDZ_ORDER.indexOf('A'));
  if (n === 2 && counts.has('B') && counts.has('R')) return 'rocket';
  if (n === 1) return 'solo';
  if (n === 2) return 'pair';
  if (n === 3) return 'trio';
  // bombs of 4 to 8 (two decks), and the four jokers together
  if (n >= 4 && ranks.length === 1) return 'bomb';
  if (n === 4 && counts.get('B') === 2 && counts.get('R') === 2) return 'rocket';
  if (ranks.length === n && n >= 5 && consecutive(ranks)) return 'chain';
  if (ranks.length * 2 === n && n >= 6 && with_(2).length === ranks.length && consecutive(ranks)) return 'pair_chain';
  if (ranks.length * 3 === n && n >= 6 && with_(3).length === ranks.length && consecutive(ranks)) return 'plane';
  if (n === 4) return 'trio_solo';
  if (n === 5 && with_(3).length === 1) return 'trio_pair';
  const trios = with_(3).filter((r) => r !== '2');
  // the longest run of trios that leaves as many solos, or as many pairs, as it has trios
  for (let len = trios.length; len >= 2; len--) {
    for (let i = 0; i + len <= trios.length; i++) {
      const run = trios.slice(i, i + len);
      if (!consecutive(run)) continue;
      if (n === len * 4) return 'plane_solo';
      if (n === len * 5) return 'plane_pair';
    }
  }
  if (with_(4).length >= 1) return n === 6 ? 'four_two_solo' : 'four_two_pair';
  return 'plane_solo';
}

function mainRank(counts: Map<string, number>, order: (c: string) => number): string {
  let best = '';
  for (const [r, k] of counts) {
    const b = counts.get(best) ?? 0;
    if (k > b || (k === b && order(r) > order(best))) best = r;
  }
  return best;
}

function tichuCombo(lang: Lang, cards: readonly string[], as: string | null): string {
  const p = PHRASES[lang];
  const kind = tichuKind(cards);
  if (cards.length === 1 && cards[0] !== 'Ph' && cards[0] in p.special) {
    return lang === 'ko' ? `${p.special[cards[0] as Special]}${cards[0] === 'Ph' || cards[0] === 'Dr' ? '을' : '를'}` : p.special[cards[0] as Special];
  }
  if (cards.length === 1 && cards[0] === 'Ph') {
    const face = specialName(lang, 'Ph') + (as ? ` ${rankFace(as)}½` : '');
    return lang === 'en' ? `the ${face}` : lang === 'de' ? `den ${face}` : lang === 'ko' ? `${face}을` : face;
  }
  const counts = new Map<string, number>();
  for (const c of cards) if (c !== 'Ph') counts.set(c[0], (counts.get(c[0]) ?? 0) + 1);
  const rank = as ?? mainRank(counts, (r) => tichuRank(r + 'g'));
  const faces = cards
    .map((c) => (c === 'Ph' ? specialName(lang, 'Ph') + (as ? `=${rankFace(as)}` : '') : tichuFace(lang, c)))
    .join(' ');
  const n = kind === 'pair_run' ? cards.length / 2 : cards.length;
  return p.tichu[kind]({ rank: rankFace(rank), n, faces });
}

function ddzCombo(lang: Lang, cards: readonly string[], kind: DdzKind | null): string {
  const k = kind ?? ddzKind(cards);
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  const rank = mainRank(counts, (r) => DDZ_ORDER.indexOf(r));
  const n = k === 'pair_chain' ? cards.length / 2 : k === 'plane' ? cards.length / 3 : cards.length;
  const faces = cards.map((c) => ddzFace(lang, c)).join(' ');
  return PHRASES[lang].ddz[k]({ rank: rankFace(rank), n, faces });
}

/** The combination a play makes, named in the reader's language with its faces (for the table). */
export function describeCombo(game: GameName, lang: Lang, cards: readonly string[], as: string | null = null): string {
  const phrase = game === 'tichu' ? tichuCombo(lang, cards, as) : ddzCombo(lang, cards, null);
  // a name stands alone here: no Korean object particle, no article's case
  return lang === 'ko' ? phrase.replace(/[을를]$/, '') : phrase;
}

/**
 * One action as a sentence: `describe('tichu', 'en', 0, 'play 7g 7k', names)` is
 * "Ann plays a pair of 7s (7◆ 7⚔)". Null for an action text this client does not know (it is
 * left out of the log rather than shown in notation).
 */
export function describe(
  game: GameName,
  lang: Lang,
  seat: number,
  action: string,
  names: readonly string[],
  by: string = 'player',
): string | null {
  const p = PHRASES[lang];
  const name = names[seat] ?? '?';
  const words = action.trim().split(/\s+/);
  const line = ((): string | null => {
    switch (words[0]) {
      case 'pass': return p.pass(name);
      case 'take': return p.take(name);
      case 'tichu': return p.tichuCall(name);
      case 'grand': return p.grand(name);
      case 'no-grand': return p.noGrand(name);
      case 'call': return p.call(name);
      case 'rob': return p.rob(name);
      case 'bid': {
        const n = Number(words[1]);
        return Number.isInteger(n) ? p.bid(name, n) : null;
      }
      case 'give-dragon': {
        const to = Number(words[1]);
        return Number.isInteger(to) && names[to] !== undefined ? p.giveDragon(name, names[to]) : null;
      }
      case 'exchange': {
        if (words.length !== 4) return p.exchange(name);
        const gifts = words.slice(1).map((c, i) => [tichuFace(lang, c), names[(seat + i + 1) % 4] ?? '?'] as const);
        return p.gives(name, gifts);
      }
      case 'play': {
        const play = parsePlay(game, action);
        if (!play || play.cards.length === 0) return null;
        if (game === 'doudizhu') return p.plays(name, ddzCombo(lang, play.cards, null));
        const what = tichuCombo(lang, play.cards, play.as);
        return play.wish ? p.playsWish(name, what, rankFace(play.wish)) : p.plays(name, what);
      }
    }
    return null;
  })();
  return line !== null && by === 'timer' ? p.byTimer(line) : line;
}

/** The combination's name for the table, without its faces (the cards are shown beside it). */
export function comboLabel(game: GameName, lang: Lang, cards: readonly string[], kind: string | null = null): string {
  // the server's kind wins where it names one this client knows (a wild card's reading, say)
  const known = game === 'doudizhu' && kind !== null && kind in PHRASES[lang].ddz ? (kind as DdzKind) : null;
  const phrase = known ? ddzCombo(lang, cards, known) : describeCombo(game, lang, cards);
  return (lang === 'ko' ? phrase.replace(/[을를]$/, '') : phrase).replace(/\s*[（(][^()（）]*[)）]/, '');
}

const RANK_FACE = ['', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

/**
 * What a single Phoenix counts as in a trick: half a rank above the single it was played on
 * (`7½`, `A½`; on the Mah Jong `1½`), 1.5 when it leads; null for any other play.
 */
export function phoenixValue(trick: readonly { cards: string }[], i: number): string | null {
  if (trick[i]?.cards !== 'Ph') return null;
  if (i === 0) return '1.5';
  const before = trick[i - 1].cards.split(' ');
  if (before.length !== 1) return null;
  return `${RANK_FACE[tichuRank(before[0])] ?? ''}½`;
}

/** A Tichu play's cards in the order they stand: the Phoenix where it fills a straight's gap or joins its rank. */
export function arrangeTichu(cards: readonly string[]): string[] {
  if (!cards.includes('Ph') || cards.length === 1) return [...cards];
  const natural = cards.filter((c) => c !== 'Ph');
  const kind = tichuKind(cards);
  if (kind === 'straight') {
    for (let i = 1; i < natural.length; i++) {
      if (tichuRank(natural[i]) > tichuRank(natural[i - 1]) + 1) return [...natural.slice(0, i), 'Ph', ...natural.slice(i)];
    }
    return tichuRank(natural[natural.length - 1]) < 14 ? [...natural, 'Ph'] : ['Ph', ...natural];
  }
  // the rank the Phoenix completes: the one short of a pair, else (a full house) the highest
  const count = new Map<number, number>();
  for (const c of natural) count.set(tichuRank(c), (count.get(tichuRank(c)) ?? 0) + 1);
  let joins = Math.max(...count.keys());
  if (kind === 'pair_run') for (const [r, k] of count) if (k === 1) joins = r;
  const last = natural.map(tichuRank).lastIndexOf(joins);
  return [...natural.slice(0, last + 1), 'Ph', ...natural.slice(last + 1)];
}

/** The newest ``keep`` lines of a table's log in sentences; actions this client does not know are left out. */
export function describeLog(
  game: GameName,
  lang: Lang,
  log: readonly { seq: number; seat: number; action: string; by?: string }[],
  names: readonly string[],
  keep = 8,
): { seq: number; text: string }[] {
  return log
    .map((e) => ({ seq: e.seq, text: describe(game, lang, e.seat, e.action, names, e.by) }))
    .filter((l): l is { seq: number; text: string } => l.text !== null)
    .slice(-keep);
}

// Cards of both games: parsing, sorting, and matching a selection against the legal actions.

import type { GameName } from './protocol';

// ---- Tichu ------------------------------------------------------------------------------
// Cards are `2g` … `Ar` (suits g Jade, k Sword, b Pagoda, r Star; T is ten) and the specials
// Mj, Dg, Ph, Dr. A hand is sorted Dog, Mah Jong, 2g 2k 2b 2r, …, Ar, Phoenix, Dragon.

export const TICHU_SUITS = ['g', 'k', 'b', 'r'] as const;
const TICHU_RANKS = '23456789TJQKA';
export const SPECIALS = ['Dg', 'Mj', 'Ph', 'Dr'] as const;

/** The canonical spelling of a Tichu card token (`10g` → `Tg`, `mj` → `Mj`); null if none. */
export function tichuCard(token: string): string | null {
  const t = token.trim();
  for (const s of SPECIALS) if (t.toLowerCase() === s.toLowerCase()) return s;
  const m = /^(10|[2-9tjqka])([gkbr])$/i.exec(t);
  if (!m) return null;
  const rank = m[1] === '10' ? 'T' : m[1].toUpperCase();
  return rank + m[2].toLowerCase();
}

/** The rank of a Tichu card: 2…14, the Mah Jong 1, the Dragon 15, the Phoenix 16, the Dog 0. */
export function tichuRank(card: string): number {
  switch (card) {
    case 'Dg': return 0;
    case 'Mj': return 1;
    case 'Dr': return 15;
    case 'Ph': return 16;
  }
  return TICHU_RANKS.indexOf(card[0]) + 2;
}

function tichuOrder(card: string): number {
  switch (card) {
    case 'Dg': return 0;
    case 'Mj': return 1;
    case 'Ph': return 1000;
    case 'Dr': return 1001;
  }
  return tichuRank(card) * 10 + TICHU_SUITS.indexOf(card[1] as (typeof TICHU_SUITS)[number]);
}

export function sortTichu(cards: readonly string[]): string[] {
  return [...cards].sort((a, b) => tichuOrder(a) - tichuOrder(b));
}

export function tichuPoints(card: string): number {
  if (card === 'Dr') return 25;
  if (card === 'Ph') return -25;
  if (card[0] === '5') return 5;
  if (card[0] === 'T' || card[0] === 'K') return 10;
  return 0;
}

/** Whether the hand holds a Tichu bomb: four of a kind or a straight flush of five or more. */
export function hasTichuBomb(hand: readonly string[]): boolean {
  const byRank = new Map<number, number>();
  const bySuit = new Map<string, Set<number>>();
  for (const c of hand) {
    if ((SPECIALS as readonly string[]).includes(c)) continue;
    const r = tichuRank(c);
    byRank.set(r, (byRank.get(r) ?? 0) + 1);
    if (!bySuit.has(c[1])) bySuit.set(c[1], new Set());
    bySuit.get(c[1])!.add(r);
  }
  for (const n of byRank.values()) if (n >= 4) return true;
  for (const ranks of bySuit.values()) {
    let run = 0;
    for (let r = 2; r <= 14; r++) {
      run = ranks.has(r) ? run + 1 : 0;
      if (run >= 5) return true;
    }
  }
  return false;
}

// ---- Dou Di Zhu -------------------------------------------------------------------------
// Ranks 3 4 5 6 7 8 9 T J Q K A 2, black joker B, red joker R; suits are never written.

const DDZ_ORDER = '3456789TJQKA2BR';

/** The cards of a Dou Di Zhu hand string (`"3345T2BR"`, `10` allowed for `T`), one per card. */
export function ddzCards(text: string): string[] {
  const out: string[] = [];
  const s = text.replace(/10/g, 'T').replace(/\s+/g, '').toUpperCase();
  for (const ch of s) if (DDZ_ORDER.includes(ch)) out.push(ch);
  return out;
}

export function sortDoudizhu(cards: readonly string[]): string[] {
  return [...cards].sort((a, b) => DDZ_ORDER.indexOf(a) - DDZ_ORDER.indexOf(b));
}

export function sortCards(game: GameName, cards: readonly string[]): string[] {
  return game === 'tichu' ? sortTichu(cards) : sortDoudizhu(cards);
}

// ---- actions ----------------------------------------------------------------------------

export interface PlayAction {
  /** The whole action text, as sent. */
  text: string;
  /** The cards played, canonical and sorted. */
  cards: string[];
  /** `as <rank>`: the Phoenix (Tichu) or the wild cards (Dou Di Zhu) read as. */
  as: string | null;
  /** `wish <rank>` with a Mah Jong play. */
  wish: string | null;
}

/** Parse a `play …` action text; null for any other action. */
export function parsePlay(game: GameName, text: string): PlayAction | null {
  const words = text.trim().split(/\s+/);
  if (words[0] !== 'play') return null;
  const cardWords: string[] = [];
  let as: string | null = null;
  let wish: string | null = null;
  for (let i = 1; i < words.length; i++) {
    if (words[i] === 'as') as = words[++i] ?? null;
    else if (words[i] === 'wish') wish = words[++i] ?? null;
    else cardWords.push(words[i]);
  }
  let cards: string[];
  if (game === 'tichu') {
    const parsed = cardWords.map(tichuCard);
    if (parsed.some((c) => c === null)) return null;
    cards = sortTichu(parsed as string[]);
  } else {
    cards = sortDoudizhu(ddzCards(cardWords.join('')));
  }
  return { text, cards, as, wish };
}

export function cardsKey(game: GameName, cards: readonly string[]): string {
  return sortCards(game, cards).join(' ');
}

/** The legal plays of exactly the selected cards (several when a reading or wish is to pick). */
export function playsFor(game: GameName, selected: readonly string[], legal: readonly string[]): PlayAction[] {
  if (selected.length === 0) return [];
  const key = cardsKey(game, selected);
  const out: PlayAction[] = [];
  for (const text of legal) {
    const p = parsePlay(game, text);
    if (p && p.cards.join(' ') === key) out.push(p);
  }
  return out;
}

/** Whether a Tichu play is a bomb (four of a kind or a straight flush). */
export function isTichuBomb(cards: readonly string[]): boolean {
  if (cards.length < 4 || cards.some((c) => (SPECIALS as readonly string[]).includes(c))) return false;
  const ranks = cards.map(tichuRank);
  if (cards.length === 4 && ranks.every((r) => r === ranks[0])) return true;
  if (cards.length < 5 || !cards.every((c) => c[1] === cards[0][1])) return false;
  const sorted = [...ranks].sort((a, b) => a - b);
  return sorted.every((r, i) => i === 0 || r === sorted[i - 1] + 1);
}

/** The exchange action: to the next seat (right), the partner, the previous seat (left). */
export function exchangeAction(right: string, partner: string, left: string): string {
  return `exchange ${right} ${partner} ${left}`;
}

export interface Buttons {
  play: boolean;
  pass: boolean;
  tichu: boolean;
  grand: boolean;
  noGrand: boolean;
  exchange: boolean;
  /** Whether the selection is a bomb that may be played now. */
  bomb: boolean;
  dragon: number[];
  auction: string[];
}

/** Which controls are enabled, from the legal-action list and the current selection. */
export function buttons(
  game: GameName,
  legal: { actions: readonly string[]; exchange?: boolean } | null,
  selected: readonly string[],
): Buttons {
  const actions = legal?.actions ?? [];
  const plays = playsFor(game, selected, actions);
  return {
    play: plays.length > 0,
    pass: actions.includes('pass'),
    tichu: actions.includes('tichu'),
    grand: actions.includes('grand'),
    noGrand: actions.includes('no-grand'),
    exchange: legal?.exchange === true,
    bomb: game === 'tichu' && plays.length > 0 && isTichuBomb(plays[0].cards),
    dragon: actions.filter((a) => a.startsWith('give-dragon ')).map((a) => Number(a.split(' ')[1])),
    auction: actions.filter((a) => a === 'call' || a === 'rob' || a.startsWith('bid ')),
  };
}

/** The lowest legal bomb among the actions, to select when the Bomb button is pressed. */
export function firstLegalBomb(legal: readonly string[]): PlayAction | null {
  for (const text of legal) {
    const p = parsePlay('tichu', text);
    if (p && isTichuBomb(p.cards)) return p;
  }
  return null;
}

/** Seat positions around the table, seen from `me`: bottom, right (next), top, left (previous). */
export function seatAt(me: number, seats: number, where: 'bottom' | 'right' | 'top' | 'left'): number | null {
  if (seats === 4) {
    const off = { bottom: 0, right: 1, top: 2, left: 3 }[where];
    return (me + off) % 4;
  }
  if (seats === 3) {
    const off = { bottom: 0, right: 1, top: null, left: 2 }[where];
    return off === null ? null : (me + off) % 3;
  }
  return where === 'bottom' ? me : null;
}

export const WISH_RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

/**
 * Who gave each card a seat received in the exchange: the server lists them from the previous
 * seat (its card "to the next"), the partner, and the next seat (its card "to the previous").
 */
export function receivedFrom(seat: number, received: readonly string[]): { card: string; from: number }[] {
  return received.slice(0, 3).map((card, i) => ({ card, from: (seat + 3 - i) % 4 }));
}

/** Whether an open choice (a wish, a reading) may still be made: its every variant still legal. */
export function choiceStillLegal(choice: readonly PlayAction[], legal: readonly string[]): boolean {
  return choice.length > 0 && choice.every((p) => legal.includes(p.text));
}

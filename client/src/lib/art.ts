// The drawings on the card faces (Card.svelte draws them as SVG; no image files): which figure a
// card shows, in which ink, and the figures themselves as paths in a 24 × 24 box.

import type { GameName } from './protocol';

/** A figure on a card face: the Tichu suits and specials, the French suits, the jokers' crown. */
export type Figure =
  | 'jade' | 'sword' | 'pagoda' | 'star'
  | 'mahjong' | 'dog' | 'phoenix' | 'dragon'
  | 'spade' | 'heart' | 'club' | 'diamond' | 'crown';

/** What a card's face draws: its figure and the ink it is drawn in. */
export interface Art {
  figure: Figure;
  ink: string;
  /** A special card or a joker: its emblem (or the Mah Jong's 1) in the corner, its figure large in the middle. */
  special: boolean;
}

/** The inks, dark enough on the card's paper for WCAG AA (art.test.ts checks every one). */
export const INK = {
  green: '#0f6b3a',
  black: '#1b1b1b',
  blue: '#1b4b8f',
  red: '#b0241b',
  brown: '#5a3d1c',
  orange: '#8f3a00',
} as const;
/** The paper of an ordinary card and of a special one. */
export const PAPER = '#fbf8f0';
export const SPECIAL_PAPER = '#fff4d6';

const TICHU: Record<string, Art> = {
  g: { figure: 'jade', ink: INK.green, special: false },
  k: { figure: 'sword', ink: INK.black, special: false },
  b: { figure: 'pagoda', ink: INK.blue, special: false },
  r: { figure: 'star', ink: INK.red, special: false },
  Mj: { figure: 'mahjong', ink: INK.black, special: true },
  Dg: { figure: 'dog', ink: INK.brown, special: true },
  Ph: { figure: 'phoenix', ink: INK.orange, special: true },
  Dr: { figure: 'dragon', ink: INK.red, special: true },
};

// Dou Di Zhu's suits never matter and its notation has none: the copies of a rank are drawn in
// the order of a French deck, so four 7s show four suits.
const FRENCH: readonly Art[] = [
  { figure: 'spade', ink: INK.black, special: false },
  { figure: 'heart', ink: INK.red, special: false },
  { figure: 'club', ink: INK.black, special: false },
  { figure: 'diamond', ink: INK.red, special: false },
];

/**
 * The art of a card; `copy` is which copy of its rank it is in its row (Dou Di Zhu only):
 * `cardArt('tichu', '7r')` draws a red star, `cardArt('doudizhu', '7', 1)` a red heart.
 */
export function cardArt(game: GameName, card: string, copy = 0): Art {
  if (game === 'doudizhu') {
    if (card === 'B') return { figure: 'crown', ink: INK.black, special: true };
    if (card === 'R') return { figure: 'crown', ink: INK.red, special: true };
    return FRENCH[((copy % 4) + 4) % 4];
  }
  return TICHU[card] ?? TICHU[card[1]] ?? { figure: 'star', ink: INK.black, special: false };
}

/**
 * Which copy of its rank each card of a row is (0 for the first 7, 1 for the second, …), so a
 * Dou Di Zhu row draws its equal cards in different suits: `copies(['3', '3', '5', '3'])` is
 * `[0, 1, 0, 2]`.
 */
export function copies(cards: readonly string[]): number[] {
  const seen = new Map<string, number>();
  return cards.map((c) => {
    const n = seen.get(c) ?? 0;
    seen.set(c, n + 1);
    return n;
  });
}

/** A circle as a path (so a figure is one path). */
function circle(cx: number, cy: number, r: number): string {
  return `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0z`;
}

/** The figures, filled with the ink, even-odd, in a 24 × 24 box. */
export const FIGURES: Record<Figure, string> = {
  // a bi, the jade disc with its square hole
  jade: `${circle(12, 12, 10.5)}M8.5 8.5h7v7h-7z`,
  // a sword point up: blade, guard, grip, pommel
  sword: 'M12 0l3.4 3.6V13.5H8.6V3.6zM4 13.5h16v3.2H4zM10.4 16.7h3.2v4h-3.2z' + circle(12, 21.5, 2.3),
  // a pagoda of three roofs on a base
  pagoda: 'M12 0.5l1 2.5h-2zM6 3h12l3 3.5H3zM8.5 6.5h7v3h-7zM4 9.5h16l3 3.5H1zM8 13h8v3.5H8zM2.5 16.5h19l2 3.5H.5zM7 20h10v3.5H7z',
  star: 'M12 .8l3.3 7.2 7.9.8-5.9 5.3 1.7 7.8L12 17.9l-7 4 1.7-7.8L.8 8.8l7.9-.8z',
  // the sparrow of the Mah Jong
  mahjong: 'M2 13.5c0-4.5 4-8 8.8-8 3.2 0 5.6 1.4 6.8 3.6l5.4 1.2-5 2.4c-.3 5-4.6 8.3-9.7 8.3-2 0-3.7-.5-5-1.5L0 21l1.6-4.3c-.4-1-.6-2-.6-3.2z' +
    circle(15.2, 9.6, 1.1),
  // a paw print
  dog: circle(5, 10, 2.6) + circle(9.5, 5, 2.6) + circle(14.5, 5, 2.6) + circle(19, 10, 2.6) +
    'M6 17.5c0-3.6 2.8-6.5 6-6.5s6 2.9 6 6.5c0 2.6-2.2 4-4 4-.8 0-1.3-.6-2-.6s-1.2.6-2 .6c-1.8 0-4-1.4-4-4z',
  // the fire bird: a flame with its tail feather
  phoenix: 'M12 .5c1.7 3.4 6.8 7.2 6.8 13.2A6.8 6.8 0 0 1 12 20.5a6.8 6.8 0 0 1-6.8-6.8c0-3 1.6-5.4 3.3-6.8-.1 2.5.7 4.2 2.1 5.2C10.3 8 11 3.6 12 .5zM9 21.2h6l-3 2.6z',
  // the dragon: a coiling body and its head with one eye
  dragon: 'M20.5 3.5c2 1 3 3 2.2 5l-2.8-.2c-1.4 2.4-4 2.6-6 1.6-1.6-.8-3.2-.5-3.8.8-.6 1.4.4 2.6 2 3.2 3.2 1.2 5 3.6 4 6.4-1 2.6-4.2 3.6-7.8 3-3-.5-5.4-2.2-7.3-4.8l2.3-1c1.5 1.9 3.2 3 5.2 3.2 2.3.3 4-.3 4.3-1.6.3-1.2-.7-2-2.4-2.7-3.4-1.3-5-4-3.8-6.8 1.2-2.8 4.4-3.6 7.2-2.3 1.4.6 2.6.4 3-.6l-1.6-1.6c1.6-1.8 3.6-2.4 5.3-1.6z' +
    circle(19.4, 4.9, 0.8),
  spade: 'M12 1C9 6.2 2.5 9 2.5 14.2a4.8 4.8 0 0 0 8.2 3.3L9.2 23h5.6l-1.5-5.5a4.8 4.8 0 0 0 8.2-3.3C21.5 9 15 6.2 12 1z',
  heart: 'M12 22C5.6 16.8 1.5 13 1.5 8.3A5.3 5.3 0 0 1 12 6.2a5.3 5.3 0 0 1 10.5 2.1C22.5 13 18.4 16.8 12 22z',
  club: `${circle(12, 6, 4.8)}${circle(6.3, 14, 4.8)}${circle(17.7, 14, 4.8)}M10.6 9h2.8l1.6 14H9z`,
  diamond: 'M12 .5l8.5 11.5L12 23.5 3.5 12z',
  // the jokers' jester crown
  crown: 'M1.5 7l5 5 5.5-9.5 5.5 9.5 5-5-2.3 12.5H3.8zM3.8 20.8h16.4v2.4H3.8z' + circle(1.5, 6, 1.6) + circle(12, 2, 1.6) + circle(22.5, 6, 1.6),
};

/** The corner's font size: a rank of two figures (10) is set smaller, and a special card's corner smaller still. */
export function cornerSize(label: string, special: boolean): number {
  const n = [...label].length;
  if (!special) return n > 1 ? 15 : 18;
  return 12; // one figure: the Mah Jong's 1, an emblem (龍, 鳳, 犬) or a joker's star
}

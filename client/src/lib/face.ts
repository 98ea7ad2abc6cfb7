// What a card shows in its corner: a rank, or a special card's or joker's emblem, and its CSS class.

import type { GameName } from './protocol';

const SUIT_CLASS: Record<string, string> = { g: 'jade', k: 'sword', b: 'pagoda', r: 'star' };
// The special cards are marked by their emblems (the Mah Jong by its rank, 1), the jokers by a
// star: symbols drawn like the suits, the same in every language, never a word or the notation's
// "Ph" or "Dr". The card's name in words is its label.
const SPECIAL: Record<string, Face> = {
  Mj: { rank: '1', emblem: false, cls: 'special mj' },
  Dg: { rank: '犬', emblem: true, cls: 'special dog' },
  Ph: { rank: '鳳', emblem: true, cls: 'special phoenix' },
  Dr: { rank: '龍', emblem: true, cls: 'special dragon' },
};

export interface Face {
  /** What the corner draws: a rank ("7", "10", the Mah Jong's "1") or an emblem ("龍"). */
  rank: string;
  /** The corner is an emblem, a symbol like a suit's figure, not a rank read as part of the name. */
  emblem: boolean;
  cls: string;
}

/** A card's face: `cardFace('tichu', 'Dr')` is the Dragon's emblem 龍, `cardFace('tichu', 'Tg')` a 10. */
export function cardFace(game: GameName, card: string): Face {
  if (game === 'doudizhu') {
    if (card === 'B') return { rank: '☆', emblem: true, cls: 'joker black' };
    if (card === 'R') return { rank: '★', emblem: true, cls: 'joker red' };
    return { rank: card === 'T' ? '10' : card, emblem: false, cls: 'ddz' };
  }
  if (SPECIAL[card]) return SPECIAL[card];
  return { rank: card[0] === 'T' ? '10' : card[0], emblem: false, cls: SUIT_CLASS[card[1]] ?? '' };
}

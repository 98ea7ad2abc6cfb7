// What a card shows: its rank label, its suit or special symbol, and its CSS class.

import type { Key } from './i18n';
import type { GameName } from './protocol';

const SUIT: Record<string, { sym: string; cls: string }> = {
  g: { sym: '◆', cls: 'jade' },
  k: { sym: '⚔', cls: 'sword' },
  b: { sym: '▲', cls: 'pagoda' },
  r: { sym: '★', cls: 'star' },
};
// the short labels of the special cards and jokers come from the language's catalogue
const SPECIAL: Record<string, { label: Key; sym: string; cls: string }> = {
  Mj: { label: 'card.mahjong', sym: '麻', cls: 'special mj' },
  Dg: { label: 'card.dog', sym: '犬', cls: 'special dog' },
  Ph: { label: 'card.phoenix', sym: '鳳', cls: 'special phoenix' },
  Dr: { label: 'card.dragon', sym: '龍', cls: 'special dragon' },
};

export interface Face {
  rank: string;
  sym: string;
  cls: string;
}

/** A card's face; a label that already is the symbol (Japanese 犬, 龍) is not shown twice. */
export function cardFace(game: GameName, card: string, label: (key: Key) => string): Face {
  let face: Face;
  if (game === 'doudizhu') {
    if (card === 'B') face = { rank: label('card.joker'), sym: '☆', cls: 'joker black' };
    else if (card === 'R') face = { rank: label('card.joker'), sym: '★', cls: 'joker red' };
    else face = { rank: card === 'T' ? '10' : card, sym: '', cls: 'ddz' };
  } else if (SPECIAL[card]) {
    const special = SPECIAL[card];
    face = { rank: label(special.label), sym: special.sym, cls: special.cls };
  } else {
    const s = SUIT[card[1]] ?? { sym: '?', cls: '' };
    face = { rank: card[0] === 'T' ? '10' : card[0], sym: s.sym, cls: s.cls };
  }
  return face.sym === face.rank ? { ...face, sym: '' } : face;
}

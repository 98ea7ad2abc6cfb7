// Dou Di Zhu conveniences its players expect: the card counter (记牌器) and auto-pass. Both use
// only what the player may know: the public plays (the server's `played`) and the own hand.

import { ddzCards } from './cards';

const RANKS = '3456789TJQKA2BR';

/**
 * How many cards of each rank are still unseen by this player: in the other hands (and, before
 * the landlord takes it, the kitty). `decks` packs: 4 cards a rank and one of each joker a pack.
 */
export function unseen(decks: number, played: string, hand: string): { rank: string; left: number }[] {
  const seen = new Map<string, number>();
  for (const c of [...ddzCards(played), ...ddzCards(hand)]) seen.set(c, (seen.get(c) ?? 0) + 1);
  return [...RANKS].map((rank) => ({ rank, left: (rank === 'B' || rank === 'R' ? 1 : 4) * decks - (seen.get(rank) ?? 0) }));
}

/** Pass at once for the player (a setting) when passing is all the rules allow. */
export function onlyPass(actions: readonly string[]): boolean {
  return actions.length === 1 && actions[0] === 'pass';
}

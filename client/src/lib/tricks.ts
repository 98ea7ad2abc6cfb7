// The trick just taken, read back from the table's log, so that a player can look at it again.

export interface TakenTrick {
  /** Who took it (the Dragon's trick: the opponent it was given to). */
  taker: number;
  plays: { seat: number; cards: string }[];
}

/**
 * The last trick taken in the current round, from the log's actions (oldest first), or null when
 * none has been taken since the round began (or the log no longer holds its start).
 */
export function lastTrick(log: readonly { seat: number; action: string }[]): TakenTrick | null {
  let plays: { seat: number; cards: string }[] = [];
  let last: TakenTrick | null = null;
  for (const { seat, action } of log) {
    const words = action.trim().split(/\s+/);
    if (words[0] === 'grand' || words[0] === 'no-grand') {
      // a new round's first decisions: nothing of the last round is shown
      plays = [];
      last = null;
    } else if (words[0] === 'play') {
      const end = words.findIndex((w) => w === 'as' || w === 'wish'); // (a Phoenix's rank, a wish)
      const cards = words.slice(1, end < 0 ? undefined : end);
      plays.push({ seat, cards: cards.join(' ') });
    } else if (words[0] === 'take' || words[0] === 'give-dragon') {
      if (plays.length > 0) last = { taker: words[0] === 'take' ? seat : Number(words[1]), plays };
      plays = [];
    }
  }
  return last;
}

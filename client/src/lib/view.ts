// The game view a client keeps: the server sends it whole (snapshot, a new round) and then only
// what changed (an event's `patch`: the top-level fields of the view with their new values).

import type { GamePatch, GameView } from './wire';

/** `view` with the fields `patch` carries set; null when the patch is for no view or for another
 *  game's (it does not change the view held: the caller resyncs). */
export function applyPatch(view: GameView | null, patch: GamePatch): GameView | null {
  if (!view || view.game !== patch.game) return null;
  return { ...view, ...patch } as GameView;
}

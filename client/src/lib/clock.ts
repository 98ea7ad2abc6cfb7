import { readable } from 'svelte/store';

/** Unix seconds, ticking once a second (for the turn timers). */
export const now = readable(Date.now() / 1000, (set) => {
  const id = setInterval(() => set(Date.now() / 1000), 1000);
  return () => clearInterval(id);
});

export function secondsLeft(timers: { turn: Record<string, number> } | null, seat: number, at: number): number | null {
  const end = timers?.turn[String(seat)];
  return end === undefined ? null : Math.max(0, Math.ceil(end - at));
}

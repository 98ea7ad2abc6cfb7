// Motion that explains the table: a play slides in from its player's seat to the trick, a taken
// trick slides to its winner's seat; none when the player asks for reduced motion. And the
// optional sounds (off by default): which event deserves one, and the notes it is made of.

import { parsePlay, isTichuBomb } from './cards';
import type { GameName } from './protocol';

export type Where = 'bottom' | 'right' | 'top' | 'left';

/** Where a seat sits on this screen, seen from `me` (seat 0 at the bottom for spectators). */
export function placeOf(seat: number, me: number, seats: number): Where {
  const off = (seat - me + seats) % seats;
  if (seats === 4) return (['bottom', 'right', 'top', 'left'] as const)[off];
  if (seats === 3) return (['bottom', 'right', 'left'] as const)[off];
  return 'bottom';
}

/** The offset (px) from the trick in the middle towards a seat's place, for a slide. */
export function towards(where: Where): { x: number; y: number } {
  switch (where) {
    case 'bottom': return { x: 0, y: 220 };
    case 'top': return { x: 0, y: -160 };
    case 'left': return { x: -300, y: 0 };
    case 'right': return { x: 300, y: 0 };
  }
}

/** Whether the system asks for reduced motion now (the table's own setting is the other way). */
export function systemReduced(): boolean {
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** How long a slide takes: none for reduced motion (the setting or the system's preference). */
export function slideMs(reduced: boolean, ms = 380): number {
  return reduced ? 0 : ms;
}

export type Sound = 'play' | 'bomb' | 'turn';

/** A note of a sound: its wave, pitch (Hz), start and length (s), loudness (0-1). */
export interface Note {
  wave: OscillatorType;
  hz: number;
  at: number;
  len: number;
  gain: number;
}

/** The sounds, made of notes the Web Audio API plays (no sound files). */
export const SOUNDS: Record<Sound, readonly Note[]> = {
  // a card laid down: a short soft tick
  play: [{ wave: 'triangle', hz: 520, at: 0, len: 0.07, gain: 0.25 }],
  // a bomb: a low boom under a falling growl
  bomb: [
    { wave: 'sawtooth', hz: 110, at: 0, len: 0.35, gain: 0.3 },
    { wave: 'square', hz: 55, at: 0.02, len: 0.4, gain: 0.2 },
  ],
  // your turn: a rising two-note chime
  turn: [
    { wave: 'sine', hz: 880, at: 0, len: 0.12, gain: 0.25 },
    { wave: 'sine', hz: 1320, at: 0.13, len: 0.18, gain: 0.25 },
  ],
};

/**
 * The sound the table's change deserves, if any: the new log entries (a bomb above a play), or
 * the seat's turn coming. Bombs are read from the notation: a Tichu four of a kind or straight
 * flush, a Dou Di Zhu four of a kind or the rocket.
 */
export function soundFor(
  game: GameName,
  added: readonly { action: string }[],
  turnNow: boolean,
  turnBefore: boolean,
): Sound | null {
  let sound: Sound | null = null;
  for (const { action } of added) {
    const p = parsePlay(game, action);
    if (!p) continue;
    if (isBomb(game, p.cards)) return 'bomb';
    sound = 'play';
  }
  if (turnNow && !turnBefore) return 'turn';
  return sound;
}

function isBomb(game: GameName, cards: readonly string[]): boolean {
  if (game === 'tichu') return isTichuBomb(cards);
  if (cards.length === 2 && cards.includes('B') && cards.includes('R')) return true;
  return cards.length >= 4 && cards.every((c) => c === cards[0]);
}

let context: AudioContext | null = null;

/** Play a sound through the Web Audio API (the first call opens the audio context). */
export function playSound(sound: Sound): void {
  if (typeof AudioContext === 'undefined') return;
  context ??= new AudioContext();
  const ctx = context;
  const t0 = ctx.currentTime;
  for (const n of SOUNDS[sound]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = n.wave;
    osc.frequency.setValueAtTime(n.hz, t0 + n.at);
    gain.gain.setValueAtTime(n.gain, t0 + n.at);
    gain.gain.exponentialRampToValueAtTime(0.001, t0 + n.at + n.len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t0 + n.at);
    osc.stop(t0 + n.at + n.len + 0.02);
  }
}

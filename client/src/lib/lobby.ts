// The lobby's words and choices: what each preset and bot is (in the player's language), the
// teams a table's seats make, and the seat a "join" or a new table's creator takes.

import { translate, type Key, type Lang } from './i18n';
import type { GameName, SeatInfo } from './protocol';

/** The presets the client explains (the server may offer more: those get `lobby.presetOther`). */
const PRESETS: Record<GameName, readonly string[]> = {
  tichu: ['standard', 'bsw'],
  doudizhu: ['classic', 'rlcard', 'openspiel', 'four_player', 'laizi'],
};

/** The bots the client names and explains, per game (others show the server's description). */
const BOTS: Record<GameName, readonly string[]> = {
  tichu: ['random', 'heuristic', 'learned', 'club', 'search'],
  doudizhu: ['random', 'heuristic', 'learned', 'search', 'rlcard-rule'],
};

/** A preset's name and its one-sentence explanation, or null for a preset the client does not know. */
export function presetKeys(game: GameName, preset: string): { name: Key; about: Key } | null {
  if (!PRESETS[game].includes(preset)) return null;
  const id = `${game}.${preset.replace('_', '-')}`;
  return { name: `preset.${id}` as Key, about: `preset.${id}.about` as Key };
}

/** A bot's name and its one-sentence explanation, or null for a bot the client does not know. */
export function botKeys(game: GameName, bot: string): { name: Key; about: Key } | null {
  if (!BOTS[game].includes(bot)) return null;
  return { name: `bot.${bot}` as Key, about: `bot.${bot}.about.${game}` as Key };
}

/** A bot level's name in the reader's language (the server's name for a bot the client does not know). */
export function botTitle(lang: Lang, game: GameName, bot: string): string {
  const keys = botKeys(game, bot);
  return keys ? translate(lang, keys.name) : bot;
}

/**
 * A seat's name at the table: the player's, else its bot's level in the reader's language with
 * the seat's number (from 1), as the lobby names it; never the engine's name of the bot.
 */
export function seatName(
  lang: Lang,
  game: GameName,
  seats: readonly { name: string | null; bot: string | null }[],
  i: number,
): string {
  const seat = seats[i];
  if (seat?.name) return seat.name;
  if (seat?.bot) return translate(lang, 'table.botSeat', { bot: botTitle(lang, game, seat.bot), n: i + 1 });
  return `#${i + 1}`;
}

/** Every seat's name (see {@link seatName}). */
export function seatNames(lang: Lang, game: GameName, seats: readonly { name: string | null; bot: string | null }[]): string[] {
  return seats.map((_, i) => seatName(lang, game, seats, i));
}

/** Every catalogue key the lobby's explanations use (for the translation test). */
export function lobbyKeys(): Key[] {
  const out: Key[] = [];
  for (const game of ['tichu', 'doudizhu'] as const) {
    for (const p of PRESETS[game]) out.push(...Object.values(presetKeys(game, p) ?? {}));
    for (const b of BOTS[game]) out.push(...Object.values(botKeys(game, b) ?? {}));
  }
  return out;
}

/**
 * The teams the seats make before play: Tichu's partners sit opposite (seats 0 and 2 against 1
 * and 3); in Dou Di Zhu the auction makes the sides, so the lobby has no teams (null).
 */
export function teams(game: GameName, seats: number): number[][] | null {
  if (game !== 'tichu' || seats !== 4) return null;
  return [
    [0, 2],
    [1, 3],
  ];
}

/** Whether nobody (player or bot) has the seat. */
export const free = (s: SeatInfo | undefined): boolean => !!s && !s.player && !s.bot;

/**
 * The seat to take on arriving at a table to play: the one asked for if it is free, else the
 * first free seat; null when every seat is taken (the player watches).
 */
export function seatToTake(seats: readonly SeatInfo[], wanted: number | 'any'): number | null {
  if (wanted !== 'any' && free(seats[wanted])) return wanted;
  const i = seats.findIndex(free);
  return i < 0 ? null : i;
}

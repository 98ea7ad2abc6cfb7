import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS } from './i18n';
import { botKeys, lobbyKeys, presetKeys, seatToTake, teams } from './lobby';
import type { SeatInfo } from './protocol';

const seat = (over: Partial<SeatInfo> = {}): SeatInfo => ({ player: null, name: null, bot: null, connected: false, standin: false, ...over });

describe('the seat a join takes', () => {
  const seats = [seat({ player: 'a', name: 'Ann' }), seat(), seat({ bot: 'heuristic' }), seat()];
  it('takes the seat asked for when it is free', () => expect(seatToTake(seats, 3)).toBe(3));
  it('takes the first free seat when the one asked for is taken', () => expect(seatToTake(seats, 2)).toBe(1));
  it('takes the first free seat for "any"', () => expect(seatToTake(seats, 'any')).toBe(1));
  it('takes seat 0 of a new table', () => expect(seatToTake([seat(), seat(), seat()], 'any')).toBe(0));
  it('takes nothing at a full table', () => expect(seatToTake([seat({ player: 'a' }), seat({ bot: 'random' })], 'any')).toBeNull());
  it('takes nothing past the last seat', () => expect(seatToTake([seat({ player: 'a' })], 5)).toBeNull());
});

describe('teams in the lobby', () => {
  it('pairs the Tichu seats opposite each other', () => expect(teams('tichu', 4)).toEqual([[0, 2], [1, 3]]));
  it('has no teams in Dou Di Zhu before the auction', () => {
    expect(teams('doudizhu', 3)).toBeNull();
    expect(teams('doudizhu', 4)).toBeNull();
  });
});

describe('presets and bots explained', () => {
  it('names the keys of the presets and bots', () => {
    expect(presetKeys('doudizhu', 'four_player')).toEqual({ name: 'preset.doudizhu.four-player', about: 'preset.doudizhu.four-player.about' });
    expect(botKeys('tichu', 'club')).toEqual({ name: 'bot.club', about: 'bot.club.about.tichu' });
    expect(presetKeys('tichu', 'house')).toBeNull();
    expect(botKeys('doudizhu', 'club')).toBeNull();
  });
  it('has every explanation in every language, and no two languages share a sentence', () => {
    for (const key of lobbyKeys()) {
      for (const l of LANGS) expect(CATALOGUES[l][key], `${l} ${key}`).toBeTruthy();
      if (key.endsWith('.about') || key.includes('.about.')) {
        expect(new Set(LANGS.map((l) => CATALOGUES[l][key])).size, key).toBe(LANGS.length);
      }
    }
  });
});

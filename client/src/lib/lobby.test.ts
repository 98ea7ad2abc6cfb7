import { describe, expect, it } from 'vitest';
import { CATALOGUES, LANGS } from './i18n';
import { botKeys, lobbyKeys, presetKeys, seatName, seatNames, seatToTake, teams } from './lobby';
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
  it('gives every preset and bot of a game its own name in every language (the Korean standard rules were 기본, as the Basic bot is)', () => {
    for (const l of LANGS) {
      for (const [game, presets, bots] of [
        ['tichu', ['standard', 'bsw'], ['random', 'heuristic', 'learned', 'club', 'search']],
        ['doudizhu', ['classic', 'rlcard', 'openspiel', 'four_player', 'laizi'], ['random', 'heuristic', 'learned', 'search', 'rlcard-rule']],
      ] as const) {
        const names = [...presets.map((p) => presetKeys(game, p)!.name), ...bots.map((b) => botKeys(game, b)!.name)].map((k) => CATALOGUES[l][k]);
        expect(new Set(names).size, `${l} ${game}: ${names.join(', ')}`).toBe(names.length);
      }
    }
    expect(CATALOGUES.ko['preset.tichu.standard']).toBe('표준');
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

describe('seat names at the table', () => {
  const seats = [{ name: 'Ann', bot: null }, { name: null, bot: 'heuristic' }, { name: null, bot: null }, { name: null, bot: 'club' }];
  it('are the player’s, else the bot level’s name with the seat counted from 1', () => {
    expect(seatNames('en', 'tichu', seats)).toEqual(['Ann', 'Basic bot #2', '#3', 'Club player bot #4']);
    expect(seatNames('ko', 'tichu', seats)).toEqual(['Ann', '기본 봇 #2', '#3', '동호회 고수 봇 #4']);
    expect(seatNames('ja', 'tichu', seats)).toEqual(['Ann', 'ベーシックボット #2', '#3', 'クラブの名手ボット #4']);
  });
  it('never show the engine’s name of a bot the client knows', () => {
    for (const l of LANGS) {
      for (const [game, bots] of [['tichu', ['random', 'heuristic', 'learned', 'club', 'search']], ['doudizhu', ['random', 'heuristic', 'learned', 'search', 'rlcard-rule']]] as const) {
        for (const bot of bots) expect(seatName(l, game, [{ name: null, bot }], 0), `${l} ${bot}`).not.toContain(bot);
      }
    }
  });
  it('name the learned Dou Di Zhu bot in words', () => {
    expect(seatName('en', 'doudizhu', [{ name: null, bot: 'learned' }], 0)).toBe('Self-taught bot #1');
    expect(seatName('ko', 'doudizhu', [{ name: null, bot: 'learned' }], 0)).toBe('독학형 봇 #1');
  });
  it('keep the server’s name of a bot the client does not know', () => {
    expect(seatName('en', 'tichu', [{ name: null, bot: 'alphabeta' }], 0)).toBe('alphabeta bot #1');
  });
});

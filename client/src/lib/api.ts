// The lobby's HTTP endpoints. Their bodies' and answers' types are generated from the server's
// models (wire.ts, written by `make client` from src/pagoda/server/api.py): none is copied here.

import type { CreateTable, TableInfo } from './protocol';
import type {
  ApiErrorCode,
  Created,
  Failure,
  Finished,
  GamesInfo,
  History,
  Leaderboard,
  LoggedOut,
  Login,
  Logout,
  MatchResult,
  Me,
  MyTables,
  Profile,
  Ranked,
  Register,
} from './wire';
import { errorText, translate, type Lang } from './i18n';
import { seatName } from './lobby';
import type { Replay } from './replay';

export type { Finished, MatchResult, Profile, Ranked, SeenMatch } from './wire';

/** A refusal from the server: its HTTP status, its error code and parameters (a `Failure`:
 * ``{"error": code, "message": reason, "params": {...}}``), to be said in the reader's language by
 * the code (empty when the answer was no `Failure`); the message keeps the status and the server's
 * English reason (for logs). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | '',
    readonly reason: string,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${status}: ${reason}`);
  }
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) {
    // the server's reason when it gives one ({"error": code, "message": reason})
    const text = await res.text();
    let reason = text;
    let code: ApiErrorCode | '' = '';
    let params: Record<string, string | number> = {};
    try {
      const body = JSON.parse(text) as Partial<Failure>;
      reason = body.message ?? text;
      code = body.error ?? '';
      params = body.params ?? {};
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, code, reason, params);
  }
  return (await res.json()) as T;
}

/** What went wrong with a request, in the reader's language: a refusal by its code (the
 * server's reason for a code this client does not know), anything else as the network failing. */
export function failureText(lang: Lang, failure: unknown): string {
  if (failure instanceof ApiError) return errorText(lang, { code: failure.code, message: failure.reason, params: failure.params });
  return translate(lang, 'error.network');
}

let mePromise: Promise<Me> | null = null;

/** Who the caller is: a guest or an account (cached until a login, logout or registration). */
export function me(): Promise<Me> {
  mePromise ??= fetch('/api/me', { credentials: 'same-origin' }).then((r) => json<Me>(r));
  return mePromise;
}

export async function games(): Promise<GamesInfo> {
  return json<GamesInfo>(await fetch('/api/games'));
}

export async function openTables(): Promise<TableInfo[]> {
  const data = await json<{ tables: TableInfo[] } | TableInfo[]>(await fetch('/api/tables'));
  return Array.isArray(data) ? data : data.tables;
}

export async function createTable(options: CreateTable): Promise<Created> {
  const res = await fetch('/api/tables', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(options),
  });
  const created = await json<Created>(res);
  localStorage.setItem(`pagoda.invite.${created.id}`, created.invite);
  return created;
}

/**
 * The in-app link to a table; with the invite secret for invite-only tables, and with `sit` for
 * a player who comes to play: that seat (0-based) if it is free, else the first free one (`any`).
 */
export function tableLink(id: string, invite?: string | null, sit?: number | 'any'): string {
  const q = new URLSearchParams();
  if (invite) q.set('invite', invite);
  if (sit !== undefined) q.set('sit', String(sit));
  const query = q.toString();
  return `#/t/${encodeURIComponent(id)}` + (query ? `?${query}` : '');
}

/** The seat a table link's `sit` asks for: a seat number, `any`, or null (none asked). */
export function sitParam(value: string | null): number | 'any' | null {
  if (value === 'any') return 'any';
  if (value !== null && /^\d{1,2}$/.test(value)) return Number(value);
  return null;
}

/** The names of a result's seats in the reader's language (the bot level where a bot sat). */
export function seatNames(r: MatchResult, lang: Lang): string[] {
  return r.seats.map((_, i) => seatName(lang, r.game, r.seats, i));
}

/** The names of the winning team's seats (empty for a tie). */
export function winners(r: MatchResult, lang: Lang): string[] {
  const names = seatNames(r, lang);
  return r.winner === null ? [] : names.filter((_, i) => r.seats[i].team === r.winner);
}

async function post<T, B>(path: string, body: B): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const out = await json<T>(res);
  mePromise = null; // who the caller is may have changed
  return out;
}

export const register = (name: string, password: string) => post<Me, Register>('/api/register', { name, password });
export const login = (name: string, password: string) => post<Me, Login>('/api/login', { name, password });
export const logout = () => post<LoggedOut, Logout>('/api/logout', {});

export async function leaderboard(game: string, limit = 50, offset = 0): Promise<Ranked[]> {
  const q = `/api/leaderboard/${encodeURIComponent(game)}?limit=${limit}&offset=${offset}`;
  return (await json<Leaderboard>(await fetch(q))).players;
}

export async function profile(name: string): Promise<Profile> {
  return json<Profile>(await fetch(`/api/players/${encodeURIComponent(name)}`));
}

export async function myTables(): Promise<MyTables> {
  return json<MyTables>(await fetch('/api/my/tables', { credentials: 'same-origin' }));
}

/** Finished tables, the latest first. */
export async function history(limit = 50, offset = 0): Promise<Finished[]> {
  const data = await json<History>(await fetch(`/api/history?limit=${limit}&offset=${offset}`));
  return data.tables;
}

/** A finished table's replay: its rounds as frames with every hand. */
export async function replay(id: string): Promise<Replay> {
  return json<Replay>(await fetch(`/api/tables/${encodeURIComponent(id)}/replay`));
}

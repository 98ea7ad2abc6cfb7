// The lobby's HTTP endpoints.

import type { CreateTable, Created, GamesInfo, Me, TableInfo, TableOptions } from './protocol';
import type { Replay } from './replay';

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) {
    // the server's reason when it gives one ({"error": code, "message": reason})
    const text = await res.text();
    let reason = text;
    try {
      reason = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      /* not JSON */
    }
    throw new Error(`${res.status}: ${reason}`);
  }
  return (await res.json()) as T;
}

let mePromise: Promise<Me> | null = null;

/** The guest identity (cached; the server also sets a cookie). */
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

/** The in-app link to a table; with the invite secret for invite-only tables. */
export function tableLink(id: string, invite?: string | null): string {
  return `#/t/${encodeURIComponent(id)}` + (invite ? `?invite=${encodeURIComponent(invite)}` : '');
}

/** A finished table as `GET /api/history` lists it. */
export interface Finished {
  id: string;
  options: TableOptions;
  created: number | string;
}

/** Finished tables, the latest first. */
export async function history(limit = 50, offset = 0): Promise<Finished[]> {
  const data = await json<{ tables: Finished[] }>(await fetch(`/api/history?limit=${limit}&offset=${offset}`));
  return data.tables;
}

/** A finished table's replay: its rounds as frames with every hand. */
export async function replay(id: string): Promise<Replay> {
  return json<Replay>(await fetch(`/api/tables/${encodeURIComponent(id)}/replay`));
}

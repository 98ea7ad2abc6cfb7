// The lobby's HTTP endpoints.

import type { CreateTable, Created, GamesInfo, Me, TableInfo } from './protocol';

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
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

import { describe, expect, it } from 'vitest';
import { TableConnection, emptyState, helloFor, reduce, type Storage } from './connection';
import type { ServerMessage, TableInfo, You } from './protocol';

const you: You = { player: 'p1', name: 'Ann', seat: 0, rejoin: 'R0' };
const table: TableInfo = {
  id: 'T1', status: 'playing', owner: 'p1', spectators: 0,
  options: { game: 'tichu', preset: 'standard', target: null, rounds: null, turn_timer: 0, open: true, bot: 'heuristic' },
  seats: [],
};

function memory(): Storage & { data: Record<string, string> } {
  const data: Record<string, string> = {};
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => { data[k] = v; } };
}

class FakeWS {
  static last: FakeWS;
  sent: string[] = [];
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) { FakeWS.last = this; }
  send(s: string) { this.sent.push(s); }
  close() { this.onclose?.(); }
}

describe('hello', () => {
  it('carries the guest, invite and the stored rejoin token', () => {
    const st = memory();
    st.setItem('pagoda.rejoin.T1', 'R9');
    expect(helloFor({ table: 'T1', invite: 'INV', guest: 'G', name: 'Ann' }, 5, st))
      .toEqual({ type: 'hello', protocol: 1, name: 'Ann', guest: 'G', invite: 'INV', rejoin: 'R9', since: 5 });
    expect(helloFor({ table: 'T2' }, null, st)).toEqual({ type: 'hello', protocol: 1 });
  });
});

describe('reduce', () => {
  it('takes the snapshot, ignores repeated events after it, shows live summaries', () => {
    let s = reduce(emptyState(), { type: 'welcome', protocol: 1, guest: 'G', you, seq: 3 });
    s = reduce(s, { type: 'event', seq: 1, event: { seq: 1, time: 0, kind: 'chat', player: 'p', name: 'Bo', seat: 1, spectator: false, text: 'hi' } });
    s = reduce(s, { type: 'event', seq: 2, event: { seq: 2, time: 0, kind: 'round_over', summary: { game: 'tichu', round: 1, points: [1, 2], scores: [1, 2], card_points: [0, 0], out: [], grand_calls: [], tichu_calls: [2] } } });
    expect(s.summary).toBeNull(); // history, not live
    s = reduce(s, { type: 'snapshot', seq: 2, table, you, game: null, legal: null, timers: { turn: {}, take: null } });
    expect(s.synced).toBe(true);
    expect(s.chat.map((c) => c.text)).toEqual(['hi']);
    s = reduce(s, { type: 'event', seq: 1, event: { seq: 1, time: 0, kind: 'chat', player: 'p', name: 'Bo', seat: 1, spectator: false, text: 'hi' } });
    expect(s.chat.length).toBe(1);
    s = reduce(s, { type: 'event', seq: 3, event: { seq: 3, time: 0, kind: 'action', seat: 1, action: 'pass', by: 'bot' } });
    expect(s.seq).toBe(3);
    expect(s.log.map((a) => a.action)).toEqual(['pass']);
  });
});

describe('TableConnection', () => {
  it('says hello, keeps the rejoin token, resyncs on a gap and by since after a reconnect', async () => {
    const st = memory();
    const c = new TableConnection({ table: 'T1', url: 'ws://x/ws/T1', storage: st, WebSocketImpl: FakeWS as never });
    c.connect();
    const ws = FakeWS.last;
    ws.onopen!();
    expect(JSON.parse(ws.sent[0])).toMatchObject({ type: 'hello', since: 0 });
    const msgs: ServerMessage[] = [
      { type: 'welcome', protocol: 1, guest: 'G', you, seq: 4 },
      { type: 'snapshot', seq: 4, table, you, game: null, legal: null, timers: { turn: {}, take: null } },
    ];
    for (const m of msgs) ws.onmessage!({ data: JSON.stringify(m) });
    expect(st.data['pagoda.rejoin.T1']).toBe('R0');
    ws.onmessage!({ data: JSON.stringify({ type: 'event', seq: 6, event: { seq: 6, time: 0, kind: 'started' } }) });
    expect(JSON.parse(ws.sent[1])).toMatchObject({ type: 'resync', since: 4 });
    ws.close();
    await new Promise((r) => setTimeout(r, 600));
    const ws2 = FakeWS.last;
    expect(ws2).not.toBe(ws);
    ws2.onopen!();
    expect(JSON.parse(ws2.sent[0])).toMatchObject({ type: 'hello', since: 4, rejoin: 'R0' });
    c.close();
  });
});

describe('seats event', () => {
  it('moves players and keeps each seat connected as the table said (the event does not say)', () => {
    const seated = (player: string | null, connected: boolean) =>
      ({ player, name: player, bot: null, connected, standin: false });
    let s = reduce(emptyState(), { type: 'welcome', protocol: 1, guest: 'G', you, seq: 0 });
    s = reduce(s, {
      type: 'snapshot', seq: 0, you, game: null, legal: null, timers: { turn: {}, take: null },
      table: { ...table, status: 'lobby', seats: [seated('p1', true), seated(null, false)] },
    });
    s = reduce(s, {
      type: 'event', seq: 1,
      event: { seq: 1, time: 0, kind: 'seats', seats: [{ player: 'p1', name: 'p1', bot: null }, { player: null, name: null, bot: 'heuristic' }] },
    });
    expect(s.table?.seats).toEqual([
      { player: 'p1', name: 'p1', bot: null, connected: true, standin: false },
      { player: null, name: null, bot: 'heuristic', connected: false, standin: false },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { TableConnection, emptyState, reduce, type TableState } from './connection';
import type { ServerMessage, TableInfo, You } from './protocol';
import { applyPatch } from './view';
import type { DoudizhuGame, TichuGame } from './wire';

const you: You = { player: 'p1', name: 'Ann', seat: 0, rejoin: 'R0' };
const table: TableInfo = {
  id: 'T1', status: 'playing', owner: 'p1', spectators: 0,
  options: { game: 'doudizhu', preset: 'standard', target: null, rounds: null, turn_timer: 0, open: true, bot: 'heuristic' },
  seats: [],
};
const ddz: DoudizhuGame = {
  game: 'doudizhu', round: 1, scores: [0, 0, 0], phase: 'auction', to_move: 0, awaiting: [0],
  hand_sizes: [17, 17, 17], top: null, landlord: null, kitty: null, bid: 0, wild: null, multiplier: 1,
  played: '', hand: '3334455667789TJQK',
};
const timers = { turn: {}, take: null };

function synced(game: DoudizhuGame | null = ddz): TableState {
  let s = reduce(emptyState(), { type: 'welcome', protocol: 1, guest: 'G', you, seq: 4 });
  s = reduce(s, { type: 'snapshot', seq: 4, table, you, game, legal: { actions: ['bid 1', 'pass'] }, timers });
  return s;
}

const bid = (seq: number) => ({ seq, time: 0, kind: 'action' as const, seat: 0, action: 'bid 1', by: 'player' as const });

describe('applyPatch', () => {
  it('sets the fields the patch carries and keeps the others (the same objects)', () => {
    const v = applyPatch(ddz, { game: 'doudizhu', bid: 1, to_move: 1, awaiting: [1] }) as DoudizhuGame;
    expect(v).toEqual({ ...ddz, bid: 1, to_move: 1, awaiting: [1] });
    expect(v.hand_sizes).toBe(ddz.hand_sizes);
    expect(ddz.bid).toBe(0); // the view held is not changed in place
  });

  it('sets a field to null (the table has no top any more)', () => {
    const played = { ...ddz, top: { seat: 1, cards: '33', kind: 'pair' } };
    expect(applyPatch(played, { game: 'doudizhu', top: null })?.top).toBeNull();
  });

  it('refuses a patch for no view or for another game', () => {
    expect(applyPatch(null, { game: 'doudizhu', bid: 1 })).toBeNull();
    expect(applyPatch(ddz, { game: 'tichu', wish: 5 })).toBeNull();
  });
});

describe('an event with the view change', () => {
  it('patches the view and takes the legal actions and the timers from the last event', () => {
    let s = synced();
    s = reduce(s, {
      type: 'event', seq: 5, event: bid(5), patch: { game: 'doudizhu', bid: 1, to_move: 1, awaiting: [1] },
      legal: { actions: [] }, timers: { turn: { 1: 99 }, take: null },
    });
    expect(s.game).toEqual({ ...ddz, bid: 1, to_move: 1, awaiting: [1] });
    expect(s.legal).toEqual({ actions: [] });
    expect(s.timers).toEqual({ turn: { 1: 99 }, take: null });
    expect(s.seq).toBe(5);
  });

  it('leaves what the event leaves out as it was (a chat event, a stand-in with timers alone)', () => {
    let s = synced();
    s = reduce(s, { type: 'event', seq: 5, event: { seq: 5, time: 0, kind: 'chat', player: 'p', name: 'Bo', seat: 1, spectator: false, text: 'hi' } });
    expect([s.game, s.legal, s.timers]).toEqual([ddz, { actions: ['bid 1', 'pass'] }, timers]);
    s = reduce(s, { type: 'event', seq: 6, event: { seq: 6, time: 0, kind: 'standin', seat: 0, on: false }, timers: { turn: { 0: 5 }, take: null } });
    expect([s.game, s.legal, s.timers]).toEqual([ddz, { actions: ['bid 1', 'pass'] }, { turn: { 0: 5 }, take: null }]);
  });

  it('takes a whole view (the match started, a new round) and then patches that one', () => {
    const tichu: TichuGame = {
      game: 'tichu', round: 1, scores: [0, 0], phase: 'grand_tichu', to_move: 0, awaiting: [0, 1, 2, 3],
      hand_sizes: [8, 8, 8, 8], top: null, grand_decided: [false, false, false, false],
      grand_calls: [false, false, false, false], tichu_calls: [false, false, false, false], trick: [],
      passed: [false, false, false, false], trick_complete: false, wish: 0, out: [], won_points: [0, 0, 0, 0],
      played: '', hand: ['2g', '3g', '4g', '5g', '6g', '7g', '8g', '9g'], given: null, received: null,
    };
    let s = synced(null);
    s = reduce(s, { type: 'event', seq: 5, event: { seq: 5, time: 0, kind: 'seats', seats: [] } });
    s = reduce(s, { type: 'event', seq: 6, event: { seq: 6, time: 0, kind: 'started' }, game: tichu, legal: { actions: ['grand', 'no-grand'] }, timers });
    expect(s.game).toEqual(tichu);
    s = reduce(s, {
      type: 'event', seq: 7, event: { seq: 7, time: 0, kind: 'action', seat: 0, action: 'no-grand', by: 'player' },
      patch: { game: 'tichu', awaiting: [1, 2, 3], grand_decided: [true, false, false, false] }, legal: { actions: [] },
    });
    expect(s.game).toEqual({ ...tichu, awaiting: [1, 2, 3], grand_decided: [true, false, false, false] });
    expect(s.legal).toEqual({ actions: [] });
    expect(s.timers).toEqual(timers);
  });

  it('is stale after a patch for another view, and the snapshot makes it whole again', () => {
    let s = synced();
    s = reduce(s, { type: 'event', seq: 5, event: bid(5), patch: { game: 'tichu', wish: 3 } });
    expect(s.stale).toBe(true);
    expect(s.game).toEqual(ddz);
    s = reduce(s, { type: 'event', seq: 6, event: bid(6), patch: { game: 'doudizhu', bid: 3 } });
    expect(s.game).toEqual(ddz); // (a patch of a view it may not hold waits for the snapshot)
    s = reduce(s, { type: 'snapshot', seq: 6, table, you, game: { ...ddz, bid: 3 }, legal: null, timers });
    expect([s.stale, s.game]).toEqual([false, { ...ddz, bid: 3 }]);
  });
});

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

describe('TableConnection with patches', () => {
  it('asks for a resync once on a gap, drops the patches until the snapshot, then applies them again', () => {
    const c = new TableConnection({ table: 'T1', url: 'ws://x/ws/T1', WebSocketImpl: FakeWS as never });
    let s = emptyState();
    c.subscribe((v) => { s = v; });
    c.connect();
    const ws = FakeWS.last;
    ws.onopen!();
    const deliver = (m: ServerMessage) => ws.onmessage!({ data: JSON.stringify(m) });
    deliver({ type: 'welcome', protocol: 1, guest: 'G', you, seq: 4 });
    deliver({ type: 'snapshot', seq: 4, table, you, game: ddz, legal: null, timers });
    deliver({ type: 'event', seq: 6, event: bid(6), patch: { game: 'doudizhu', bid: 2 } });
    deliver({ type: 'event', seq: 7, event: bid(7), patch: { game: 'doudizhu', bid: 3 } });
    expect(ws.sent.slice(1).map((m) => JSON.parse(m))).toEqual([{ type: 'resync', since: 4, ref: 'c1' }]);
    expect([s.stale, s.game]).toEqual([true, ddz]);
    deliver({ type: 'event', seq: 5, event: bid(5) });
    deliver({ type: 'event', seq: 6, event: bid(6) });
    deliver({ type: 'event', seq: 7, event: bid(7) });
    deliver({ type: 'snapshot', seq: 7, table, you, game: { ...ddz, bid: 3 }, legal: null, timers });
    deliver({ type: 'event', seq: 8, event: bid(8), patch: { game: 'doudizhu', to_move: 2 } });
    expect([s.stale, s.seq, s.game]).toEqual([false, 8, { ...ddz, bid: 3, to_move: 2 }]);
    expect(s.log.map((e) => e.seq)).toEqual([5, 6, 7, 8]);
    c.close();
  });

  it('resyncs from the event whose patch does not apply', () => {
    const c = new TableConnection({ table: 'T1', url: 'ws://x/ws/T1', WebSocketImpl: FakeWS as never });
    c.connect();
    const ws = FakeWS.last;
    ws.onopen!();
    const deliver = (m: ServerMessage) => ws.onmessage!({ data: JSON.stringify(m) });
    deliver({ type: 'welcome', protocol: 1, guest: 'G', you, seq: 4 });
    deliver({ type: 'snapshot', seq: 4, table, you, game: null, legal: null, timers });
    deliver({ type: 'event', seq: 5, event: bid(5), patch: { game: 'doudizhu', bid: 2 } });
    deliver({ type: 'event', seq: 6, event: bid(6), patch: { game: 'doudizhu', bid: 3 } });
    expect(ws.sent.slice(1).map((m) => JSON.parse(m))).toEqual([{ type: 'resync', since: 5, ref: 'c1' }]);
    c.close();
  });
});

// One table's WebSocket: hello (guest token, invite secret, rejoin token), the messages the
// server sends folded into one store, reconnects that resync by `since`.

import type { Refusal, WhyAnswer } from './refusals';
import { writable, type Readable } from 'svelte/store';
import {
  PROTOCOL, parseServer, type ClientMessage, type GameEvent, type GameView, type Hello, type Legal,
  type MatchSummary, type RoundSummary, type ServerMessage, type TableInfo, type Timers, type You,
} from './protocol';
import { applyPatch } from './view';
import type { EventMessage } from './wire';

export type Status = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ChatLine {
  seq: number;
  name: string;
  seat: number | null;
  text: string;
}

export interface TableState {
  status: Status;
  seq: number;
  you: You | null;
  table: TableInfo | null;
  game: GameView | null;
  legal: Legal | null;
  timers: Timers | null;
  chat: ChatLine[];
  /** The last actions, newest last (for the table log). */
  log: (GameEvent & { kind: 'action' })[];
  /** A round summary received live, until dismissed. */
  summary: RoundSummary | null;
  match: MatchSummary | null;
  error: Refusal | null;
  /** The server's answer to the last `why` (see refusals.ts). */
  why: WhyAnswer | null;
  /** Set once a snapshot has been received since the last hello. */
  synced: boolean;
  /** The view missed a change (a gap in seq, a patch for another view): a resync is under way,
   *  and what events say of the view waits for its snapshot. */
  stale: boolean;
}

export function emptyState(): TableState {
  return {
    status: 'connecting', seq: 0, you: null, table: null, game: null, legal: null, timers: null,
    chat: [], log: [], summary: null, match: null, error: null, why: null, synced: false,
    stale: false,
  };
}

const LOG_KEEP = 60;

/** Fold one server message into the state (pure; the connection adds the side effects). */
export function reduce(s: TableState, msg: ServerMessage): TableState {
  switch (msg.type) {
    case 'welcome':
      return { ...s, you: msg.you, error: null, synced: false };
    case 'snapshot':
      return {
        ...s, seq: msg.seq, table: msg.table, you: msg.you, game: msg.game, legal: msg.legal,
        timers: msg.timers, synced: true, stale: false,
      };
    case 'state':
      return { ...s, seq: Math.max(s.seq, msg.seq), game: msg.game, legal: msg.legal, timers: msg.timers };
    case 'table':
      return { ...s, table: msg.table, you: msg.you };
    case 'error':
      return { ...s, error: { code: msg.code, message: msg.message, reason: msg.reason, params: msg.params } };
    case 'why':
      return { ...s, why: { action: msg.action, legal: msg.legal, code: msg.code, message: msg.message, reason: msg.reason, params: msg.params } };
    case 'pong':
      return s;
    case 'event': {
      if (msg.seq <= s.seq && s.synced) return s; // already seen (a resync resends)
      const e = msg.event;
      const next: TableState = { ...s, seq: Math.max(s.seq, msg.seq) };
      switch (e.kind) {
        case 'chat':
          if (!s.chat.some((c) => c.seq === e.seq)) {
            next.chat = [...s.chat, { seq: e.seq, name: e.name, seat: e.seat, text: e.text }].slice(-200);
          }
          break;
        case 'action':
          if (!s.log.some((a) => a.seq === e.seq)) next.log = [...s.log, e].slice(-LOG_KEEP);
          break;
        case 'round_over':
          if (s.synced) next.summary = e.summary;
          break;
        case 'match_over':
          next.match = e.summary;
          break;
        case 'seats':
          // (a seats event says who sits where; whether each is connected comes with the table)
          if (s.table) {
            const was = s.table.seats;
            next.table = {
              ...s.table,
              seats: e.seats.map((seat, i) => ({
                ...seat,
                connected: was[i]?.connected ?? false,
                standin: was[i]?.standin ?? false,
              })),
            };
          }
          break;
        case 'started':
          next.match = null;
          break;
        case 'standin':
          break;
      }
      return withChange(s, next, msg);
    }
  }
}

/** `next` with what the event says of the view (its patch, or the whole view), the legal actions
 *  and the timers; each one it leaves out is unchanged. */
function withChange(s: TableState, next: TableState, msg: EventMessage): TableState {
  if (msg.game === undefined && !msg.patch && msg.legal === undefined && !msg.timers) return next;
  if (!s.synced || s.stale) return next; // (the snapshot that follows brings all of it)
  let game = msg.game !== undefined ? msg.game : s.game;
  if (msg.patch) {
    const patched = applyPatch(game, msg.patch);
    if (!patched) return { ...next, stale: true };
    game = patched;
  }
  return {
    ...next, game, legal: msg.legal !== undefined ? msg.legal : s.legal, timers: msg.timers ?? s.timers,
  };
}

export interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ConnectOptions {
  table: string;
  invite?: string | null;
  name?: string | null;
  guest?: string | null;
  /** Where rejoin tokens are kept (localStorage in the browser). */
  storage?: Storage;
  /** The WebSocket URL; by default `/ws/<table>` on this page's host. */
  url?: string;
  WebSocketImpl?: typeof WebSocket;
}

export function helloFor(o: ConnectOptions, since: number | null, storage?: Storage): Hello {
  const hello: Hello = { type: 'hello', protocol: PROTOCOL };
  if (o.name) hello.name = o.name.slice(0, 32);
  if (o.guest) hello.guest = o.guest;
  if (o.invite) hello.invite = o.invite;
  const rejoin = storage?.getItem(`pagoda.rejoin.${o.table}`);
  if (rejoin) hello.rejoin = rejoin;
  if (since !== null) hello.since = since;
  return hello;
}

export class TableConnection implements Readable<TableState> {
  private store = writable<TableState>(emptyState());
  private state = emptyState();
  private ws: WebSocket | null = null;
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private refs = 0;
  readonly subscribe = this.store.subscribe;

  constructor(private readonly o: ConnectOptions) {}

  private url(): string {
    if (this.o.url) return this.o.url;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.o.table)}`;
  }

  private set(next: TableState): void {
    this.state = next;
    this.store.set(next);
  }

  connect(): void {
    this.closed = false;
    const WS = this.o.WebSocketImpl ?? WebSocket;
    const ws = new WS(this.url());
    this.ws = ws;
    // First connection: since 0 brings the chat and the action log; later ones only what was missed.
    const since = this.state.seq;
    ws.onopen = () => {
      this.retry = 0;
      ws.send(JSON.stringify(helloFor(this.o, since, this.o.storage)));
    };
    ws.onmessage = (ev: MessageEvent) => {
      const msg = typeof ev.data === 'string' ? parseServer(ev.data) : null;
      if (msg) this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) {
        this.set({ ...this.state, status: 'closed' });
        return;
      }
      this.set({ ...this.state, status: 'reconnecting', synced: false });
      const delay = Math.min(10_000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  receive(msg: ServerMessage): void {
    if (msg.type === 'event' && this.state.synced && msg.seq > this.state.seq + 1) {
      // a gap: ask for what is missing (once), then take the snapshot that follows
      if (!this.state.stale) {
        this.send({ type: 'resync', since: this.state.seq });
        this.set({ ...this.state, stale: true });
      }
      return;
    }
    if ((msg.type === 'welcome' || msg.type === 'snapshot' || msg.type === 'table') && msg.you.rejoin) {
      this.o.storage?.setItem(`pagoda.rejoin.${this.o.table}`, msg.you.rejoin);
    }
    if (msg.type === 'welcome' && msg.guest) this.o.storage?.setItem('pagoda.guest', msg.guest);
    let next = reduce(this.state, msg);
    if (next.stale && !this.state.stale) this.send({ type: 'resync', since: next.seq });
    if (msg.type === 'snapshot' || msg.type === 'welcome') next = { ...next, status: 'open' };
    if (msg.type === 'error' && ['no_table', 'table_full', 'invite_required'].includes(msg.code) && !this.state.synced) {
      this.closed = true; // a refused hello: the server closes; do not retry
    }
    this.set(next);
  }

  send(msg: ClientMessage): string {
    const ref = `c${++this.refs}`;
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ ...msg, ref }));
    return ref;
  }

  act(action: string): string {
    return this.send({ type: 'act', action });
  }

  /** Let a bot play this seat (托管) or take it back. */
  autoplay(on: boolean): string {
    return this.send({ type: 'autoplay', on });
  }

  /** Ask whether ``action`` is legal now (the answer lands in ``state.why``); nothing changes. */
  why(action: string): string {
    return this.send({ type: 'why', action });
  }

  clearError(): void {
    this.set({ ...this.state, error: null });
  }

  dismissSummary(): void {
    this.set({ ...this.state, summary: null });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close();
  }
}

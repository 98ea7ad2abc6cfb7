// The table protocol (version 1), as docs/protocol.md and GET /api/protocol describe it.

export const PROTOCOL = 1;

export type GameName = 'tichu' | 'doudizhu';
export type Ref = string | number;

// ---- client → server -------------------------------------------------------------------

export interface Hello {
  type: 'hello';
  protocol: typeof PROTOCOL;
  name?: string;
  guest?: string;
  rejoin?: string;
  invite?: string;
  since?: number;
  ref?: Ref;
}
export type ClientMessage =
  | Hello
  | { type: 'sit'; seat: number; ref?: Ref }
  | { type: 'stand'; ref?: Ref }
  | { type: 'swap'; a: number; b: number; ref?: Ref }
  | { type: 'bot'; seat: number; level?: string; ref?: Ref }
  | { type: 'unbot'; seat: number; ref?: Ref }
  | { type: 'start'; fill?: string; ref?: Ref }
  | { type: 'act'; action: string; ref?: Ref }
  | { type: 'why'; action: string; ref?: Ref }
  | { type: 'autoplay'; on: boolean; ref?: Ref }
  | { type: 'chat'; text: string; ref?: Ref }
  | { type: 'resync'; since: number; ref?: Ref }
  | { type: 'ping'; ref?: Ref };

// ---- shared shapes ----------------------------------------------------------------------

export interface TableOptions {
  game: GameName;
  preset: string | null;
  target: number | null;
  rounds: number | null;
  turn_timer: number | null;
  open: boolean;
  bot: string | null;
}

export interface SeatInfo {
  player: string | null;
  name: string | null;
  bot: string | null;
  connected: boolean;
  standin: boolean;
}

export interface TableInfo {
  id: string;
  status: 'lobby' | 'playing' | 'finished';
  owner: string;
  options: TableOptions;
  seats: SeatInfo[];
  spectators: number;
}

export interface You {
  player: string;
  name: string;
  seat: number | null;
  rejoin: string | null;
}

export interface Top {
  seat: number;
  cards: string;
  kind: string;
}

interface GameCommon {
  round: number;
  scores: number[];
  phase: string;
  to_move: number;
  awaiting: number[];
  hand_sizes: number[];
  top: Top | null;
}

export interface TichuGame extends GameCommon {
  game: 'tichu';
  phase: 'grand_tichu' | 'exchange' | 'play' | 'over';
  grand_decided: boolean[];
  grand_calls: boolean[];
  tichu_calls: boolean[];
  trick: Top[];
  passed: boolean[];
  trick_complete: boolean;
  wish: number;
  out: number[];
  won_points: number[];
  played: string;
  hand?: string[];
  given?: string[] | null;
  received?: string[] | null;
}

export interface DoudizhuGame extends GameCommon {
  game: 'doudizhu';
  phase: 'auction' | 'play' | 'over';
  landlord: number | null;
  kitty: string | null;
  bid: number;
  wild: string | number | null;
  multiplier: number;
  /** Every card played this round (public), for the card counter. */
  played: string;
  hand?: string;
}

export type GameView = TichuGame | DoudizhuGame;

export interface Legal {
  actions: string[];
  exchange?: boolean;
}

export interface Timers {
  turn: Record<string, number>;
  take: number | null;
}

export interface TichuRoundSummary {
  round: number;
  points: number[];
  scores: number[];
  /** Card points per team. */
  card_points: number[];
  /** Seats in the order they went out. */
  out: number[];
  /** The seats that called (here a list of seats, unlike the booleans of the game view). */
  grand_calls: number[];
  tichu_calls: number[];
}
export interface DoudizhuRoundSummary {
  round: number;
  points: number[];
  scores: number[];
  landlord: number | null;
  winner: number | null;
  spring: boolean;
  multiplier: number;
}
export type RoundSummary = TichuRoundSummary | DoudizhuRoundSummary;
export interface MatchSummary {
  scores: number[];
  winner: number | null;
  rounds: number;
}

interface EventBase {
  seq: number;
  time: number;
}
export type GameEvent =
  | (EventBase & { kind: 'seats'; seats: SeatInfo[] })
  | (EventBase & { kind: 'started' })
  | (EventBase & { kind: 'action'; seat: number; action: string; by: 'player' | 'bot' | 'timer' | 'server' })
  | (EventBase & { kind: 'round_over'; summary: RoundSummary })
  | (EventBase & { kind: 'match_over'; summary: MatchSummary })
  | (EventBase & { kind: 'chat'; player: string; name: string; seat: number | null; text: string })
  | (EventBase & { kind: 'standin'; seat: number; on: boolean });

// ---- server → client --------------------------------------------------------------------

export type ServerMessage =
  | { type: 'welcome'; protocol: number; guest: string; you: You; seq: number }
  | { type: 'snapshot'; seq: number; table: TableInfo; you: You; game: GameView | null; legal: Legal | null; timers: Timers }
  | { type: 'event'; seq: number; event: GameEvent }
  | { type: 'state'; seq: number; game: GameView | null; legal: Legal | null; timers: Timers }
  | { type: 'table'; table: TableInfo; you: You }
  | { type: 'error'; code: string; message: string; reason?: string; params?: Record<string, string | number>; ref?: Ref }
  | { type: 'why'; action: string; legal: boolean; code?: string; message?: string; reason?: string; params?: Record<string, string | number>; ref?: Ref }
  | { type: 'pong' };

export const ERROR_CODES = [
  'bad_frame', 'too_large', 'bad_json', 'bad_message', 'unknown_type', 'hello_first',
  'already_joined', 'rate_limited', 'no_table', 'table_full', 'invite_required', 'bad_rejoin',
  'not_in_lobby', 'not_owner', 'bad_seat', 'seat_taken', 'not_seated', 'no_bot', 'bad_bot',
  'seats_empty', 'not_playing', 'illegal', 'internal',
] as const;

// ---- HTTP -------------------------------------------------------------------------------

export interface Me {
  player: string;
  guest: string;
}
export interface BotInfo {
  name: string;
  level: string | number;
  description: string;
}
export type GamesInfo = Record<GameName, { presets: string[]; bots: BotInfo[] }>;
export interface CreateTable {
  game: GameName;
  preset?: string;
  target?: number;
  rounds?: number;
  turn_timer?: number;
  open?: boolean;
  bot?: string;
}
export interface Created {
  id: string;
  invite: string;
  ws: string;
  guest: string;
  table: TableInfo;
}

/** Parse one text frame; null when it is not a JSON object with a string type. */
export function parseServer(text: string): ServerMessage | null {
  try {
    const msg: unknown = JSON.parse(text);
    if (msg && typeof msg === 'object' && typeof (msg as { type?: unknown }).type === 'string') {
      return msg as ServerMessage;
    }
  } catch {
    // fall through
  }
  return null;
}

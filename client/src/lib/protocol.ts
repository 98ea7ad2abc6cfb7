// The table protocol (version 1), as docs/protocol.md and GET /api/protocol describe it.

// The WebSocket messages' types are generated from the server's models (wire.ts, written by
// `make client`): nothing here copies them by hand.
import type { ServerMessage, TableInfo, TableOptions } from './wire';

export { PROTOCOL } from './wire';
export type {
  ClientMessage,
  DoudizhuGame,
  DoudizhuRoundSummary,
  GameEvent,
  GameView,
  Hello,
  Legal,
  MatchSummary,
  RoundSummary,
  SeatInfo,
  ServerMessage,
  TableInfo,
  TableOptions,
  TichuGame,
  TichuRoundSummary,
  Timers,
  Top,
  You,
} from './wire';

export type GameName = TableOptions['game'];
export type Ref = string | number;

export const ERROR_CODES = [
  'bad_frame', 'too_large', 'bad_json', 'bad_message', 'unknown_type', 'hello_first',
  'already_joined', 'rate_limited', 'no_table', 'table_full', 'invite_required', 'bad_rejoin',
  'not_in_lobby', 'not_owner', 'bad_seat', 'seat_taken', 'not_seated', 'no_bot', 'bad_bot',
  'seats_empty', 'not_playing', 'illegal', 'internal',
] as const;

// ---- HTTP -------------------------------------------------------------------------------

export interface Me {
  player: string;
  /** The guest token; null for an account (its session is a cookie). */
  guest: string | null;
  account: { name: string; created: number } | null;
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
  rated?: boolean;
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

// The table protocol (version 1), as docs/protocol.md and GET /api/protocol describe it.

// The WebSocket messages' types, the HTTP answers' and the error codes are generated from the
// server's models (wire.ts, written by `make client`): nothing here copies them by hand.
import type { ServerMessage } from './wire';

export { API_ERROR_CODES, ERROR_CODES, GAME_NAMES, PROTOCOL } from './wire';
export type {
  ApiErrorCode,
  BotInfo,
  ClientMessage,
  Created,
  CreateTable,
  DoudizhuGame,
  DoudizhuRoundSummary,
  ErrorCode,
  Failure,
  GameEvent,
  GameInfo,
  GameName,
  GamesInfo,
  GameView,
  Hello,
  Legal,
  MatchSummary,
  Me,
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

export type Ref = string | number;

// ---- HTTP -------------------------------------------------------------------------------

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

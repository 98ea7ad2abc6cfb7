// Why a move is refused, said in the player's language: the rules core names the rule it breaks
// (`reason`, a stable code) and what its message names (`params`: seats from 0, ranks, cards and
// plays in notation); this turns them into a sentence with the players' names and card faces.
// The English message of the core stays for logs; it is shown only for a reason this client
// does not know (translated as "not allowed now", never in notation).

import { parsePlay } from './cards';
import { describeCombo, tichuFace } from './describe';
import { errorText, type Lang } from './i18n';
import type { GameName } from './protocol';

export type RefusalParams = Record<string, string | number>;

export interface Refusal {
  code: string;
  message: string;
  reason?: string;
  params?: RefusalParams;
}

/** What a sentence is made of: the parameters, read for the table it is said at. */
interface Said {
  /** A seat parameter as the player's name. */
  seat(key: string): string;
  /** A play parameter (cards in notation) as the combination's name with its faces. */
  combo(key: string): string;
  /** A cards parameter as the cards' faces. */
  cards(key: string): string;
  /** A rank parameter (2–14) as its face. */
  rank(key: string): string;
}

type Sentences = Record<string, (s: Said) => string>;

const en: Sentences = {
  does_not_beat: (s) => `${s.combo('play')} does not beat ${s.combo('top')}.`,
  wish_obliges: (s) => `The wish for ${s.rank('rank')} is on: you must play ${/^(8|A)$/.test(s.rank('rank')) ? 'an' : 'a'} ${s.rank('rank')} (for example ${s.cards('example')}).`,
  not_a_combination: (s) => `${s.cards('cards')} is not a combination.`,
  not_held: (s) => `You do not hold ${s.cards('cards')}.`,
  not_your_turn: (s) => `It is ${s.seat('seat')}’s turn.`,
  out_of_turn: (s) => `It is ${s.seat('seat')}’s turn: out of turn only a bomb may be played.`,
  leader_cannot_pass: () => 'You lead this trick: you cannot pass.',
  trick_complete: () => 'Everyone has passed: take the trick (only a bomb may still be played).',
  trick_not_complete: () => 'Not everyone has passed yet.',
  on_the_dog: () => 'Nothing may be played on the Dog.',
  bomb_on_empty: () => 'A bomb out of turn is played only on a live trick.',
  bomb_window_open: () => 'Wait: another player may still bomb this trick.',
  wish_without_mah_jong: () => 'A wish is made only with the Mah Jong.',
  wish_required: () => 'These rules require a wish with the Mah Jong.',
  phoenix_name: (s) => `Say which rank the Phoenix stands for in ${s.cards('cards')}.`,
  phoenix_cannot: (s) => `The Phoenix in ${s.cards('cards')} cannot stand for that rank.`,
  phoenix_highest: () => 'These rules read the Phoenix as the highest rank it can stand for.',
  dragon_to_opponent: (s) => `The Dragon trick goes to an opponent: ${s.seat('left')} or ${s.seat('right')}.`,
  dragon_is_given: () => 'A trick won with the Dragon is given to an opponent.',
  dragon_gift_pending: (s) => `The round is over but for the Dragon trick: ${s.seat('seat')} gives it away.`,
  tichu_before_deal: () => 'Tichu is called once all 14 cards are dealt.',
  tichu_after_exchange: () => 'These rules allow Tichu only after the exchange.',
  tichu_after_grand: () => 'You called Grand Tichu: you cannot also call Tichu.',
  tichu_called: () => 'You have already called Tichu.',
  tichu_after_play: () => 'Tichu is called before your first card is played.',
  one_call_per_team: () => 'Your partner has called: these rules allow one call per team.',
  grand_decided: () => 'You have already decided on Grand Tichu.',
  exchange_given: () => 'You have already given your cards.',
  exchange_different: () => 'Give three different cards.',
  round_over: () => 'The round is over.',
  match_over: () => 'The match is over.',
  bid_range: (s) => `Bid more than ${s.rank('above')}, at most ${s.rank('most')}.`,
  bombs_spent: () => 'You have played every bomb your bid allows.',
};

const de: Sentences = {
  does_not_beat: (s) => `${s.combo('play')} sticht ${s.combo('top')} nicht.`,
  wish_obliges: (s) => `Der Wunsch ${s.rank('rank')} gilt: du musst eine ${s.rank('rank')} spielen (z. B. ${s.cards('example')}).`,
  not_a_combination: (s) => `${s.cards('cards')} ist keine Kombination.`,
  not_held: (s) => `Du hast ${s.cards('cards')} nicht auf der Hand.`,
  not_your_turn: (s) => `${s.seat('seat')} ist am Zug.`,
  out_of_turn: (s) => `${s.seat('seat')} ist am Zug: außer der Reihe darf nur eine Bombe gespielt werden.`,
  leader_cannot_pass: () => 'Du spielst an: passen geht nicht.',
  trick_complete: () => 'Alle haben gepasst: nimm den Stich (nur eine Bombe darf noch fallen).',
  trick_not_complete: () => 'Noch haben nicht alle gepasst.',
  on_the_dog: () => 'Auf den Hund darf nichts gespielt werden.',
  bomb_on_empty: () => 'Eine Bombe außer der Reihe fällt nur auf einen offenen Stich.',
  bomb_window_open: () => 'Warte: jemand darf diesen Stich noch bomben.',
  wish_without_mah_jong: () => 'Gewünscht wird nur mit dem Mah Jong.',
  wish_required: () => 'Diese Regeln verlangen einen Wunsch zum Mah Jong.',
  phoenix_name: (s) => `Sag, für welchen Rang der Phönix in ${s.cards('cards')} steht.`,
  phoenix_cannot: (s) => `Der Phönix in ${s.cards('cards')} kann nicht für diesen Rang stehen.`,
  phoenix_highest: () => 'Diese Regeln lesen den Phönix als den höchsten möglichen Rang.',
  dragon_to_opponent: (s) => `Der Drachenstich geht an einen Gegner: ${s.seat('left')} oder ${s.seat('right')}.`,
  dragon_is_given: () => 'Ein Stich mit dem Drachen wird einem Gegner gegeben.',
  dragon_gift_pending: (s) => `Die Runde ist vorbei bis auf den Drachenstich: ${s.seat('seat')} verschenkt ihn.`,
  tichu_before_deal: () => 'Tichu wird angesagt, wenn alle 14 Karten verteilt sind.',
  tichu_after_exchange: () => 'Diese Regeln erlauben Tichu erst nach dem Schupfen.',
  tichu_after_grand: () => 'Du hast Großes Tichu angesagt: kein Tichu dazu.',
  tichu_called: () => 'Du hast schon Tichu angesagt.',
  tichu_after_play: () => 'Tichu wird vor deiner ersten Karte angesagt.',
  one_call_per_team: () => 'Dein Partner hat angesagt: diese Regeln erlauben eine Ansage je Team.',
  grand_decided: () => 'Du hast dich schon zum Großen Tichu entschieden.',
  exchange_given: () => 'Du hast deine Karten schon geschupft.',
  exchange_different: () => 'Schupfe drei verschiedene Karten.',
  round_over: () => 'Die Runde ist vorbei.',
  match_over: () => 'Die Partie ist vorbei.',
  bid_range: (s) => `Biete mehr als ${s.rank('above')}, höchstens ${s.rank('most')}.`,
  bombs_spent: () => 'Du hast alle Bomben gespielt, die dein Gebot erlaubt.',
};

const ko: Sentences = {
  does_not_beat: (s) => `${s.combo('play')}(으)로는 ${s.combo('top')}을(를) 이길 수 없습니다.`,
  wish_obliges: (s) => `${s.rank('rank')} 콜이 있습니다: ${s.rank('rank')}을(를) 내야 합니다 (예: ${s.cards('example')}).`,
  not_a_combination: (s) => `${s.cards('cards')}은(는) 조합이 아닙니다.`,
  not_held: (s) => `${s.cards('cards')}을(를) 가지고 있지 않습니다.`,
  not_your_turn: (s) => `${s.seat('seat')} 님의 차례입니다.`,
  out_of_turn: (s) => `${s.seat('seat')} 님의 차례입니다: 차례가 아닐 때는 폭탄만 낼 수 있습니다.`,
  leader_cannot_pass: () => '선이므로 패스할 수 없습니다.',
  trick_complete: () => '모두 패스했습니다: 트릭을 가져가세요 (폭탄만 아직 낼 수 있습니다).',
  trick_not_complete: () => '아직 모두 패스하지 않았습니다.',
  on_the_dog: () => '개 위에는 아무것도 낼 수 없습니다.',
  bomb_on_empty: () => '차례가 아닐 때의 폭탄은 진행 중인 트릭에만 낼 수 있습니다.',
  bomb_window_open: () => '잠시만요: 다른 플레이어가 아직 폭탄을 낼 수 있습니다.',
  wish_without_mah_jong: () => '콜은 1 카드를 낼 때만 합니다.',
  wish_required: () => '이 규칙에서는 1 카드를 낼 때 콜을 해야 합니다.',
  phoenix_name: (s) => `${s.cards('cards')}에서 봉황이 어떤 숫자인지 정하세요.`,
  phoenix_cannot: (s) => `${s.cards('cards')}의 봉황은 그 숫자가 될 수 없습니다.`,
  phoenix_highest: () => '이 규칙에서는 봉황을 가능한 가장 높은 숫자로 읽습니다.',
  dragon_to_opponent: (s) => `용 트릭은 상대에게 줍니다: ${s.seat('left')} 또는 ${s.seat('right')}.`,
  dragon_is_given: () => '용으로 이긴 트릭은 상대에게 줍니다.',
  dragon_gift_pending: (s) => `용 트릭만 남았습니다: ${s.seat('seat')} 님이 줄 사람을 정합니다.`,
  tichu_before_deal: () => '티츄는 14장을 모두 받은 뒤에 부릅니다.',
  tichu_after_exchange: () => '이 규칙에서는 교환 뒤에만 티츄를 부를 수 있습니다.',
  tichu_after_grand: () => '라지 티츄를 불렀으므로 티츄를 더 부를 수 없습니다.',
  tichu_called: () => '이미 티츄를 불렀습니다.',
  tichu_after_play: () => '티츄는 첫 카드를 내기 전에 부릅니다.',
  one_call_per_team: () => '파트너가 이미 불렀습니다: 이 규칙에서는 팀당 한 번만 부릅니다.',
  grand_decided: () => '이미 라지 티츄를 정했습니다.',
  exchange_given: () => '이미 카드를 건넸습니다.',
  exchange_different: () => '서로 다른 카드 세 장을 건네세요.',
  round_over: () => '라운드가 끝났습니다.',
  match_over: () => '게임이 끝났습니다.',
  bid_range: (s) => `${s.rank('above')}보다 높게, 최대 ${s.rank('most')}까지 부르세요.`,
  bombs_spent: () => '입찰이 허용하는 폭탄을 모두 냈습니다.',
};

const ja: Sentences = {
  does_not_beat: (s) => `${s.combo('play')}では${s.combo('top')}に勝てません。`,
  wish_obliges: (s) => `${s.rank('rank')}の指定があります：${s.rank('rank')}を出さなければなりません（例：${s.cards('example')}）。`,
  not_a_combination: (s) => `${s.cards('cards')}は役になりません。`,
  not_held: (s) => `${s.cards('cards')}を持っていません。`,
  not_your_turn: (s) => `${s.seat('seat')}さんの番です。`,
  out_of_turn: (s) => `${s.seat('seat')}さんの番です：番以外に出せるのはボムだけです。`,
  leader_cannot_pass: () => 'リードなのでパスできません。',
  trick_complete: () => '全員パスしました：トリックを取ってください（まだボムだけは出せます）。',
  trick_not_complete: () => 'まだ全員がパスしていません。',
  on_the_dog: () => '犬の上には何も出せません。',
  bomb_on_empty: () => '番以外のボムは場にカードがあるときだけ出せます。',
  bomb_window_open: () => 'お待ちください：まだほかの人がボムを出せます。',
  wish_without_mah_jong: () => '指定は麻雀（1）を出すときだけです。',
  wish_required: () => 'このルールでは麻雀（1）を出すときに指定が必要です。',
  phoenix_name: (s) => `${s.cards('cards')}の鳳凰がどの数字か選んでください。`,
  phoenix_cannot: (s) => `${s.cards('cards')}の鳳凰はその数字になれません。`,
  phoenix_highest: () => 'このルールでは鳳凰はなれる一番高い数字です。',
  dragon_to_opponent: (s) => `龍のトリックは相手に渡します：${s.seat('left')}さんか${s.seat('right')}さん。`,
  dragon_is_given: () => '龍で取ったトリックは相手に渡します。',
  dragon_gift_pending: (s) => `残りは龍のトリックだけです：${s.seat('seat')}さんが渡す相手を選びます。`,
  tichu_before_deal: () => 'ティチューは14枚配られてから宣言します。',
  tichu_after_exchange: () => 'このルールではティチューは交換の後だけです。',
  tichu_after_grand: () => 'ラージ・ティチューを宣言したのでティチューは宣言できません。',
  tichu_called: () => 'もうティチューを宣言しています。',
  tichu_after_play: () => 'ティチューは最初のカードを出す前に宣言します。',
  one_call_per_team: () => 'パートナーが宣言済みです：このルールでは宣言はチームに一つです。',
  grand_decided: () => 'ラージ・ティチューはもう決めています。',
  exchange_given: () => 'もうカードを渡しています。',
  exchange_different: () => '違うカードを3枚渡してください。',
  round_over: () => 'ラウンドは終わりました。',
  match_over: () => 'ゲームは終わりました。',
  bid_range: (s) => `${s.rank('above')}より上、${s.rank('most')}までで入札してください。`,
  bombs_spent: () => '入札で出せるボムはすべて出しました。',
};

export const REFUSALS: Record<Lang, Sentences> = { en, de, ko, ja };

const RANK_FACE = ['', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

function cardsOf(game: GameName, text: string): string[] {
  return parsePlay(game, `play ${text}`)?.cards ?? [];
}

/**
 * The refusal as a sentence: `refusalText('en', 'tichu', {code: 'illegal', reason: 'does_not_beat',
 * params: {play: '2k', top: 'Ag'}, message: '…'}, names)` is "a single 2⚔ does not beat a single A◆."
 */
export function refusalText(lang: Lang, game: GameName, error: Refusal, names: readonly string[]): string {
  const sentence = error.code === 'illegal' && error.reason ? REFUSALS[lang][error.reason] : undefined;
  if (!sentence) return errorText(lang, error);
  const params = error.params ?? {};
  const text = (key: string): string => String(params[key] ?? '');
  const said: Said = {
    seat: (key) => {
      const seat = Number(params[key]);
      return names[seat] ?? `#${seat + 1}`;
    },
    combo: (key) => describeCombo(game, lang, cardsOf(game, text(key))),
    cards: (key) =>
      game === 'tichu'
        ? cardsOf(game, text(key)).map((c) => tichuFace(lang, c)).join(' ')
        : describeCombo(game, lang, cardsOf(game, text(key))),
    rank: (key) => {
      const n = Number(params[key]);
      return Number.isInteger(n) && n < RANK_FACE.length && game === 'tichu' ? RANK_FACE[n] : text(key);
    },
  };
  const line = sentence(said);
  return line.charAt(0).toUpperCase() + line.slice(1);
}

/** The server's answer to `why` (is the action legal now, and if not, why). */
export interface WhyAnswer extends Partial<Refusal> {
  action: string;
  legal: boolean;
}

/**
 * The action to ask the server about while the player's Play or Pass button is not offered:
 * the selection as a play, or `pass` on a live table (the wish obliges, the trick is complete).
 * Null when there is nothing to explain.
 */
export function whyProbe(
  game: GameName, selected: readonly string[], canPlay: boolean, canPass: boolean, myTurn: boolean, tableLive: boolean,
): string | null {
  if (!myTurn) return null;
  if (selected.length > 0) return canPlay ? null : `play ${selected.join(game === 'tichu' ? ' ' : '')}`;
  return tableLive && !canPass ? 'pass' : null;
}

/** The sentence to show for `probe`, once the server's answer to it is in; else null. */
export function whyText(
  lang: Lang, game: GameName, probe: string | null, answer: WhyAnswer | null, names: readonly string[],
): string | null {
  if (probe === null || answer === null || answer.action !== probe || answer.legal) return null;
  return refusalText(lang, game, { code: answer.code ?? 'illegal', message: answer.message ?? '', reason: answer.reason, params: answer.params }, names);
}

//! One Tichu round as a small `Copy` state (`round.py`): the Grand Tichu decisions, the
//! exchange, play with the bomb window, the Dragon gift, the end of the round and its score.
//!
//! [`State::legal`] lists what a seat may do, in the reference's order; [`State::apply`]
//! trusts that the action came from that list (the bindings check it, and leave anything else
//! to the reference).

use super::movegen::{bomb_plays, has_bomb, has_bomb_on, plays};
use super::*;

/// One action of a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Act {
    Grand,
    NoGrand,
    Tichu,
    /// The cards given to the next seat, the partner and the previous seat.
    Exchange([u8; 3]),
    Play {
        combo: Combo,
        wish: u8,
        reading: u8,
    },
    Pass,
    Take,
    GiveDragon(u8),
    NoBomb,
}

impl Act {
    /// The play of `combo` without a wish or a named reading.
    pub fn play(combo: Combo) -> Act {
        Act::Play {
            combo,
            wish: 0,
            reading: 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Phase {
    GrandTichu = 0,
    Exchange,
    Play,
    Over,
}

/// The options of `pagoda.tichu.rules.Rules` that change a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Rules {
    pub phoenix_choice: bool,
    pub one_call_per_team: bool,
    pub wish_required: bool,
    pub small_tichu_after_exchange_only: bool,
    /// `last_tricks_to == "opponents"`.
    pub last_tricks_to_opponents: bool,
}

/// A round's state: every field of the reference's position but the trick's plays in order
/// (kept beside it by the bindings) and the deal's order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct State {
    pub rules: Rules,
    pub phase: Phase,
    /// The seat asked (-1 once over).
    pub to_move: i8,
    /// Dealt into the Grand Tichu (not straight into play).
    pub start_grand: bool,
    /// The 14 cards dealt to each seat.
    pub deal: [u64; 4],
    pub decided: u8,
    pub grand: u8,
    pub tichu: u8,
    pub given: [[u8; 3]; 4],
    pub given_set: u8,
    pub hands: [u64; 4],
    pub seated: u8,
    pub bomb_seats: u8,
    pub quiet: u8,
    pub taken: [u64; 4],
    pub trick_cards: u64,
    pub top: Option<Combo>,
    pub top_seat: i8,
    pub passed: u8,
    pub complete: bool,
    pub wish: u8,
    pub out: [u8; 4],
    pub n_out: u8,
    pub closing: bool,
    pub window: [u8; 4],
    pub n_window: u8,
}

/// The first of `s, s + 1, s + 2, s + 3` (mod 4) in the seat mask `seats`, or -1.
#[inline]
pub fn first_in(seats: u8, s: u32) -> i8 {
    for k in 0..4 {
        let t = (s + k) & 3;
        if seats >> t & 1 != 0 {
            return t as i8;
        }
    }
    -1
}

/// The seats whose hand holds a bomb.
pub fn bomb_seats(hands: &[u64; 4]) -> u8 {
    (0..4).filter(|&s| has_bomb(hands[s])).map(|s| 1 << s).sum()
}

/// The seat holding the Mah Jong.
pub fn mah_jong_holder(hands: &[u64; 4]) -> i8 {
    (0..4)
        .find(|&s| hands[s] & MAH_JONG_BIT != 0)
        .map_or(-1, |s| s as i8)
}

impl State {
    /// A round of a checked deal: at the Grand Tichu decisions (the first 8 cards of each seat
    /// in hand), or straight into play.
    pub fn dealt(rules: Rules, deal: [u64; 4], first8: [u64; 4], start_grand: bool) -> State {
        let hands = if start_grand { first8 } else { deal };
        State {
            rules,
            phase: if start_grand {
                Phase::GrandTichu
            } else {
                Phase::Play
            },
            to_move: if start_grand {
                0
            } else {
                mah_jong_holder(&hands)
            },
            start_grand,
            deal,
            decided: if start_grand { 0 } else { 0b1111 },
            grand: 0,
            tichu: 0,
            given: [[0; 3]; 4],
            given_set: 0,
            hands,
            seated: 0b1111,
            bomb_seats: if start_grand { 0 } else { bomb_seats(&hands) },
            quiet: 0,
            taken: [0; 4],
            trick_cards: 0,
            top: None,
            top_seat: -1,
            passed: 0,
            complete: false,
            wish: 0,
            out: [0; 4],
            n_out: 0,
            closing: false,
            window: [0; 4],
            n_window: 0,
        }
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    #[inline]
    pub fn window(&self) -> &[u8] {
        &self.window[..self.n_window as usize]
    }

    #[inline]
    pub fn out(&self) -> &[u8] {
        &self.out[..self.n_out as usize]
    }

    #[inline]
    fn in_window(&self, seat: u32) -> bool {
        self.window().contains(&(seat as u8))
    }

    pub fn set_window(&mut self, seats: &[u8]) {
        self.n_window = seats.len() as u8;
        self.window[..seats.len()].copy_from_slice(seats);
    }

    fn leave_window(&mut self, seat: u32) {
        let mut w = [0u8; 4];
        let mut n = 0;
        for &s in self.window() {
            if s as u32 != seat {
                w[n] = s;
                n += 1;
            }
        }
        self.window = w;
        self.n_window = n as u8;
    }

    /// Every seat awaited: several in the Grand Tichu and the exchange.
    pub fn awaiting(&self, out: &mut Vec<u8>) {
        match self.phase {
            Phase::GrandTichu => out.extend((0..4).filter(|s| self.decided >> s & 1 == 0)),
            Phase::Exchange => out.extend((0..4).filter(|s| self.given_set >> s & 1 == 0)),
            Phase::Play => out.push(self.to_move as u8),
            Phase::Over => {}
        }
    }

    /// The seat a sequential driver asks first (the reference's `decisions()[0].seat`), or -1.
    pub fn first_asked(&self) -> i8 {
        match self.phase {
            Phase::Play if self.n_window > 0 => self.window[0] as i8,
            Phase::Over => -1,
            _ => self.to_move,
        }
    }

    pub fn may_call_grand(&self, seat: u32) -> bool {
        !(self.rules.one_call_per_team && self.grand >> ((seat + 2) & 3) & 1 != 0)
    }

    pub fn may_call_tichu(&self, seat: u32) -> bool {
        if self.quiet >> seat & 1 != 0 {
            return false;
        }
        match self.phase {
            Phase::Exchange => {
                if self.rules.small_tichu_after_exchange_only {
                    return false;
                }
            }
            Phase::Play => {}
            _ => return false,
        }
        if self.closing {
            return false;
        }
        let called = self.grand | self.tichu;
        !(self.rules.one_call_per_team && called >> ((seat + 2) & 3) & 1 != 0)
    }

    /// The number of exchanges `seat` may give now (0 once given, or outside the exchange).
    pub fn exchange_count(&self, seat: u32) -> usize {
        if self.phase != Phase::Exchange || self.given_set >> seat & 1 != 0 {
            return 0;
        }
        let n = self.hands[seat as usize].count_ones() as usize;
        n * (n - 1) * (n - 2)
    }

    /// The `i`-th exchange of `seat` (the reference's `ExchangeChoices` order).
    pub fn exchange_at(&self, seat: u32, i: usize) -> [u8; 3] {
        let mut cards: Vec<u8> = bits(self.hands[seat as usize]).map(|c| c as u8).collect();
        let n = cards.len();
        let (a, rest) = (i / ((n - 1) * (n - 2)), i % ((n - 1) * (n - 2)));
        let first = cards.remove(a);
        let (b, c) = (rest / (n - 2), rest % (n - 2));
        let second = cards.remove(b);
        [first, second, cards[c]]
    }

    /// What `seat` may do now, in the reference's order; in the exchange only the `tichu` call
    /// (the exchanges follow it: [`State::exchange_count`], [`State::exchange_at`]).
    pub fn legal(&self, seat: u32, out: &mut Vec<Act>) {
        match self.phase {
            Phase::GrandTichu => {
                if self.decided >> seat & 1 == 0 {
                    if self.may_call_grand(seat) {
                        out.push(Act::Grand);
                    }
                    out.push(Act::NoGrand);
                }
            }
            Phase::Exchange => {
                if self.may_call_tichu(seat) {
                    out.push(Act::Tichu);
                }
            }
            Phase::Play => {
                if seat as i8 == self.to_move {
                    self.turn_actions(seat, out)
                } else {
                    self.out_of_turn_actions(seat, out)
                }
            }
            Phase::Over => {}
        }
    }

    fn dragon_gifts(seat: u32, out: &mut Vec<Act>) {
        out.push(Act::GiveDragon(((seat + 1) & 3) as u8));
        out.push(Act::GiveDragon(((seat + 3) & 3) as u8));
    }

    fn add_bombs(hand: u64, top: &Combo, out: &mut Vec<Act>) {
        if top.kind == Kind::Dog || !has_bomb(hand) {
            return;
        }
        let mut v = Vec::with_capacity(8);
        bomb_plays(hand, Some(top), &mut v);
        out.extend(v.into_iter().map(Act::play));
    }

    fn out_of_turn_actions(&self, seat: u32, out: &mut Vec<Act>) {
        if self.closing {
            return;
        }
        if let Some(top) = &self.top {
            if self.bomb_seats >> seat & 1 != 0 && top.kind != Kind::Dog {
                Self::add_bombs(self.hands[seat as usize], top, out);
            }
        }
        if self.in_window(seat) {
            out.push(Act::NoBomb);
        }
        if self.may_call_tichu(seat) {
            out.push(Act::Tichu);
        }
    }

    fn turn_actions(&self, seat: u32, out: &mut Vec<Act>) {
        if self.closing {
            Self::dragon_gifts(seat, out);
            return;
        }
        let tichu = self.may_call_tichu(seat);
        let hand = self.hands[seat as usize];
        if let (Some(top), true) = (&self.top, self.complete) {
            if self.n_window == 0 {
                if top.mask == DRAGON_BIT {
                    Self::dragon_gifts(seat, out);
                } else {
                    out.push(Act::Take);
                }
            }
            Self::add_bombs(hand, top, out);
            if self.in_window(seat) {
                out.push(Act::NoBomb);
            }
            if tichu {
                out.push(Act::Tichu);
            }
            return;
        }
        let choice = self.rules.phoenix_choice;
        let mut combos = Vec::with_capacity(64);
        let bombs = self.bomb_seats >> seat & 1 != 0;
        plays(hand, self.top.as_ref(), choice, bombs, &mut combos);
        let mut forced = false;
        if self.wish != 0 {
            let wished = rank_mask(self.wish as u32);
            if hand & wished != 0 && combos.iter().any(|c| c.mask & wished != 0) {
                combos.retain(|c| c.mask & wished != 0);
                forced = true;
            }
        }
        let no_wish = !self.rules.wish_required;
        for c in combos {
            let reading = if choice && c.phoenix != 0 && readings(c.mask, None).len() > 1 {
                c.phoenix
            } else {
                0
            };
            if c.mask & MAH_JONG_BIT != 0 {
                if no_wish {
                    out.push(Act::Play {
                        combo: c,
                        wish: 0,
                        reading,
                    });
                }
                for w in 2..15 {
                    out.push(Act::Play {
                        combo: c,
                        wish: w,
                        reading,
                    });
                }
            } else {
                out.push(Act::Play {
                    combo: c,
                    wish: 0,
                    reading,
                });
            }
        }
        if self.top.is_some() && !forced {
            out.push(Act::Pass);
        }
        if tichu {
            out.push(Act::Tichu);
        }
    }

    /// The bomb window on the table once `after` has acted (see the reference's `_bomb_window`).
    fn bomb_window(&mut self, after: u32, complete: bool) {
        self.n_window = 0;
        let Some(top) = self.top else { return };
        if self.bomb_seats == 0 {
            return;
        }
        for k in 1..5 {
            let s = (after + k) & 3;
            if self.bomb_seats >> s & 1 != 0
                && (complete || s as i8 != self.to_move)
                && has_bomb_on(self.hands[s as usize], &top)
            {
                self.window[self.n_window as usize] = s as u8;
                self.n_window += 1;
            }
        }
    }

    /// Apply `act` of `seat`, an action of [`State::legal`] (or an exchange of the seat's cards).
    pub fn apply(&mut self, seat: u32, act: &Act) {
        let bit = 1u8 << seat;
        match *act {
            Act::Tichu => {
                self.tichu |= bit;
                self.quiet |= bit;
            }
            Act::Grand | Act::NoGrand => {
                self.decided |= bit;
                if *act == Act::Grand {
                    self.grand |= bit;
                    self.quiet |= bit;
                }
                if self.decided == 0b1111 {
                    self.hands = self.deal;
                    self.phase = Phase::Exchange;
                    self.to_move = 0;
                } else {
                    self.to_move = (!self.decided).trailing_zeros() as i8;
                }
            }
            Act::Exchange(gifts) => {
                self.given[seat as usize] = gifts;
                self.given_set |= bit;
                let mask = gifts.iter().fold(0u64, |m, &c| m | 1 << c);
                self.hands[seat as usize] &= !mask;
                if self.given_set != 0b1111 {
                    self.to_move = (!self.given_set).trailing_zeros() as i8;
                } else {
                    let g = self.given;
                    for s in 0..4 {
                        self.hands[s] |= 1 << g[(s + 3) & 3][0]
                            | 1 << g[(s + 2) & 3][1]
                            | 1 << g[(s + 1) & 3][2];
                    }
                    self.bomb_seats = bomb_seats(&self.hands);
                    self.phase = Phase::Play;
                    self.to_move = mah_jong_holder(&self.hands);
                }
            }
            Act::Play { combo, wish, .. } => self.play(seat, &combo, wish),
            Act::Pass => self.pass(seat),
            Act::Take => self.take(seat, seat),
            Act::GiveDragon(t) => self.take(seat, t as u32),
            Act::NoBomb => self.leave_window(seat),
        }
    }

    fn play(&mut self, seat: u32, combo: &Combo, wish: u8) {
        let s = seat as usize;
        let mask = combo.mask;
        let left = self.hands[s] ^ mask;
        self.hands[s] = left;
        if left == 0 {
            self.seated &= !(1 << seat);
        }
        if self.bomb_seats >> seat & 1 != 0 && !has_bomb(left) {
            self.bomb_seats &= !(1 << seat);
        }
        if self.wish != 0 && mask & rank_mask(self.wish as u32) != 0 {
            self.wish = 0;
        }
        if wish != 0 {
            self.wish = wish;
        }
        if left == 0 {
            self.out[self.n_out as usize] = seat as u8;
            self.n_out += 1;
        }
        self.quiet |= 1 << seat;
        if combo.kind == Kind::Dog {
            self.taken[s] |= DOG_BIT;
            self.n_window = 0;
            self.to_move = first_in(self.seated, (seat + 2) & 3);
        } else {
            self.to_move = first_in(self.seated, (seat + 1) & 3);
            self.trick_cards |= mask;
            self.top = Some(*combo);
            self.top_seat = seat as i8;
            self.passed = 0;
            self.complete = false;
            self.bomb_window(seat, false);
        }
        if left == 0 {
            self.ended();
        }
    }

    fn ended(&mut self) {
        let out = self.out();
        if out.len() >= 2 && (out[0] ^ out[1]) & 1 == 0 {
            self.phase = Phase::Over;
            self.to_move = -1;
            self.n_window = 0;
            return;
        }
        if out.len() < 3 {
            return;
        }
        if self.top.is_some_and(|t| t.mask == DRAGON_BIT) {
            self.closing = true;
            self.to_move = self.top_seat;
            self.n_window = 0;
            return;
        }
        if self.top_seat >= 0 {
            self.taken[self.top_seat as usize] |= self.trick_cards;
        }
        self.phase = Phase::Over;
        self.to_move = -1;
        self.n_window = 0;
        self.trick_cards = 0;
        self.top = None;
        self.top_seat = -1;
    }

    fn pass(&mut self, seat: u32) {
        self.passed |= 1 << seat;
        let waiting = self.seated & !(self.passed | 1 << self.top_seat);
        if waiting != 0 {
            self.to_move = first_in(self.seated, (seat + 1) & 3);
            self.complete = false;
            let t = self.to_move as u32;
            if self.in_window(t) {
                self.leave_window(t);
            }
            return;
        }
        self.complete = true;
        self.to_move = self.top_seat;
        self.bomb_window(seat, true);
    }

    fn take(&mut self, seat: u32, taker: u32) {
        self.taken[taker as usize] |= self.trick_cards;
        self.trick_cards = 0;
        self.top = None;
        self.top_seat = -1;
        self.passed = 0;
        self.complete = false;
        self.n_window = 0;
        if self.closing {
            self.phase = Phase::Over;
            self.to_move = -1;
        } else {
            self.to_move = first_in(self.seated, seat);
        }
        self.closing = false;
    }

    /// The card points of each team once over (before one-two and the calls); 100 in all.
    pub fn card_points(&self) -> (i32, i32) {
        let mut piles = self.taken;
        let last = (0..4u8).find(|s| !self.out().contains(s));
        if let Some(last) = last {
            let last = last as usize;
            let opponent = (last + 1) & 3;
            piles[opponent] |= self.hands[last];
            let to = if self.rules.last_tricks_to_opponents {
                opponent
            } else {
                self.out[0] as usize
            };
            piles[to] |= piles[last];
            piles[last] = 0;
        }
        (
            count_points(piles[0] | piles[2]),
            count_points(piles[1] | piles[3]),
        )
    }

    /// The points of the round for teams (0+2, 1+3) once over; zeros before.
    pub fn score(&self) -> (i32, i32) {
        if self.phase != Phase::Over {
            return (0, 0);
        }
        let out = self.out();
        let mut points = [0i32; 2];
        if (out[0] ^ out[1]) & 1 == 0 {
            points[(out[0] & 1) as usize] += 200;
        } else {
            let (a, b) = self.card_points();
            points = [a, b];
        }
        for seat in 0..4u8 {
            let bonus = if self.grand >> seat & 1 != 0 {
                200
            } else if self.tichu >> seat & 1 != 0 {
                100
            } else {
                0
            };
            points[(seat & 1) as usize] += if out[0] == seat { bonus } else { -bonus };
        }
        (points[0], points[1])
    }

    /// The 56 cards, each in exactly one place: a hand, a won pile, the trick, or (in the Grand
    /// Tichu or the exchange) the cards not yet dealt or given.
    pub fn cards_conserved(&self) -> bool {
        let mut seen = 0u64;
        let mut parts: Vec<u64> = self.hands.to_vec();
        parts.extend(self.taken);
        parts.push(self.trick_cards);
        match self.phase {
            Phase::GrandTichu => (0..4).for_each(|s| parts.push(self.deal[s] & !self.hands[s])),
            Phase::Exchange => (0..4).for_each(|s| {
                if self.given_set >> s & 1 != 0 {
                    parts.push(self.given[s].iter().fold(0, |m, &c| m | 1 << c))
                }
            }),
            _ => {}
        }
        for p in parts {
            if p & seen != 0 {
                return false;
            }
            seen |= p;
        }
        seen == FULL_DECK
    }
}

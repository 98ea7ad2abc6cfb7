//! One round of Dou Di Zhu as a state changed in place (`round.py`): the auction (bids, or calls
//! and robs), the kitty, play, bombs, spring and score.

use std::sync::Arc;

use super::movegen::legal_plays;
use super::{
    counts_of, is_subset, parse_canonical, size_of, Combo, Kind, Rules, Wild, JOKER_B, NUM_RANKS,
};

/// One action of a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Act {
    Pass,
    Bid(u8),
    Call,
    Rob,
    Play(Combo),
}

impl Act {
    /// The action's text (the reference's `str(action)`), as the history keeps it.
    pub fn text(&self) -> String {
        match self {
            Act::Pass => "pass".to_string(),
            Act::Bid(b) => format!("bid {b}"),
            Act::Call => "call".to_string(),
            Act::Rob => "rob".to_string(),
            Act::Play(c) => format!("play {}", c.text()),
        }
    }

    /// An action of the auction from its text (`pass`, `call`, `rob`, `bid N`).
    pub fn auction_from_text(text: &str) -> Option<Act> {
        match text {
            "pass" => Some(Act::Pass),
            "call" => Some(Act::Call),
            "rob" => Some(Act::Rob),
            _ => {
                let n = text.strip_prefix("bid ")?;
                if n.is_empty()
                    || !n.bytes().all(|b| b.is_ascii_digit())
                    || (n.len() > 1 && n.starts_with('0'))
                {
                    return None;
                }
                n.parse::<u8>().ok().map(Act::Bid)
            }
        }
    }

    /// An action from its canonical text ([`Act::text`]: `play CARDS [as READING]`, the cards as
    /// `format_mask` writes them); `None` for any other text. A play read back names its cards
    /// and reading only (kind solo, rank 0: the text does not say which reading).
    pub fn from_text(text: &str) -> Option<Act> {
        if let Some(rest) = text.strip_prefix("play ") {
            let (cards, reading) = match rest.split_once(" as ") {
                Some((c, r)) => (c, Some(r)),
                None => (rest, None),
            };
            let mask = parse_canonical(cards)?;
            let reading = match reading {
                Some(r) => parse_canonical(r)?,
                None => mask,
            };
            if mask == 0 {
                return None;
            }
            return Some(Act::Play(Combo {
                kind: Kind::Solo,
                rank: 0,
                length: 0,
                mask,
                reading,
                order: 0,
            }));
        }
        Act::auction_from_text(text)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Auction,
    Play,
    Over,
}

/// What [`State::apply`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// The action is applied.
    Done,
    /// Everyone passed: the caller deals again ([`State::redeal`]).
    Redeal,
    /// The auction is over and the laizi wild rank is to be drawn: the caller sets [`State::wild`].
    DrawWild,
    /// The rules refuse the action (the state may be partly changed: apply to a copy).
    Illegal,
}

/// One entry of a round's history, shared by every later state (a state adds one node, and
/// copies nothing, per action).
#[derive(Debug, PartialEq, Eq)]
pub struct HistNode {
    pub prev: Option<Arc<HistNode>>,
    pub seat: u8,
    pub act: Act,
}

/// A round's state: every field the reference's position holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub rules: Rules,
    pub phase: Phase,
    pub to_move: u8,
    pub hands: [u128; 4],
    pub kitty: u128,
    pub top: Option<Combo>,
    pub top_seat: i8,
    pub passes: u8,
    pub doubles: u32,
    pub play_counts: [u32; 4],
    pub winner: i8,
    pub landlord: i8,
    pub bid: u64,
    pub bidder: i8,
    pub first: u8,
    pub deal_no: u32,
    /// The wild rank index (-1: none, or not yet drawn).
    pub wild: i8,
    pub auction: Vec<(u8, Act)>,
    /// With `bomb_limits`: the bombs each seat may still play (-1: any number).
    pub bombs_left: Option<[i32; 4]>,
    /// The actions so far, the last first (see [`State::history_vec`]).
    pub history: Option<Arc<HistNode>>,
    /// Whether [`State::history`] is kept (the batched calls do without it).
    pub keep_history: bool,
}

impl State {
    /// The auction of a deal: `hands` (one per seat), the kept cards, the first bidder.
    pub fn start(rules: Rules, hands: &[u128], kitty: u128, first: u8, deal_no: u32) -> State {
        let mut h = [0u128; 4];
        h[..hands.len()].copy_from_slice(hands);
        State {
            rules,
            phase: Phase::Auction,
            to_move: first,
            hands: h,
            kitty,
            top: None,
            top_seat: -1,
            passes: 0,
            doubles: 0,
            play_counts: [0; 4],
            winner: -1,
            landlord: -1,
            bid: 0,
            bidder: -1,
            first,
            deal_no,
            wild: match rules.wild {
                Wild::Fixed(w) => w as i8,
                _ => -1,
            },
            auction: Vec::new(),
            bombs_left: None,
            history: None,
            keep_history: true,
        }
    }

    /// The next deal after an all-pass auction: same first bidder, the history goes on.
    pub fn redeal(&mut self, hands: &[u128], kitty: u128) {
        let mut fresh = State::start(self.rules, hands, kitty, self.first, self.deal_no + 1);
        fresh.history = self.history.take();
        fresh.keep_history = self.keep_history;
        *self = fresh;
    }

    /// Add an action to the history (when it is kept).
    #[inline]
    pub fn push_history(&mut self, seat: u8, act: &Act) {
        if self.keep_history {
            self.history = Some(Arc::new(HistNode {
                prev: self.history.take(),
                seat,
                act: *act,
            }));
        }
    }

    /// The history, first action first.
    pub fn history_vec(&self) -> Vec<(u8, Act)> {
        let mut out = Vec::new();
        let mut node = self.history.as_deref();
        while let Some(n) = node {
            out.push((n.seat, n.act));
            node = n.prev.as_deref();
        }
        out.reverse();
        out
    }

    /// Set the history from a list, first action first.
    pub fn set_history(&mut self, entries: &[(u8, Act)]) {
        self.history = None;
        for (seat, act) in entries {
            self.history = Some(Arc::new(HistNode {
                prev: self.history.take(),
                seat: *seat,
                act: *act,
            }));
        }
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.rules.players
    }

    pub fn is_over(&self) -> bool {
        self.winner >= 0
    }

    /// The play `seat` must beat (`None`: it leads).
    #[inline]
    pub fn table(&self, seat: u8) -> Option<&Combo> {
        if self.top_seat == seat as i8 {
            None
        } else {
            self.top.as_ref()
        }
    }

    /// Whether `seat` may still play bombs (`bomb_limits`).
    #[inline]
    fn bombs_allowed(&self, seat: u8) -> bool {
        self.bombs_left.is_none_or(|b| b[seat as usize] != 0)
    }

    /// The plays of `seat` in play (into `out`); true if it may pass too (it does not lead).
    pub fn play_options(&self, seat: u8, out: &mut Vec<Combo>) -> bool {
        let top = self.table(seat);
        legal_plays(
            self.hands[seat as usize],
            top,
            &self.rules,
            self.wild as i32,
            self.bombs_allowed(seat),
            out,
        );
        top.is_some()
    }

    /// Every legal action of `seat`, in the reference's order (none when it is not its turn).
    pub fn legal(&self, seat: u8, out: &mut Vec<Act>) {
        if seat != self.to_move {
            return;
        }
        match self.phase {
            Phase::Over => {}
            Phase::Play => {
                let mut plays = Vec::new();
                if self.play_options(seat, &mut plays) {
                    out.push(Act::Pass);
                }
                out.extend(plays.into_iter().map(Act::Play));
            }
            Phase::Auction => {
                if self.rules.rob {
                    out.push(if self.has_call() { Act::Rob } else { Act::Call });
                    out.push(Act::Pass);
                } else {
                    out.push(Act::Pass);
                    let from = self.bid as u32 + 1;
                    for b in from..=self.rules.max_bid as u32 {
                        out.push(Act::Bid(b as u8));
                    }
                }
            }
        }
    }

    fn has_call(&self) -> bool {
        self.auction.iter().any(|(_, a)| *a == Act::Call)
    }

    /// Apply `act` of `seat` (see [`Step`]).
    pub fn apply(&mut self, seat: u8, act: &Act) -> Step {
        if self.phase == Phase::Over || seat != self.to_move {
            return Step::Illegal;
        }
        if self.phase == Phase::Auction {
            return self.auction_step(seat, act);
        }
        let n = self.players() as u8;
        match act {
            Act::Pass => {
                if self.table(seat).is_none() {
                    return Step::Illegal;
                }
                self.passes += 1;
                if self.passes as usize == self.players() - 1 {
                    self.top = None;
                    self.top_seat = -1;
                }
                self.to_move = (seat + 1) % n;
            }
            Act::Play(c) => {
                let s = seat as usize;
                if !is_subset(c.mask, self.hands[s]) {
                    return Step::Illegal;
                }
                self.hands[s] -= c.mask;
                self.play_counts[s] += 1;
                if c.is_bomb() {
                    if c.kind == Kind::Rocket
                        || size_of(c.mask) as usize >= self.rules.double_min_bomb
                    {
                        self.doubles += 1;
                    }
                    if let Some(left) = self.bombs_left.as_mut() {
                        if left[s] == 0 {
                            return Step::Illegal;
                        }
                        if left[s] > 0 {
                            left[s] -= 1;
                        }
                    }
                }
                let over = self.hands[s] == 0;
                self.top = Some(*c);
                self.top_seat = seat as i8;
                self.passes = 0;
                if over {
                    self.phase = Phase::Over;
                    self.winner = seat as i8;
                    self.to_move = seat;
                } else {
                    self.to_move = (seat + 1) % n;
                }
            }
            _ => return Step::Illegal,
        }
        self.push_history(seat, act);
        Step::Done
    }

    fn auction_step(&mut self, seat: u8, act: &Act) -> Step {
        let n = self.players();
        if self.rules.rob {
            return self.rob_step(seat, act);
        }
        let (mut bid, mut bidder) = (self.bid, self.bidder);
        match act {
            Act::Bid(b) => {
                let b = *b as u64;
                if !(self.bid < b && b <= self.rules.max_bid as u64) {
                    return Step::Illegal;
                }
                bid = b;
                bidder = seat as i8;
            }
            Act::Pass => {}
            _ => return Step::Illegal,
        }
        self.auction.push((seat, *act));
        self.push_history(seat, act);
        if bid == self.rules.max_bid as u64 || self.auction.len() == n {
            if bidder < 0 {
                return Step::Redeal;
            }
            return self.finish_auction(bidder as u8, bid);
        }
        self.bid = bid;
        self.bidder = bidder;
        self.to_move = (seat + 1) % n as u8;
        Step::Done
    }

    fn rob_step(&mut self, seat: u8, act: &Act) -> Step {
        let n = self.players();
        let first = self.first as usize;
        let order = move |i: usize| ((first + i) % n) as u8;
        let want = if self.has_call() { Act::Rob } else { Act::Call };
        if *act != want && *act != Act::Pass {
            return Step::Illegal;
        }
        self.auction.push((seat, *act));
        self.push_history(seat, act);
        let Some(k) = self.auction.iter().position(|(_, a)| *a == Act::Call) else {
            if self.auction.len() == n {
                return Step::Redeal;
            }
            self.to_move = order(self.auction.len());
            return Step::Done;
        };
        let caller = order(k);
        let robbers = n - k - 1;
        let after = &self.auction[k + 1..];
        let robs: Vec<u8> = after
            .iter()
            .filter(|(_, a)| *a == Act::Rob)
            .map(|(s, _)| *s)
            .collect();
        let base = 1u64 << robs.len();
        let last = robs.last().copied().unwrap_or(caller);
        if after.len() < robbers {
            self.bid = base;
            self.bidder = last as i8;
            self.to_move = order(k + 1 + after.len());
            return Step::Done;
        }
        if after.len() == robbers && !robs.is_empty() {
            self.bid = base;
            self.bidder = last as i8;
            self.to_move = caller;
            return Step::Done;
        }
        self.finish_auction(last, base)
    }

    fn finish_auction(&mut self, landlord: u8, bid: u64) -> Step {
        let l = landlord as usize;
        self.hands[l] += self.kitty;
        self.landlord = landlord as i8;
        self.bid = bid;
        self.bidder = landlord as i8;
        self.phase = Phase::Play;
        self.to_move = landlord;
        if self.rules.bomb_limits {
            let mut left = [-1i32; 4];
            for (seat, slot) in left.iter_mut().enumerate().take(self.players()) {
                let said: Vec<&Act> = self
                    .auction
                    .iter()
                    .filter(|(s, _)| *s as usize == seat)
                    .map(|(_, a)| a)
                    .collect();
                if seat != l && !said.is_empty() {
                    *slot = if said.contains(&&Act::Bid(2)) { 2 } else { 1 };
                }
            }
            self.bombs_left = Some(left);
        }
        if self.rules.wild == Wild::Drawn {
            return Step::DrawWild;
        }
        Step::Done
    }

    /// Whether the round ended in a spring or an anti-spring.
    pub fn spring(&self) -> bool {
        if self.phase != Phase::Over {
            return false;
        }
        let l = self.landlord as usize;
        if self.winner == self.landlord {
            (0..self.players()).all(|s| s == l || self.play_counts[s] == 0)
        } else {
            self.play_counts[l] == 1
        }
    }

    /// Points per seat (all zero until the round is over).
    pub fn score(&self) -> [i64; 4] {
        let n = self.players();
        let mut out = [0i64; 4];
        if self.phase != Phase::Over {
            return out;
        }
        let unit = (self.bid as i64) << (self.doubles + self.spring() as u32);
        let sign = if self.winner == self.landlord { 1 } else { -1 };
        for (s, v) in out.iter_mut().enumerate().take(n) {
            *v = if s as i8 == self.landlord {
                sign * unit * (n as i64 - 1)
            } else {
                -sign * unit
            };
        }
        out
    }
}

/// The rank indices of `decks` full packs.
pub fn deck(decks: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(54 * decks);
    for _ in 0..decks {
        for i in 0..NUM_RANKS {
            let k = if i >= JOKER_B { 1 } else { 4 };
            out.extend(std::iter::repeat_n(i, k));
        }
    }
    out
}

/// Whether the counts of a set stay within the packs of `rules`.
pub fn within_packs(mask: u128, rules: &Rules) -> bool {
    counts_of(mask)
        .iter()
        .enumerate()
        .all(|(i, &k)| (k as usize) <= rules.decks * if i >= JOKER_B { 1 } else { 4 })
}

//! Tichu as single-seat decisions over the fixed action vocabulary of `pagoda.envs.tichu_flow`:
//! the same indices, legal sets, observation vectors and rewards, for the batched environment.
//!
//! The vocabulary (1,589 indices): 8 simple actions, 14 wishes, 56 exchange picks, then the
//! play *shapes* in the order of `tichu_flow._play_keys`. A shape stands for the legal play of
//! that shape using the fewest cards of the hand's bombs, then the lowest card mask (then the
//! lowest wish). See the Python module's docstring for the decision points.

use std::sync::OnceLock;

use super::movegen::{bomb_plays, has_bomb};
use super::state::{Act, Phase, State};
use super::{rank_mask, Combo, Kind, DRAGON_BIT, MAH_JONG_BIT, PHOENIX_BIT, SUIT_MASKS};

pub const A_GRAND: u16 = 0;
pub const A_NO_GRAND: u16 = 1;
pub const A_TICHU: u16 = 2;
pub const A_PASS: u16 = 3;
pub const A_TAKE: u16 = 4;
pub const A_GIVE_NEXT: u16 = 5;
pub const A_GIVE_PREV: u16 = 6;
pub const A_NO_BOMB: u16 = 7;
pub const WISH0: u16 = 8;
pub const EXCHANGE0: u16 = WISH0 + 14;
pub const PLAY0: u16 = EXCHANGE0 + 56;

/// The shape codes of a play key (the first item of the Python key).
pub const K_SINGLE: u8 = 0;
pub const K_MAHJONG: u8 = 1;
pub const K_PHOENIX: u8 = 2;
pub const K_DRAGON: u8 = 3;
pub const K_DOG: u8 = 4;
pub const K_PAIR: u8 = 5;
pub const K_TRIPLE: u8 = 6;
pub const K_FULL_HOUSE: u8 = 7;
pub const K_PAIR_RUN: u8 = 8;
pub const K_STRAIGHT: u8 = 9;
pub const K_FOUR: u8 = 10;
pub const K_STRAIGHT_FLUSH: u8 = 11;

/// A play's shape: (kind code, a, b, c) as the Python key `(kind, a, b, c)`.
pub type Key = (u8, u8, u8, u8);

/// The play keys in vocabulary order (`tichu_flow.PLAY_KEYS`).
pub fn play_keys() -> Vec<Key> {
    let mut keys: Vec<Key> = (2..15).map(|r| (K_SINGLE, r, 0, 0)).collect();
    keys.extend([
        (K_MAHJONG, 1, 0, 0),
        (K_PHOENIX, 0, 0, 0),
        (K_DRAGON, 15, 0, 0),
        (K_DOG, 0, 0, 0),
    ]);
    for kind in [K_PAIR, K_TRIPLE] {
        for r in 2..15 {
            keys.push((kind, r, 0, 0));
            keys.push((kind, r, r, 0));
        }
    }
    for t in 2..15 {
        for p in 2..15 {
            if p != t {
                for ph in [0, t, p] {
                    keys.push((K_FULL_HOUSE, t, p, ph));
                }
            }
        }
    }
    for n in 2..8 {
        for hi in n + 1..15 {
            keys.push((K_PAIR_RUN, hi, n, 0));
            for ph in hi - n + 1..hi + 1 {
                keys.push((K_PAIR_RUN, hi, n, ph));
            }
        }
    }
    for length in 5..15 {
        for hi in length..15 {
            let lo = hi - length + 1;
            keys.push((K_STRAIGHT, hi, length, 0));
            for ph in lo.max(2)..hi + 1 {
                keys.push((K_STRAIGHT, hi, length, ph));
            }
        }
    }
    keys.extend((2..15).map(|r| (K_FOUR, r, 4, 0)));
    for length in 5..14 {
        for hi in length + 1..15 {
            for suit in 0..4 {
                keys.push((K_STRAIGHT_FLUSH, hi, length, suit));
            }
        }
    }
    keys
}

fn slot(k: Key) -> usize {
    (k.0 as usize) << 12 | (k.1 as usize) << 8 | (k.2 as usize) << 4 | k.3 as usize
}

/// Action index of each key, dense over (code, a, b, c) with 4 bits each but the code.
fn index_table() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![u16::MAX; 12 << 12];
        for (i, k) in play_keys().into_iter().enumerate() {
            t[slot(k)] = PLAY0 + i as u16;
        }
        t
    })
}

/// The number of vocabulary indices.
pub fn num_actions() -> usize {
    PLAY0 as usize + play_keys().len()
}

/// The shape of a combination (`tichu_flow.play_key`).
pub fn play_key(c: &Combo) -> Key {
    let mask = c.mask;
    let rank = c.rank() as u8;
    match c.kind {
        Kind::Single => match mask {
            MAH_JONG_BIT => (K_MAHJONG, 1, 0, 0),
            PHOENIX_BIT => (K_PHOENIX, 0, 0, 0),
            DRAGON_BIT => (K_DRAGON, 15, 0, 0),
            _ => (K_SINGLE, rank, 0, 0),
        },
        Kind::Dog => (K_DOG, 0, 0, 0),
        Kind::Pair => (K_PAIR, rank, c.phoenix, 0),
        Kind::Triple => (K_TRIPLE, rank, c.phoenix, 0),
        Kind::FullHouse => {
            let other = (2..15u8)
                .find(|&r| r != rank && mask & rank_mask(r as u32) != 0)
                .unwrap_or(0);
            (K_FULL_HOUSE, rank, other, c.phoenix)
        }
        Kind::PairRun => (K_PAIR_RUN, rank, (c.len() / 2) as u8, c.phoenix),
        Kind::Straight => (K_STRAIGHT, rank, c.len() as u8, c.phoenix),
        Kind::FourOfAKind => (K_FOUR, rank, 4, 0),
        Kind::StraightFlush => {
            let suit = (0..4u8)
                .find(|&s| mask & !SUIT_MASKS[s as usize] == 0)
                .unwrap_or(0);
            (K_STRAIGHT_FLUSH, rank, c.len() as u8, suit)
        }
    }
}

/// The action index of a combination's shape.
pub fn play_index(c: &Combo) -> u16 {
    index_table()[slot(play_key(c))]
}

/// The reference's round of an integer seed (`Round.new(seed, rules)`: `random.Random(seed)`
/// shuffles the 56 cards, 14 to each seat, the first 8 in hand for the Grand Tichu).
pub fn seeded(seed: u128, rules: super::state::Rules) -> State {
    let mut g = crate::doudizhu::pyrandom::Mt::from_be_bytes(&seed.to_be_bytes());
    let mut order: [u8; 56] = std::array::from_fn(|i| i as u8);
    g.shuffle(&mut order);
    let mut deal = [0u64; 4];
    let mut first8 = [0u64; 4];
    for s in 0..4 {
        for (k, &c) in order[s * 14..(s + 1) * 14].iter().enumerate() {
            deal[s] |= 1 << c;
            if k < 8 {
                first8[s] |= 1 << c;
            }
        }
    }
    State::dealt(rules, deal, first8, true)
}

/// Decision kinds, as the observation's `decision` part.
pub const D_GRAND: u8 = 0;
pub const D_EXCHANGE: u8 = 1;
pub const D_TURN: u8 = 2;
pub const D_POLL: u8 = 3;
pub const D_WISH: u8 = 4;
pub const D_OVER: u8 = 5;

/// The observation's parts and widths (`tichu_flow.OBS_PARTS`).
pub const OBS_PARTS: [(&str, usize); 22] = [
    ("hand", 56),
    ("played", 56),
    ("top", 56),
    ("won", 4 * 56),
    ("hand_sizes", 4 * 15),
    ("grand_decided", 4),
    ("grand_calls", 4),
    ("tichu_calls", 4),
    ("passed", 4),
    ("out", 4 * 3),
    ("top_seat", 4),
    ("trick_complete", 1),
    ("to_move", 4),
    ("wish", 13),
    ("phase", 4),
    ("given", 3 * 56),
    ("received", 3 * 56),
    ("decision", 6),
    ("picked", 56),
    ("pick_number", 3),
    ("pending_play", 56),
    ("bias", 1),
];

/// The observation's width.
pub const OBS_SIZE: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < OBS_PARTS.len() {
        n += OBS_PARTS[i].1;
        i += 1;
    }
    n
};

/// The decision asked now: its seat, kind, legal indices (ascending) and the action of each
/// play, pass, take, gift, no-bomb or tichu index.
#[derive(Clone, Debug, Default)]
pub struct Decision {
    pub seat: u8,
    pub kind: u8,
    pub indices: Vec<u16>,
    pub acts: Vec<Act>,
}

/// One round as decisions (`tichu_flow.TichuFlow` with `episode="round"`).
#[derive(Clone, Debug)]
pub struct Flow {
    pub st: State,
    pub picks: [u8; 3],
    pub n_picks: u8,
    pub wish_play: Option<Act>,
    pub over: bool,
    pub returns: [f32; 4],
    decision: Decision,
    fresh: bool,
    scratch: Vec<Act>,
}

/// Why a step was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    Over,
    Illegal,
}

impl Flow {
    /// A flow over a round's state.
    pub fn new(st: State) -> Flow {
        let mut f = Flow {
            st,
            picks: [0; 3],
            n_picks: 0,
            wish_play: None,
            over: st.is_over(),
            returns: [0.0; 4],
            decision: Decision::default(),
            fresh: false,
            scratch: Vec::with_capacity(64),
        };
        f.decide();
        f
    }

    /// The decision asked now (computed once per state).
    pub fn decision(&self) -> &Decision {
        &self.decision
    }

    /// The seat that decides, -1 once over.
    pub fn actor(&self) -> i8 {
        if self.over {
            -1
        } else {
            self.decision.seat as i8
        }
    }

    fn decide(&mut self) {
        let d = &mut self.decision;
        d.indices.clear();
        d.acts.clear();
        self.fresh = true;
        if self.over {
            d.kind = D_OVER;
            return;
        }
        let st = &self.st;
        match st.phase {
            Phase::GrandTichu => {
                d.seat = st.to_move as u8;
                d.kind = D_GRAND;
                if st.may_call_grand(d.seat as u32) {
                    d.indices.push(A_GRAND);
                }
                d.indices.push(A_NO_GRAND);
            }
            Phase::Exchange => {
                let seat = (!st.given_set).trailing_zeros();
                d.seat = seat as u8;
                d.kind = D_EXCHANGE;
                if st.may_call_tichu(seat) {
                    d.indices.push(A_TICHU);
                    d.acts.push(Act::Tichu);
                }
                let mut hand = st.hands[seat as usize];
                for &p in &self.picks[..self.n_picks as usize] {
                    hand &= !(1u64 << p);
                }
                d.indices
                    .extend(super::bits(hand).map(|c| EXCHANGE0 + c as u16));
            }
            Phase::Play if self.wish_play.is_some() => {
                d.seat = st.to_move as u8;
                d.kind = D_WISH;
                let first = if st.rules.wish_required {
                    WISH0 + 1
                } else {
                    WISH0
                };
                d.indices.extend(first..WISH0 + 14);
            }
            Phase::Play => {
                let (seat, kind) = if st.n_window > 0 {
                    (st.window[0] as u32, D_POLL)
                } else {
                    (st.to_move as u32, D_TURN)
                };
                d.seat = seat as u8;
                d.kind = kind;
                self.scratch.clear();
                st.legal(seat, &mut self.scratch);
                Self::map(st, seat, &self.scratch, d);
            }
            Phase::Over => d.kind = D_OVER,
        }
    }

    /// The legal actions grouped by index (`TichuFlow._map`).
    fn map(st: &State, seat: u32, acts: &[Act], d: &mut Decision) {
        let hand = st.hands[seat as usize];
        let mut bomb_cards: Option<u64> = None;
        // (index, rank, act), then sorted by index.
        let mut groups: Vec<(u16, (u32, u64, u8), Act)> = Vec::with_capacity(acts.len());
        for a in acts {
            let (index, rank) = match *a {
                Act::Play { combo, wish, .. } => {
                    let bc = *bomb_cards.get_or_insert_with(|| {
                        let mut m = 0;
                        if has_bomb(hand) {
                            let mut v = Vec::with_capacity(8);
                            bomb_plays(hand, None, &mut v);
                            for b in v {
                                m |= b.mask;
                            }
                        }
                        m
                    });
                    let rank = ((combo.mask & bc).count_ones(), combo.mask, wish);
                    (play_index(&combo), rank)
                }
                Act::Pass => (A_PASS, (0, 0, 0)),
                Act::Take => (A_TAKE, (0, 0, 0)),
                Act::GiveDragon(t) => {
                    let next = (t as u32 + 4 - seat) & 3 == 1;
                    (if next { A_GIVE_NEXT } else { A_GIVE_PREV }, (0, 0, 0))
                }
                Act::Tichu => (A_TICHU, (0, 0, 0)),
                Act::NoBomb => (A_NO_BOMB, (0, 0, 0)),
                _ => continue,
            };
            match groups.iter_mut().find(|g| g.0 == index) {
                Some(g) => {
                    if matches!(a, Act::Play { .. }) {
                        if rank < g.1 {
                            g.1 = rank;
                            g.2 = *a;
                        }
                    } else {
                        g.2 = *a;
                    }
                }
                None => groups.push((index, rank, *a)),
            }
        }
        groups.sort_unstable_by_key(|g| g.0);
        for (i, _, a) in groups {
            d.indices.push(i);
            d.acts.push(a);
        }
    }

    /// Is `index` legal now?
    pub fn is_legal(&self, index: u16) -> bool {
        !self.over && self.decision.indices.binary_search(&index).is_ok()
    }

    /// Apply `index`; the rewards it produced, one per seat.
    pub fn step(&mut self, index: u16) -> Result<[f32; 4], StepError> {
        if self.over {
            return Err(StepError::Over);
        }
        let Ok(pos) = self.decision.indices.binary_search(&index) else {
            return Err(StepError::Illegal);
        };
        let seat = self.decision.seat as u32;
        let kind = self.decision.kind;
        let rewards = if index == A_TICHU {
            self.apply(seat, Act::Tichu)
        } else if kind == D_GRAND {
            self.apply(
                seat,
                if index == A_GRAND {
                    Act::Grand
                } else {
                    Act::NoGrand
                },
            )
        } else if kind == D_EXCHANGE {
            self.picks[self.n_picks as usize] = (index - EXCHANGE0) as u8;
            self.n_picks += 1;
            if self.n_picks < 3 {
                [0.0; 4]
            } else {
                self.n_picks = 0;
                self.apply(seat, Act::Exchange(self.picks))
            }
        } else if kind == D_WISH {
            let Some(Act::Play { combo, reading, .. }) = self.wish_play.take() else {
                unreachable!("a wish decision follows a Mah Jong play")
            };
            let wish = if index == WISH0 {
                0
            } else {
                (index - WISH0 + 1) as u8
            };
            self.apply(
                seat,
                Act::Play {
                    combo,
                    wish,
                    reading,
                },
            )
        } else {
            let act = self.decision.acts[pos];
            match act {
                Act::Play { combo, .. } if combo.mask & MAH_JONG_BIT != 0 => {
                    self.wish_play = Some(act);
                    [0.0; 4]
                }
                _ => self.apply(seat, act),
            }
        };
        self.decide();
        Ok(rewards)
    }

    fn apply(&mut self, seat: u32, act: Act) -> [f32; 4] {
        self.st.apply(seat, &act);
        let mut rewards = [0.0; 4];
        if self.st.is_over() {
            let (a, b) = self.st.score();
            rewards = [a as f32, b as f32, a as f32, b as f32];
            self.over = true;
        }
        for (r, x) in self.returns.iter_mut().zip(rewards) {
            *r += x;
        }
        rewards
    }

    /// Write the observation of `seat` into `out` (`OBS_SIZE` zeroed bytes; `TichuFlow.observe`).
    pub fn observe(&self, seat: u32, out: &mut [i8]) {
        let st = &self.st;
        let rel = |s: u32| (s + 4 - seat) & 3;
        let mut at = 0usize;
        let bits = |out: &mut [i8], at: &mut usize, mask: u64, width: usize| {
            let mut m = mask;
            while m != 0 {
                out[*at + m.trailing_zeros() as usize] = 1;
                m &= m - 1;
            }
            *at += width;
        };
        let hot = |out: &mut [i8], at: &mut usize, i: i32, width: usize| {
            if i >= 0 && (i as usize) < width {
                out[*at + i as usize] = 1;
            }
            *at += width;
        };
        bits(out, &mut at, st.hands[seat as usize], 56);
        let played = st.taken.iter().fold(st.trick_cards, |m, t| m | t);
        bits(out, &mut at, played, 56);
        bits(out, &mut at, st.top.map_or(0, |t| t.mask), 56);
        for k in 0..4 {
            bits(out, &mut at, st.taken[((seat + k) & 3) as usize], 56);
        }
        for k in 0..4 {
            let n = st.hands[((seat + k) & 3) as usize].count_ones();
            hot(out, &mut at, n as i32, 15);
        }
        for flags in [st.decided, st.grand, st.tichu, st.passed] {
            for k in 0..4 {
                out[at + k as usize] = (flags >> ((seat + k) & 3) & 1) as i8;
            }
            at += 4;
        }
        for (place, &s) in st.out().iter().take(3).enumerate() {
            out[at + rel(s as u32) as usize * 3 + place] = 1;
        }
        at += 12;
        let top_seat = if st.top_seat >= 0 {
            rel(st.top_seat as u32) as i32
        } else {
            -1
        };
        hot(out, &mut at, top_seat, 4);
        out[at] = (st.closing || st.complete) as i8;
        at += 1;
        let to_move = if st.to_move >= 0 {
            rel(st.to_move as u32) as i32
        } else {
            -1
        };
        hot(out, &mut at, to_move, 4);
        hot(out, &mut at, st.wish as i32 - 2, 13);
        hot(out, &mut at, st.phase as i32, 4);
        let given = (st.given_set >> seat & 1 != 0).then(|| st.given[seat as usize]);
        let received = (matches!(st.phase, Phase::Play | Phase::Over)
            && st.start_grand
            && st.given_set == 0b1111)
            .then(|| {
                let g = |k: u32| st.given[((seat + k) & 3) as usize];
                [g(3)[0], g(2)[1], g(1)[2]]
            });
        for cards in [given, received] {
            for k in 0..3 {
                hot(out, &mut at, cards.map_or(-1, |c| c[k] as i32), 56);
            }
        }
        let d = &self.decision;
        hot(
            out,
            &mut at,
            if self.over { D_OVER } else { d.kind } as i32,
            6,
        );
        let mine = !self.over && d.seat as u32 == seat;
        let exchange = mine && d.kind == D_EXCHANGE;
        if exchange {
            for &p in &self.picks[..self.n_picks as usize] {
                out[at + p as usize] = 1;
            }
        }
        at += 56;
        hot(
            out,
            &mut at,
            if exchange { self.n_picks as i32 } else { -1 },
            3,
        );
        let pending = match (mine, self.wish_play) {
            (true, Some(Act::Play { combo, .. })) => combo.mask,
            _ => 0,
        };
        bits(out, &mut at, pending, 56);
        out[at] = 1;
        at += 1;
        debug_assert_eq!(at, OBS_SIZE);
    }

    /// Write the action mask (1 at the legal indices) into `out` (zeroed, `num_actions` wide).
    pub fn mask(&self, out: &mut [i8]) {
        if self.over {
            return;
        }
        for &i in &self.decision.indices {
            out[i as usize] = 1;
        }
    }

    /// Was the decision recomputed since the last call (for callers caching masks)?
    pub fn take_fresh(&mut self) -> bool {
        std::mem::replace(&mut self.fresh, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_has_the_reference_size() {
        assert_eq!(num_actions(), 1589);
        assert_eq!(OBS_SIZE, 964);
    }
}

//! Batched calls: whole random rounds and random rollouts without a step through Python.
//!
//! Deals and choices come from a small fast generator (SplitMix64), not from the reference's
//! `random.Random`: a batched round is a random round of the same rules, not the reference's deal
//! of a seed. Each choice is uniform over the legal actions of the seat to move, as `pagoda bench`
//! plays.

use super::state::{deck, Act, State, Step};
use super::{one, Combo, Rules};

/// SplitMix64: a small, fast generator of 64-bit numbers.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n`.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// A random deal of `rules`: each seat's hand, then the kept cards.
pub fn random_deal(rules: &Rules, rng: &mut Rng) -> ([u128; 4], u128) {
    let mut cards = deck(rules.decks);
    for i in (1..cards.len()).rev() {
        let j = rng.below(i + 1);
        cards.swap(i, j);
    }
    let n = rules.hand_size();
    let mut hands = [0u128; 4];
    for (s, h) in hands.iter_mut().enumerate().take(rules.players) {
        *h = cards[s * n..(s + 1) * n].iter().map(|&i| one(i)).sum();
    }
    let kitty = cards[rules.players * n..].iter().map(|&i| one(i)).sum();
    (hands, kitty)
}

/// A fresh round of a random deal at the auction, a random seat bidding first.
pub fn random_round(rules: &Rules, rng: &mut Rng) -> State {
    let (hands, kitty) = random_deal(rules, rng);
    let first = rng.below(rules.players) as u8;
    let mut s = State::start(*rules, &hands[..rules.players], kitty, first, 1);
    s.keep_history = false;
    s
}

/// Play `state` to its end with uniform random choices; the number of actions taken.
pub fn play_out(state: &mut State, rng: &mut Rng, plays: &mut Vec<Combo>) -> u32 {
    let mut steps = 0;
    while !state.is_over() {
        let seat = state.to_move;
        let act = if state.phase == super::state::Phase::Play {
            plays.clear();
            let pass = state.play_options(seat, plays);
            let k = rng.below(plays.len() + pass as usize);
            if pass && k == 0 {
                Act::Pass
            } else {
                Act::Play(plays[k - pass as usize])
            }
        } else {
            let mut acts = Vec::with_capacity(4);
            state.legal(seat, &mut acts);
            acts[rng.below(acts.len())]
        };
        steps += 1;
        match state.apply(seat, &act) {
            Step::Done => {}
            Step::Redeal => {
                let (hands, kitty) = random_deal(&state.rules, rng);
                let n = state.rules.players;
                state.redeal(&hands[..n], kitty);
            }
            Step::DrawWild => state.wild = rng.below(super::JOKER_B) as i8,
            Step::Illegal => unreachable!("a listed action is legal"),
        }
    }
    steps
}

/// `rounds` whole random rounds of `rules`: each round's score (one row per round) and the
/// total number of actions.
pub fn play_random(rules: &Rules, rounds: usize, seed: u64) -> (Vec<[i64; 4]>, u64) {
    let mut rng = Rng::new(seed);
    let mut plays = Vec::with_capacity(256);
    let mut out = Vec::with_capacity(rounds);
    let mut steps = 0u64;
    for _ in 0..rounds {
        let mut s = random_round(rules, &mut rng);
        steps += play_out(&mut s, &mut rng, &mut plays) as u64;
        out.push(s.score());
    }
    (out, steps)
}

/// `k` random rollouts from `state` (whose deal is known; an all-pass auction redeals at random):
/// the score of each.
pub fn rollouts(state: &State, k: usize, seed: u64) -> Vec<[i64; 4]> {
    let mut rng = Rng::new(seed);
    let mut plays = Vec::with_capacity(256);
    (0..k)
        .map(|_| {
            let mut s = state.clone();
            s.keep_history = false;
            play_out(&mut s, &mut rng, &mut plays);
            s.score()
        })
        .collect()
}

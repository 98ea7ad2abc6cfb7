//! Dou Di Zhu as the decisions of the seat to move over the fixed vocabulary of
//! `pagoda.envs.doudizhu_flow`: the same indices, legal sets, observation vectors and rewards,
//! for the batched environment (round episodes).
//!
//! The vocabulary's plays (the card sets of the preset, from `doudizhu_flow.vocabulary`) are
//! handed in by the caller. A deal, a redeal after an all-pass auction and the laizi wild draw
//! come from the reference's `random.Random` seeded with the text `doudizhu SEED NUMBER [wild]`;
//! the caller turns that text into the seed bytes CPython uses (the text and its SHA-512).

use std::collections::HashMap;
use std::sync::Arc;

use super::pyrandom::{reference_deal, Mt};
use super::state::{Act, Phase, State, Step};
use super::{counts_of, Rules, JOKER_B};

/// The fixed action vocabulary of one preset (`doudizhu_flow.Vocabulary`).
#[derive(Debug)]
pub struct Vocab {
    pub rules: Rules,
    pub plays: Vec<u128>,
    pub index: HashMap<u128, u16>,
    pub max_bid: u16,
    /// Width of a card vector: 4 per rank and 1 per joker, per pack.
    pub width: usize,
    pub max_cards: usize,
    pub obs_size: usize,
}

impl Vocab {
    /// The vocabulary of `rules` with its plays (packed card sets, in index order).
    pub fn new(rules: Rules, plays: Vec<u128>) -> Vocab {
        let max_bid = rules.max_bid as u16;
        let play0 = 3 + max_bid;
        let index = plays
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, play0 + i as u16))
            .collect();
        let width = 54 * rules.decks;
        let max_cards = rules.hand_size() + rules.kitty;
        let p = rules.players;
        let obs_size =
            3 * width + p + p * width + p * (max_cards + 1) + p + 9 + 8 + 13 + 3 + 4 * p + p + 1;
        Vocab {
            rules,
            plays,
            index,
            max_bid,
            width,
            max_cards,
            obs_size,
        }
    }

    pub fn call(&self) -> u16 {
        1 + self.max_bid
    }

    pub fn rob(&self) -> u16 {
        2 + self.max_bid
    }

    pub fn play0(&self) -> u16 {
        3 + self.max_bid
    }

    /// The number of indices.
    pub fn size(&self) -> usize {
        self.play0() as usize + self.plays.len()
    }
}

/// Why a step was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    Over,
    Illegal,
    /// A play the vocabulary does not hold (a vocabulary of other rules).
    Unlisted,
}

/// The seed bytes of a `random.Random(text)` seed, as CPython computes them.
pub type SeedBytes<'a> = dyn FnMut(&str) -> Vec<u8> + 'a;

/// One round as the decisions of the seat to move (`doudizhu_flow.DoudizhuFlow`, `round`).
#[derive(Clone, Debug)]
pub struct Flow {
    pub vocab: Arc<Vocab>,
    pub st: State,
    pub seed: u64,
    pub played: [u128; 4],
    pub over: bool,
    pub returns: [f32; 4],
    pub indices: Vec<u16>,
    pub acts: Vec<Act>,
    scratch: Vec<Act>,
}

impl Flow {
    /// The reference's round of `seed` (`Round.new(seed, rules)`).
    pub fn new(vocab: Arc<Vocab>, seed: u64, seed_bytes: &mut SeedBytes<'_>) -> Flow {
        let rules = vocab.rules;
        let (hands, kitty, first) =
            reference_deal(&seed_bytes(&format!("doudizhu {seed} 1")), &rules);
        let mut st = State::start(rules, &hands, kitty, first as u8, 1);
        st.keep_history = false;
        let mut f = Flow {
            vocab,
            st,
            seed,
            played: [0; 4],
            over: false,
            returns: [0.0; 4],
            indices: Vec::with_capacity(64),
            acts: Vec::with_capacity(64),
            scratch: Vec::with_capacity(256),
        };
        f.decide();
        f
    }

    /// The seat that decides, -1 once over.
    pub fn actor(&self) -> i8 {
        if self.over {
            -1
        } else {
            self.st.to_move as i8
        }
    }

    fn decide(&mut self) {
        self.indices.clear();
        self.acts.clear();
        if self.over {
            return;
        }
        self.scratch.clear();
        self.st.legal(self.st.to_move, &mut self.scratch);
        let v = &self.vocab;
        let wild = self.st.wild;
        // (index, rank, act): a play's rank is (wild cards used, mask), the lowest kept.
        let mut groups: Vec<(u16, (u32, u128), Act)> = Vec::with_capacity(self.scratch.len());
        for a in &self.scratch {
            let (index, rank) = match a {
                Act::Play(c) => {
                    let Some(&i) = v.index.get(&c.reading) else {
                        continue;
                    };
                    let used = if wild >= 0 {
                        ((c.mask >> (5 * wild as u32)) & 31) as u32
                    } else {
                        0
                    };
                    (i, (used, c.mask))
                }
                Act::Pass => (0, (0, 0)),
                Act::Bid(b) => (*b as u16, (0, 0)),
                Act::Call => (v.call(), (0, 0)),
                Act::Rob => (v.rob(), (0, 0)),
            };
            match groups.iter_mut().find(|g| g.0 == index) {
                Some(g) => {
                    if wild < 0 || !matches!(a, Act::Play(_)) || rank < g.1 {
                        g.1 = rank;
                        g.2 = *a;
                    }
                }
                None => groups.push((index, rank, *a)),
            }
        }
        groups.sort_unstable_by_key(|g| g.0);
        for (i, _, a) in groups {
            self.indices.push(i);
            self.acts.push(a);
        }
    }

    /// Is `index` legal now?
    pub fn is_legal(&self, index: u16) -> bool {
        !self.over && self.indices.binary_search(&index).is_ok()
    }

    /// Apply `index`; the rewards it produced, one per seat (zeros but at the end).
    pub fn step(
        &mut self,
        index: u16,
        seed_bytes: &mut SeedBytes<'_>,
    ) -> Result<[f32; 4], StepError> {
        if self.over {
            return Err(StepError::Over);
        }
        let Ok(pos) = self.indices.binary_search(&index) else {
            return Err(StepError::Illegal);
        };
        let act = self.acts[pos];
        let seat = self.st.to_move;
        if let Act::Play(c) = act {
            self.played[seat as usize] += c.mask;
        }
        match self.st.apply(seat, &act) {
            Step::Done => {}
            Step::Redeal => {
                let number = self.st.deal_no + 1;
                let text = format!("doudizhu {} {number}", self.seed);
                let (hands, kitty, _) = reference_deal(&seed_bytes(&text), &self.st.rules);
                self.st.redeal(&hands, kitty);
                self.played = [0; 4];
            }
            Step::DrawWild => {
                let text = format!("doudizhu {} {} wild", self.seed, self.st.deal_no);
                let mut g = Mt::from_be_bytes(&seed_bytes(&text));
                self.st.wild = g.randbelow(JOKER_B as u32) as i8;
            }
            Step::Illegal => return Err(StepError::Illegal),
        }
        let mut rewards = [0.0f32; 4];
        if self.st.phase == Phase::Over {
            self.over = true;
            let s = self.st.score();
            for k in 0..self.st.rules.players {
                rewards[k] = s[k] as f32;
            }
        }
        for (r, x) in self.returns.iter_mut().zip(rewards) {
            *r += x;
        }
        self.decide();
        Ok(rewards)
    }

    /// Write the thermometer card vector of `mask` at `out[0..width]` (`doudizhu_flow.card_vector`).
    fn cards(&self, mask: u128, out: &mut [i8]) {
        let decks = self.st.rules.decks;
        let per = 4 * decks;
        for (i, &n) in counts_of(mask).iter().enumerate() {
            let start = if i < JOKER_B {
                per * i
            } else {
                per * 13 + decks * (i - JOKER_B)
            };
            for slot in &mut out[start..start + n as usize] {
                *slot = 1;
            }
        }
    }

    /// Write the observation of `seat` into `out` (`obs_size` zeroed bytes; `DoudizhuFlow.observe`).
    pub fn observe(&self, seat: u8, out: &mut [i8]) {
        let st = &self.st;
        let v = &*self.vocab;
        let n = st.rules.players as u8;
        let w = v.width;
        let rel = |s: u8| ((s + n - seat) % n) as usize;
        let shown = st.phase != Phase::Auction;
        let mut at = 0;
        self.cards(st.hands[seat as usize], &mut out[at..]);
        at += w;
        if shown {
            self.cards(st.kitty, &mut out[at..]);
        }
        at += w;
        if let Some(top) = &st.top {
            self.cards(top.mask, &mut out[at..]);
        }
        at += w;
        if st.top_seat >= 0 {
            out[at + rel(st.top_seat as u8)] = 1;
        }
        at += n as usize;
        for k in 0..n {
            self.cards(self.played[((seat + k) % n) as usize], &mut out[at..]);
            at += w;
        }
        for k in 0..n {
            let count = super::size_of(st.hands[((seat + k) % n) as usize]) as usize;
            if count <= v.max_cards {
                out[at + count] = 1;
            }
            at += v.max_cards + 1;
        }
        if st.landlord >= 0 {
            out[at + rel(st.landlord as u8)] = 1;
        }
        at += n as usize;
        out[at + st.bid.min(8) as usize] = 1;
        at += 9;
        for k in 0..8u32 {
            out[at + k as usize] = (k < st.doubles) as i8;
        }
        at += 8;
        if st.wild >= 0 && shown {
            out[at + st.wild as usize] = 1;
        }
        at += 13;
        out[at + st.phase as usize] = 1;
        at += 3;
        for (s, a) in &st.auction {
            let word = match a {
                Act::Pass => 0,
                Act::Bid(_) => 1,
                Act::Call => 2,
                Act::Rob => 3,
                Act::Play(_) => continue,
            };
            out[at + rel(*s) * 4 + word] = 1;
        }
        at += 4 * n as usize;
        out[at + rel(st.to_move)] = 1;
        at += n as usize;
        out[at] = 1;
        at += 1;
        debug_assert_eq!(at, v.obs_size);
    }

    /// Write the action mask (1 at the legal indices) into `out` (zeroed, `size` wide).
    pub fn mask(&self, out: &mut [i8]) {
        for &i in &self.indices {
            out[i as usize] = 1;
        }
    }
}

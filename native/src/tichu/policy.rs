//! The `heuristic` Tichu bot's play rules (`pagoda.bots.tichu.heuristic` and `hand.py`), ported:
//! the same hand partition and the same choice in every play-phase decision, so a rollout with
//! it plays the reference bot's round without a step through Python.
//!
//! The bot is deterministic (it draws no random numbers), so the port needs no generator. It
//! reads only what the seat's view shows: its hand, the hand sizes, the calls, the trick, the
//! cards not yet seen and its own exchange. Every rule below names the reference function it
//! ports; ties are broken as Python's `min`, `max` and stable `sorted` break them (the first
//! in list order).
//!
//! The Grand Tichu and exchange decisions are not ported: a rollout from there is refused
//! ([`heuristic_action`] answers `None`).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::movegen::{bomb_plays, has_bomb};
use super::state::{Act, Phase, State};
use super::*;

// ---------------------------------------------------------------------------- hand partition

/// A shape (`hand.shape`): 4 bits per index, index 0 the Phoenix, 1 the Mah Jong, 2..14 the
/// count of each rank. A combination of a plan (`Use`) is packed the same way.
type Packed = u64;

#[inline]
fn get(s: Packed, i: usize) -> u32 {
    ((s >> (4 * i)) & 0xF) as u32
}

#[inline]
fn one(i: usize, n: u32) -> Packed {
    (n as u64) << (4 * i)
}

/// The shape of the cards in `mask` (the Dog and the Dragon left out).
pub fn shape(mask: u64) -> Packed {
    let mut s =
        one(0, (mask & PHOENIX_BIT != 0) as u32) | one(1, (mask & MAH_JONG_BIT != 0) as u32);
    for r in 2..15u32 {
        s |= one(r as usize, ((mask >> rank_shift(r)) & 0xF).count_ones());
    }
    s
}

const LOW_SINGLE: u32 = 11;
const MEMO_LIMIT: usize = 400_000;

/// A multiplicative hasher for the packed shapes (the std SipHash is several times slower).
#[derive(Default)]
struct ShapeHasher(u64);

impl Hasher for ShapeHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (x ^ (x >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Per shape: the cost of its best partition and the first combination of that plan.
type Memo = HashMap<Packed, (u32, Packed), BuildHasherDefault<ShapeHasher>>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// Every combination holding a card of the lowest rank held, with its tie-break cost, in the
/// reference's order (`hand._options`).
fn options(s: Packed, out: &mut Vec<(Packed, u32)>) {
    let ph = get(s, 0);
    let low = (1..15).find(|&r| get(s, r) != 0).unwrap();
    let c = get(s, low);
    out.push((one(low, 1), (low < LOW_SINGLE as usize) as u32));
    if low >= 2 {
        if c >= 2 {
            out.push((one(low, 2), 0));
        }
        if c >= 1 && ph != 0 {
            out.push((one(low, 1) | one(0, 1), 0));
        }
        if c >= 3 {
            out.push((one(low, 3), 0));
        }
        if c >= 2 && ph != 0 {
            out.push((one(low, 2) | one(0, 1), 0));
        }
        if c == 4 {
            out.push((one(low, 4), 0));
        }
        for other in 2..15 {
            if other == low || get(s, other) == 0 {
                continue;
            }
            let o = get(s, other);
            for (a, b, p) in [(3, 2, 0), (2, 3, 0), (2, 2, 1), (3, 1, 1), (1, 3, 1)] {
                if c >= a && o >= b && ph >= p {
                    out.push((one(low, a) | one(other, b) | one(0, p), 0));
                }
            }
        }
        // pair runs from low: one card of at most one rank may be the Phoenix
        let mut used_ph = false;
        let mut use_ = 0;
        let mut r = low;
        while r <= 14 && get(s, r) != 0 {
            if get(s, r) >= 2 {
                use_ |= one(r, 2);
            } else if ph != 0 && !used_ph {
                use_ |= one(r, 1);
                used_ph = true;
            } else {
                break;
            }
            if r > low {
                out.push((use_ | one(0, used_ph as u32), 0));
            }
            r += 1;
        }
    }
    // straights from low: one rank missing or one past the end may be the Phoenix
    for use_ph in if ph != 0 { 0..2 } else { 0..1 } {
        let mut gap = 0;
        let mut use_ = 0;
        let mut n = 0;
        let mut r = low;
        while r <= 14 {
            if get(s, r) != 0 {
                use_ |= one(r, 1);
                n += 1;
            } else if use_ph == 1 && gap == 0 && r > low {
                gap = r;
            } else {
                break;
            }
            let length = n + (gap != 0) as usize;
            if use_ph == 1 && gap == 0 {
                if length + 1 >= 5 && (r < 14 || low > 2) {
                    out.push((use_ | one(0, 1), 0));
                }
            } else if length >= 5 && gap != r {
                out.push((use_ | one(0, use_ph), 0));
            }
            r += 1;
        }
    }
}

/// (cost, first combination) of the shape's best partition (`hand._best`): cost = 100 x
/// combinations + low singles; the first option reaching the least cost wins.
fn best(memo: &mut Memo, s: Packed) -> (u32, Packed) {
    if s == 0 {
        return (0, 0);
    }
    if let Some(&found) = memo.get(&s) {
        return found;
    }
    let found = if get(s, 0) != 0 && s >> 4 == 0 {
        (100, one(0, 1))
    } else {
        let mut opts = Vec::with_capacity(32);
        options(s, &mut opts);
        let mut found = (1u32 << 30, 0);
        for (use_, extra) in opts {
            let cost = best(memo, s - use_).0 + 100 + extra;
            if cost < found.0 {
                found = (cost, use_);
            }
        }
        found
    };
    if memo.len() > MEMO_LIMIT {
        memo.clear();
    }
    memo.insert(s, found);
    found
}

fn with_memo<T>(f: impl FnOnce(&mut Memo) -> T) -> T {
    MEMO.with(|m| f(&mut m.borrow_mut()))
}

fn specials(mask: u64) -> u32 {
    (mask & DOG_BIT != 0) as u32 + (mask & DRAGON_BIT != 0) as u32
}

fn straight_flushes(mask: u64) -> Vec<Combo> {
    let mut v = Vec::new();
    if has_bomb(mask) {
        bomb_plays(mask, None, &mut v);
        v.retain(|b| b.kind == Kind::StraightFlush);
    }
    v
}

/// 100 x the fewest combinations `mask` splits into, plus its low singles (`partition_cost`).
pub fn partition_cost(mask: u64) -> u32 {
    let mut cost = with_memo(|m| best(m, shape(mask)).0) + 100 * specials(mask);
    for b in straight_flushes(mask) {
        cost = cost.min(100 + partition_cost(mask & !b.mask));
    }
    cost
}

/// The fewest combinations (bombs included) the cards of `mask` can be played as.
pub fn min_combos(mask: u64) -> u32 {
    partition_cost(mask) / 100
}

/// The reference's `_order` of a partition: by rank (the Dog 0), the longer first.
fn order_key(c: &Combo) -> (u8, i32) {
    (
        if c.mask == DOG_BIT { 0 } else { c.rank2 },
        -(c.len() as i32),
    )
}

/// A partition of `mask` into the fewest combinations, lowest first (`hand.partition`).
pub fn partition(mask: u64) -> Vec<Combo> {
    let base = with_memo(|m| best(m, shape(mask)).0) + 100 * specials(mask);
    let mut best_cost = base;
    let mut flush: Option<Combo> = None;
    for b in straight_flushes(mask) {
        let c = 100 + partition_cost(mask & !b.mask);
        if c < best_cost {
            best_cost = c;
            flush = Some(b);
        }
    }
    let mut out = Vec::with_capacity(14);
    if let Some(f) = flush {
        out.push(f);
        out.extend(partition(mask & !f.mask));
    } else {
        // the plan, combination by combination, each with the lowest cards of its ranks
        let mut s = shape(mask);
        let mut left = mask;
        with_memo(|m| {
            while s != 0 {
                let use_ = best(m, s).1;
                s -= use_;
                let mut cards = 0u64;
                if get(use_, 0) != 0 {
                    cards |= PHOENIX_BIT;
                }
                if get(use_, 1) != 0 {
                    cards |= MAH_JONG_BIT;
                }
                for r in 2..15u32 {
                    let mut nib = (left >> rank_shift(r)) & 0xF;
                    for _ in 0..get(use_, r as usize) {
                        let bit = nib & nib.wrapping_neg();
                        nib &= !bit;
                        cards |= bit << rank_shift(r);
                    }
                }
                left &= !cards;
                out.push(classify(cards, None).expect("a plan gives combinations"));
            }
        });
        for special in [DOG_BIT, DRAGON_BIT] {
            if mask & special != 0 {
                out.push(classify(special, None).unwrap());
            }
        }
    }
    out.sort_by_key(order_key); // stable, as `sorted`
    out
}

/// Controls (`hand_controls`): the Dragon and the Phoenix 1 each, an Ace 0.75, a bomb 1.5.
pub fn hand_controls(hand: u64) -> f64 {
    let aces = (hand & rank_mask(14)).count_ones() as f64;
    let mut score = 0.75 * aces
        + if hand & DRAGON_BIT != 0 { 1.0 } else { 0.0 }
        + if hand & PHOENIX_BIT != 0 { 1.0 } else { 0.0 };
    if has_bomb(hand) {
        let mut v = Vec::new();
        bomb_plays(hand, None, &mut v);
        let mut seen = 0u64;
        for b in v {
            if b.mask & seen == 0 {
                score += 1.5;
                seen |= b.mask;
            }
        }
    }
    score
}

/// Call Tichu with this 14-card hand (`tichu_worthy`)?
pub fn tichu_worthy(hand: u64) -> bool {
    let n = (partition_cost(hand) / 100) as f64;
    n <= 6.0 && n <= 2.0 * hand_controls(hand) - 1.0
}

// ---------------------------------------------------------------------------- the view

/// What the seat's view shows that the rules read.
pub struct Seen<'a> {
    pub(super) st: &'a State,
    pub(super) seat: u32,
    pub(super) hand: u64,
    pub(super) unseen: u64,
}

impl<'a> Seen<'a> {
    pub(super) fn new(st: &'a State, seat: u32) -> Seen<'a> {
        let hand = st.hands[seat as usize];
        let played = st.taken.iter().fold(st.trick_cards, |m, t| m | t);
        Seen {
            st,
            seat,
            hand,
            unseen: FULL_DECK & !hand & !played,
        }
    }

    pub(super) fn size(&self, s: u32) -> u32 {
        self.st.hands[(s & 3) as usize].count_ones()
    }

    pub(super) fn called(&self, s: u32) -> bool {
        (self.st.tichu | self.st.grand) >> (s & 3) & 1 != 0
    }

    pub(super) fn partner(&self) -> u32 {
        (self.seat + 2) & 3
    }

    /// `_urgent`: the trick's winner is an opponent close to going out or who called.
    pub(super) fn urgent(&self) -> bool {
        let top = self.st.top_seat;
        if top < 0 || (top as u32 + 4 - self.seat).is_multiple_of(2) {
            return false;
        }
        let left = self.size(top as u32);
        left <= 3 || (self.called(top as u32) && left <= 8)
    }

    /// `_supporting`: the partner called and is still in.
    pub(super) fn supporting(&self) -> bool {
        self.size(self.partner()) > 0 && self.called(self.partner())
    }

    /// `_boss`: can nothing unseen beat `c` (bombs aside)?
    pub(super) fn boss(&self, c: &Combo) -> bool {
        let unseen = self.unseen;
        match c.kind {
            Kind::Single => {
                if c.mask == DRAGON_BIT {
                    return true;
                }
                if c.mask == PHOENIX_BIT || c.mask == DOG_BIT || unseen & DRAGON_BIT != 0 {
                    return false;
                }
                if unseen & PHOENIX_BIT != 0 {
                    return false;
                }
                (c.rank() + 1..15).all(|k| unseen & rank_mask(k) == 0)
            }
            Kind::Pair | Kind::Triple => {
                let need = if c.kind == Kind::Pair { 2 } else { 3 };
                let ph = (unseen & PHOENIX_BIT != 0) as u32;
                (c.rank() + 1..15).all(|k| (unseen & rank_mask(k)).count_ones() + ph < need)
            }
            _ => false,
        }
    }

    /// `_with_wish`: among plays of the same cards with different wishes, the one preferred.
    pub(super) fn with_wish(&self, same: &[Act]) -> Act {
        let m = act_mask(&same[0]);
        if same.len() == 1 || m & MAH_JONG_BIT == 0 {
            return same[0];
        }
        // `{a.wish: a for a in actions}`: the last play of each wish
        let of_wish = |w: u8| same.iter().rev().find(|a| act_wish(a) == w).copied();
        let hand = self.hand & !m;
        let mut wanted: Vec<u32> = Vec::with_capacity(14);
        if self.st.given_set >> self.seat & 1 != 0 {
            let rank = card_rank(self.st.given[self.seat as usize][0] as u32);
            if (2..=14).contains(&rank) {
                wanted.push(rank);
            }
        }
        wanted.extend((2..15).rev());
        for rank in wanted {
            if let Some(a) = of_wish(rank as u8) {
                if hand & rank_mask(rank) == 0 && self.unseen & rank_mask(rank) != 0 {
                    return a;
                }
            }
        }
        of_wish(0).unwrap_or(same[0])
    }
}

pub(super) fn act_mask(a: &Act) -> u64 {
    match a {
        Act::Play { combo, .. } => combo.mask,
        _ => 0,
    }
}

pub(super) fn act_wish(a: &Act) -> u8 {
    match a {
        Act::Play { wish, .. } => *wish,
        _ => 0,
    }
}

pub(super) fn act_combo(a: &Act) -> Combo {
    match a {
        Act::Play { combo, .. } => *combo,
        _ => unreachable!("a play"),
    }
}

pub(super) fn is_control(c: &Combo) -> bool {
    if c.is_bomb() {
        return true;
    }
    c.kind == Kind::Single && (c.mask == DRAGON_BIT || c.mask == PHOENIX_BIT || c.rank2 >= 28)
}

/// `_lead_key`: the lowest rank (the Dog as an 8), the longer, the lower cards.
pub(super) fn lead_key(c: &Combo) -> (u8, i32, u64) {
    let rank2 = if c.mask == DOG_BIT { 16 } else { c.rank2 };
    (rank2, -(c.len() as i32), c.mask)
}

/// `_bomb_order`: the weakest bomb first.
pub(super) fn bomb_order(a: &Act) -> (bool, u32, u8, u64) {
    let c = act_combo(a);
    let (sf, len, rank2) = c.bomb_key();
    (sf, len, rank2, c.mask)
}

pub(super) fn weakest_bomb(bombs: &[Act]) -> Act {
    *bombs.iter().min_by_key(|a| bomb_order(a)).unwrap()
}

pub(super) fn bomb_goes_out(hand: u64, bombs: &[Act]) -> bool {
    bombs
        .iter()
        .any(|a| partition_cost(hand & !act_mask(a)) <= 100)
}

// ---------------------------------------------------------------------------- decisions

/// A bot's play-phase rules: what the dispatch of `HeuristicBot.play` asks of it. The
/// `heuristic` bot ([`Heuristic`]) and the `club` bot ([`super::club::Club`]) implement it.
pub trait Player {
    /// `_offer`: a bomb out of turn, or `NoBomb`.
    fn offer(&self, v: &Seen<'_>, legal: &[Act]) -> Act;
    /// `_call_tichu`.
    fn call_tichu(&self, v: &Seen<'_>) -> bool;
    /// `_give_dragon`.
    fn give_dragon(&self, v: &Seen<'_>, gives: &[Act]) -> Act;
    /// `_lead`.
    fn lead(&self, v: &Seen<'_>, plays: &[Act]) -> Act;
    /// `_follow`.
    fn follow(&self, v: &Seen<'_>, plays: Vec<Act>, pass: bool) -> Act;
}

/// The `heuristic` bot.
pub struct Heuristic;

impl Player for Heuristic {
    fn offer(&self, v: &Seen<'_>, legal: &[Act]) -> Act {
        offer(v, legal)
    }
    fn call_tichu(&self, v: &Seen<'_>) -> bool {
        call_tichu(v)
    }
    fn give_dragon(&self, v: &Seen<'_>, gives: &[Act]) -> Act {
        give_dragon(v, gives)
    }
    fn lead(&self, v: &Seen<'_>, plays: &[Act]) -> Act {
        lead(v, plays)
    }
    fn follow(&self, v: &Seen<'_>, plays: Vec<Act>, pass: bool) -> Act {
        follow(v, plays, pass)
    }
}

/// `player`'s choice for `seat` among `legal` (the seat's actions, in the reference's order) in
/// the play phase (`HeuristicBot.play`); `None` outside it.
pub fn choose(player: &impl Player, st: &State, seat: u32, legal: &[Act]) -> Option<Act> {
    if st.phase != Phase::Play || legal.is_empty() {
        return None;
    }
    let v = Seen::new(st, seat);
    if legal.contains(&Act::NoBomb) {
        return Some(player.offer(&v, legal));
    }
    if legal.contains(&Act::Tichu) && player.call_tichu(&v) {
        return Some(Act::Tichu);
    }
    let gives: Vec<Act> = legal
        .iter()
        .filter(|a| matches!(a, Act::GiveDragon(_)))
        .copied()
        .collect();
    if !gives.is_empty() {
        return Some(player.give_dragon(&v, &gives));
    }
    if legal.contains(&Act::Take) {
        return Some(Act::Take);
    }
    let plays: Vec<Act> = legal
        .iter()
        .filter(|a| matches!(a, Act::Play { .. }))
        .copied()
        .collect();
    let pass = legal.contains(&Act::Pass);
    Some(if st.top.is_none() {
        player.lead(&v, &plays)
    } else {
        player.follow(&v, plays, pass)
    })
}

/// The heuristic's choice for `seat` among `legal` in the play phase; `None` outside it.
pub fn heuristic_action(st: &State, seat: u32, legal: &[Act]) -> Option<Act> {
    choose(&Heuristic, st, seat, legal)
}

/// `_call_tichu`: 14 cards worth it, and the partner has not called.
fn call_tichu(v: &Seen<'_>) -> bool {
    !v.called(v.partner()) && v.hand.count_ones() == 14 && tichu_worthy(v.hand)
}

/// `_give_dragon`: to the opponent who did not call, else the one with more cards.
fn give_dragon(v: &Seen<'_>, gives: &[Act]) -> Act {
    let key = |a: &Act| {
        let Act::GiveDragon(t) = a else {
            unreachable!()
        };
        let t = *t as u32;
        (if v.called(t) { 0 } else { 1 }, v.size(t))
    };
    let mut best = gives[0];
    for a in &gives[1..] {
        if key(a) > key(&best) {
            best = *a; // `max` keeps the first of equal keys
        }
    }
    best
}

/// `_offer`: a bomb out of turn only against an opponent about to go out, or to go out.
fn offer(v: &Seen<'_>, legal: &[Act]) -> Act {
    let bombs: Vec<Act> = legal
        .iter()
        .filter(|a| matches!(a, Act::Play { .. }))
        .copied()
        .collect();
    let top = v.st.top_seat;
    if !bombs.is_empty() && top >= 0 && (top as u32 + 4 - v.seat) % 2 == 1 {
        if v.urgent() && v.size(top as u32) <= 2 {
            return weakest_bomb(&bombs);
        }
        if bomb_goes_out(v.hand, &bombs) {
            return weakest_bomb(&bombs);
        }
    }
    Act::NoBomb
}

/// `_lead`.
pub(super) fn lead(v: &Seen<'_>, plays: &[Act]) -> Act {
    let hand = v.hand;
    // `by_mask`: the plays grouped by their cards, in first-seen order
    let mut by_mask: Vec<(u64, Vec<Act>)> = Vec::with_capacity(plays.len());
    for a in plays {
        let m = act_mask(a);
        match by_mask.iter_mut().find(|g| g.0 == m) {
            Some(g) => g.1.push(*a),
            None => by_mask.push((m, vec![*a])),
        }
    }
    let find = |by: &[(u64, Vec<Act>)], m: u64| by.iter().position(|g| g.0 == m);
    if let Some(i) = find(&by_mask, hand) {
        if !v.supporting() || by_mask.len() == 1 {
            return v.with_wish(&by_mask[i].1);
        }
        by_mask.remove(i); // let the partner who called go out first
    }
    let parts: Vec<Combo> = partition(hand)
        .into_iter()
        .filter(|c| find(&by_mask, c.mask).is_some())
        .collect();
    if parts.is_empty() {
        // the wish forces something outside the partition
        let g = by_mask
            .iter()
            .min_by_key(|g| (partition_cost(hand & !g.0), g.0))
            .unwrap();
        return v.with_wish(&g.1);
    }
    let group = |m: u64| &by_mask[find(&by_mask, m).unwrap()].1;
    let partner = v.partner();
    if hand & DOG_BIT != 0
        && find(&by_mask, DOG_BIT).is_some()
        && v.size(partner) != 0
        && (v.called(partner) || v.size(partner) + 2 < hand.count_ones())
    {
        return group(DOG_BIT)[0];
    }
    let bosses: Vec<Combo> = parts
        .iter()
        .filter(|c| v.boss(c) || c.is_bomb())
        .copied()
        .collect();
    let others: Vec<Combo> = parts
        .iter()
        .filter(|c| !bosses.contains(c) && c.mask != DOG_BIT)
        .copied()
        .collect();
    if others.len() <= 1 && !bosses.is_empty() {
        let non_bombs: Vec<&Combo> = bosses.iter().filter(|c| !c.is_bomb()).collect();
        if !non_bombs.is_empty() && !others.is_empty() {
            let c = non_bombs.iter().min_by_key(|c| lead_key(c)).unwrap();
            return v.with_wish(group(c.mask));
        }
        if !others.is_empty() {
            return v.with_wish(group(others[0].mask));
        }
    }
    let mut pool: Vec<Combo> = parts.iter().filter(|c| !is_control(c)).copied().collect();
    if pool.is_empty() {
        pool = parts.clone();
    }
    let opp_min = [(v.seat + 1) & 3, (v.seat + 3) & 3]
        .iter()
        .map(|&s| v.size(s))
        .filter(|&n| n != 0)
        .min()
        .unwrap_or(14);
    if opp_min == 1 {
        let multi: Vec<Combo> = pool.iter().filter(|c| c.len() > 1).copied().collect();
        if !multi.is_empty() {
            pool = multi;
        } else {
            let singles: Vec<&Combo> = parts
                .iter()
                .filter(|c| c.kind == Kind::Single && c.mask != DOG_BIT)
                .collect();
            if !singles.is_empty() {
                // `max` keeps the first of equal ranks
                let mut top = singles[0];
                for c in &singles[1..] {
                    if c.rank2 > top.rank2 {
                        top = c;
                    }
                }
                pool = vec![*top];
            }
        }
    }
    let choice = pool.iter().min_by_key(|c| lead_key(c)).unwrap();
    v.with_wish(group(choice.mask))
}

/// `_follow`.
fn follow(v: &Seen<'_>, mut plays: Vec<Act>, pass: bool) -> Act {
    let hand = v.hand;
    let supporting = v.supporting();
    if !supporting {
        if let Some(a) = plays.iter().find(|a| act_mask(a) == hand) {
            return *a; // going out
        }
    }
    if supporting && pass {
        plays.retain(|a| act_mask(a) != hand);
    }
    if plays.is_empty() {
        assert!(pass, "a seat that cannot play may pass");
        return Act::Pass;
    }
    if v.st.top_seat >= 0 && v.st.top_seat as u32 == v.partner() && pass {
        return Act::Pass;
    }
    let base = partition_cost(hand) as i64;
    let urgent = v.urgent();
    let trick_points = count_points(v.st.trick_cards);
    let endgame = base <= 300;
    let called = v.called(v.seat);
    let mut scored: Vec<(i64, u8, Act)> = Vec::with_capacity(plays.len());
    let mut bombs: Vec<Act> = Vec::new();
    for a in &plays {
        let combo = act_combo(a);
        if combo.is_bomb() {
            bombs.push(*a);
            continue;
        }
        let damage = partition_cost(hand & !combo.mask) as i64 - (base - 100);
        scored.push((damage, combo.rank2, *a));
    }
    scored.sort_by_key(|t| (t.0, t.1, act_mask(&t.2))); // stable, as `list.sort`
    let same =
        |m: u64| -> Vec<Act> { plays.iter().filter(|b| act_mask(b) == m).copied().collect() };
    if let Some(&(damage, _, a)) = scored.first() {
        let combo = act_combo(&a);
        let is_single = combo.kind == Kind::Single;
        let control = combo.mask == DRAGON_BIT || combo.mask == PHOENIX_BIT;
        let high = is_single && combo.mask & rank_mask(14) != 0;
        // the reference's loop decides on the first scored play (each branch returns or breaks)
        if damage <= 0 && !control && !high {
            return v.with_wish(&same(combo.mask));
        }
        if damage <= 0 && high && (urgent || trick_points >= 10 || endgame || called) {
            return a;
        }
        if control
            && (urgent || endgame || (called && combo.mask == DRAGON_BIT) || trick_points >= 20)
        {
            return a;
        }
        if damage <= 100 && urgent {
            return v.with_wish(&same(combo.mask));
        }
    }
    if !bombs.is_empty() && (urgent || bomb_goes_out(hand, &bombs)) {
        return weakest_bomb(&bombs);
    }
    if pass {
        return Act::Pass;
    }
    if let Some(&(_, _, best)) = scored.first() {
        return v.with_wish(&same(act_mask(&best)));
    }
    weakest_bomb(&bombs)
}

// ---------------------------------------------------------------------------- rollouts

/// The rollout policies.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Policy {
    /// Uniform over the first seat's actions ([`super::batch::random_step`]).
    Random,
    /// The `heuristic` bot at every seat (play phase only).
    Heuristic,
    /// The `club` bot at every seat (play phase only).
    Club(super::club::Club),
}

const PLAY_PHASE_ONLY: &str =
    "the bot policies play the play phase only (no Grand Tichu or exchange)";

/// One step of `player` for the first seat asked; `Ok(false)` once the round is over, `Err`
/// outside the play phase (the Grand Tichu and the exchange are not ported).
pub fn bot_step(
    player: &impl Player,
    state: &mut State,
    acts: &mut Vec<Act>,
) -> Result<bool, &'static str> {
    let seat = state.first_asked();
    if seat < 0 {
        return Ok(false);
    }
    let seat = seat as u32;
    acts.clear();
    state.legal(seat, acts);
    let act = choose(player, state, seat, acts).ok_or(PLAY_PHASE_ONLY)?;
    state.apply(seat, &act);
    Ok(true)
}

/// Play `state` to its end with `player` at every seat; the number of actions taken.
pub fn bot_play_out(
    player: &impl Player,
    state: &mut State,
    acts: &mut Vec<Act>,
) -> Result<u64, &'static str> {
    let mut steps = 0;
    while bot_step(player, state, acts)? {
        steps += 1;
        if steps > 5000 {
            return Err("the round did not end in 5000 decisions");
        }
    }
    Ok(steps)
}

/// One rollout's end: the score (teams 0+2, 1+3) and the seat out first (-1: none).
pub type Ending = (i32, i32, i8);

/// `k` rollouts from `state` with `policy`: the score of each and the seat out first.
pub fn rollouts(
    state: &State,
    k: usize,
    seed: u64,
    policy: Policy,
) -> Result<Vec<Ending>, &'static str> {
    let mut acts = Vec::with_capacity(256);
    let mut rng = super::batch::Rng::new(seed);
    let mut out = Vec::with_capacity(k);
    let mut first: Option<State> = None;
    for _ in 0..k {
        let mut s = *state;
        // the bots are deterministic: every rollout of one plays the same round
        match (policy, first) {
            (Policy::Random, _) => {
                super::batch::play_out(&mut s, &mut rng, &mut acts);
            }
            (_, Some(done)) => s = done,
            (Policy::Heuristic, None) => {
                bot_play_out(&Heuristic, &mut s, &mut acts)?;
                first = Some(s);
            }
            (Policy::Club(club), None) => {
                bot_play_out(&club, &mut s, &mut acts)?;
                first = Some(s);
            }
        }
        let (a, b) = s.score();
        let out_first = if s.n_out > 0 { s.out[0] as i8 } else { -1 };
        out.push((a, b, out_first));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> u64 {
        parse_cards(text).unwrap()
    }

    #[test]
    fn partitions_as_the_reference_docs() {
        assert_eq!(min_combos(m("2g 3k 4b 5r 6g 9g 9k")), 2);
        let names: Vec<String> = partition(m("Mj 2g 3k 4b 5r Ph Dr"))
            .iter()
            .map(|c| format_cards(c.mask))
            .collect();
        assert_eq!(names, vec!["Mj 2g 3k 4b 5r Ph", "Dr"]);
    }
}

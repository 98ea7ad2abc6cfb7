//! The `heuristic` Dou Di Zhu bot on the native core: the same choices as the Python bot
//! (`pagoda/bots/doudizhu/heuristic.py` and `hand.py`), step for step, for fast playouts.
//!
//! Every function here mirrors one of the reference's, in the same order of search, the same
//! tie-breaks and the same floating-point operations, so that a decision is the reference's
//! exactly (held equal by `tests/native/test_doudizhu_policy.py` on thousands of positions). The
//! bot reads only what the seat's view holds: its hand, the other seats' card counts, the play on
//! the table and its seat, the landlord, and the cards not yet seen (in the play every card is in
//! a hand or played, so the unseen cards are the other hands together).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::state::{Act, Phase, State, Step};
use super::{counts_of, one, size_of, Combo, Kind, Rules, ACE, JOKER_B, JOKER_R, NUM_RANKS};

const TWO: usize = 12;
/// A play that empties the hand.
const WIN: f64 = 1e6;
/// What each combination of the plan left after a play that nothing unseen can beat is worth.
const SAFE_GROUP: f64 = 3.0;
/// The bonus for leading a safe combination when at most one of the rest can be beaten.
const PLAY_OUT: f64 = 30.0;
/// How much more the landlord, alone against two, wants to beat a peasant's play than to pass.
const LANDLORD_CONTEST: f64 = 8.0;

/// One combination of a partition (`hand.Group`): its kind, main rank (3..17) and cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    kind: Kind,
    rank: usize,
    mask: u128,
}

type Plan = Rc<Vec<Group>>;

/// Fewest plays first; then fewest solos below an ace (`hand._cost`).
fn cost(plan: &[Group]) -> (usize, usize) {
    let solos = plan
        .iter()
        .filter(|g| g.kind == Kind::Solo && g.rank - 3 < ACE)
        .count();
    (plan.len(), solos)
}

const MEMO_MAX: usize = 1 << 18;

thread_local! {
    /// Plans by packed hand, for the rules they were made with (`hand._MEMO`).
    static MEMO: RefCell<(Option<Rules>, HashMap<u128, Plan>)> = RefCell::new((None, HashMap::new()));
}

fn memo_get(mask: u128, rules: &Rules) -> Option<Plan> {
    MEMO.with(|m| {
        let m = m.borrow();
        if m.0.as_ref() == Some(rules) {
            m.1.get(&mask).cloned()
        } else {
            None
        }
    })
}

fn memo_put(mask: u128, rules: &Rules, plan: Plan) {
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.0.as_ref() != Some(rules) || m.1.len() >= MEMO_MAX {
            m.0 = Some(*rules);
            m.1.clear();
        }
        m.1.insert(mask, plan);
    })
}

/// The fewest combinations the packed hand `mask` plays out in, bombs kept whole (`hand.partition`).
fn partition(mask: u128, rules: &Rules) -> Plan {
    if let Some(found) = memo_get(mask, rules) {
        return found;
    }
    let c = counts_of(mask);
    let mut best = leaf(&c, rules);
    let mut best_cost = cost(&best);
    if best_cost.0 > 1 {
        for (per, start, length) in runs(&c, rules) {
            let run_mask: u128 = (start..start + length).map(|i| per as u128 * one(i)).sum();
            let rest = mask - run_mask;
            let kind = match per {
                1 => Kind::Chain,
                2 => Kind::PairChain,
                _ => Kind::Plane,
            };
            let mut options = vec![(
                Group {
                    kind,
                    rank: start + length + 2,
                    mask: run_mask,
                },
                rest,
            )];
            if per == 3 {
                plane_kickers(run_mask, rest, start, length, rules, &mut options);
            }
            for (group, left) in options {
                let below = partition(left, rules);
                let mut plan = Vec::with_capacity(below.len() + 1);
                plan.push(group);
                plan.extend_from_slice(&below);
                let c2 = cost(&plan);
                if c2 < best_cost {
                    best = plan;
                    best_cost = c2;
                }
            }
        }
    }
    let plan = Rc::new(best);
    memo_put(mask, rules, plan.clone());
    plan
}

fn min_plays(mask: u128, rules: &Rules) -> usize {
    partition(mask, rules).len()
}

/// Every chain, pair chain and plane the counts hold: (cards per rank, first rank index, length).
fn runs(c: &[u8; NUM_RANKS], rules: &Rules) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for per in [3usize, 2, 1] {
        let m = match per {
            1 => rules.chain_min,
            2 => rules.pair_chain_min,
            _ => rules.plane_min,
        };
        for start in 0..=ACE {
            let mut end = start;
            while end <= ACE && c[end] as usize >= per {
                end += 1;
            }
            for stop in start + m..=end {
                out.push((per, start, stop - start));
            }
        }
    }
    out
}

/// The plane with the lowest `length` left-over solos, or pairs, as its kickers.
fn plane_kickers(
    run_mask: u128,
    rest: u128,
    start: usize,
    length: usize,
    rules: &Rules,
    out: &mut Vec<(Group, u128)>,
) {
    let c = counts_of(rest);
    let rank = start + length + 2;
    let outside = (0..NUM_RANKS).filter(|&i| !(start <= i && i < start + length));
    if rules.plane_solo {
        let mut solos: Vec<usize> = outside.clone().filter(|&i| c[i] == 1).collect();
        if c[JOKER_B] == 1 && c[JOKER_R] == 1 && !rules.kicker_rocket {
            solos.retain(|&i| i != JOKER_R);
        }
        if solos.len() >= length {
            let kick: u128 = solos[..length].iter().map(|&i| one(i)).sum();
            out.push((
                Group {
                    kind: Kind::PlaneSolo,
                    rank,
                    mask: run_mask + kick,
                },
                rest - kick,
            ));
        }
    }
    let pairs: Vec<usize> = outside.filter(|&i| c[i] == 2).collect();
    if pairs.len() >= length {
        let kick: u128 = pairs[..length].iter().map(|&i| 2 * one(i)).sum();
        out.push((
            Group {
                kind: Kind::PlanePair,
                rank,
                mask: run_mask + kick,
            },
            rest - kick,
        ));
    }
}

/// The plan without runs: rocket, bombs, trios (with kickers), pairs, solos (`hand._leaf`).
fn leaf(counts: &[u8; NUM_RANKS], rules: &Rules) -> Vec<Group> {
    let mut c = *counts;
    let mut groups = Vec::new();
    let d = rules.decks as u8;
    if c[JOKER_B] == d && c[JOKER_R] == d {
        groups.push(Group {
            kind: Kind::Rocket,
            rank: 17,
            mask: d as u128 * (one(JOKER_B) + one(JOKER_R)),
        });
        c[JOKER_B] = 0;
        c[JOKER_R] = 0;
    }
    let mut trios = Vec::new();
    let mut pairs = std::collections::VecDeque::new();
    let mut solos = std::collections::VecDeque::new();
    for (i, &n) in c.iter().enumerate() {
        if n >= 4 && i < JOKER_B {
            groups.push(Group {
                kind: Kind::Bomb,
                rank: i + 3,
                mask: n as u128 * one(i),
            });
        } else if n == 3 {
            trios.push(i);
        } else if n == 2 {
            pairs.push_back(i);
        } else if n == 1 {
            solos.push_back(i);
        }
    }
    for t in trios {
        let trio = 3 * one(t);
        // the lowest solo below an ace first (a useless single), else the lowest pair, else any solo
        let (kind, mask) = if rules.trio_solo && solos.front().is_some_and(|&s| s < ACE) {
            let k = solos.pop_front().unwrap();
            (Kind::TrioSolo, trio + one(k))
        } else if pairs.front().is_some_and(|&p| p < TWO) {
            let k = pairs.pop_front().unwrap();
            (Kind::TrioPair, trio + 2 * one(k))
        } else if rules.trio_solo && !solos.is_empty() {
            let k = solos.pop_front().unwrap();
            (Kind::TrioSolo, trio + one(k))
        } else if let Some(k) = pairs.pop_front() {
            (Kind::TrioPair, trio + 2 * one(k))
        } else {
            (Kind::Trio, trio)
        };
        groups.push(Group {
            kind,
            rank: t + 3,
            mask,
        });
    }
    groups.extend(pairs.into_iter().map(|i| Group {
        kind: Kind::Pair,
        rank: i + 3,
        mask: 2 * one(i),
    }));
    groups.extend(solos.into_iter().map(|i| Group {
        kind: Kind::Solo,
        rank: i + 3,
        mask: one(i),
    }));
    groups
}

/// How strong a hand is to play as landlord (`heuristic.strength`, no wild rank).
fn strength(hand: u128, rules: &Rules) -> f64 {
    let c = counts_of(hand);
    let d = rules.decks as u8;
    let mut score = 0.0f64;
    if c[JOKER_B] >= d && c[JOKER_R] >= d {
        score += 8.0;
    } else {
        score += (3 * c[JOKER_B] as i64 + 4 * c[JOKER_R] as i64) as f64;
    }
    for (i, &n) in c.iter().enumerate().take(JOKER_B) {
        if n >= 4 {
            score += (6 + 2 * (n as i64 - 4)) as f64;
        } else if i == TWO {
            score += (2 * n as i64) as f64;
        } else if i == ACE {
            score += 0.5 * n as f64;
        }
    }
    let par = (6 * size_of(hand)) as f64 / 17.0;
    score -= 1.5 * (min_plays(hand, rules) as f64 - par);
    score
}

/// The bid thresholds of the reference's `BidThresholds()`.
const BID_ONE: f64 = 4.0;
const BID_TWO: f64 = 7.0;
const BID_THREE: f64 = 10.0;
const CALL: f64 = 5.0;
const ROB: f64 = 9.0;

/// The auction action the hand's strength asks for (`HeuristicBot.bid`).
fn bid(st: &State, legal: &[Act]) -> usize {
    let hand = st.hands[st.to_move as usize];
    let s = strength(hand, &st.rules);
    let scale = size_of(hand) as f64 / 17.0;
    let pass = legal.iter().position(|a| *a == Act::Pass);
    let find = |want: Act| legal.iter().position(|a| *a == want);
    let call = find(Act::Call);
    let rob = find(Act::Rob);
    if call.is_some() || rob.is_some() {
        let (need, want) = if call.is_some() {
            (CALL, call)
        } else {
            (ROB, rob)
        };
        return if s >= need * scale {
            want.unwrap()
        } else {
            pass.unwrap_or(0)
        };
    }
    let level = if s >= BID_THREE * scale {
        3
    } else if s >= BID_TWO * scale {
        2
    } else if s >= BID_ONE * scale {
        1
    } else {
        0
    };
    let mut best: Option<(u8, usize)> = None;
    for (k, a) in legal.iter().enumerate() {
        if let Act::Bid(b) = *a {
            if b <= level && best.is_none_or(|(top, _)| b > top) {
                best = Some((b, k));
            }
        }
    }
    match best {
        Some((_, k)) => k,
        None => pass.unwrap_or(0),
    }
}

fn per_of(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Solo | Kind::Chain => Some(1),
        Kind::Pair | Kind::PairChain => Some(2),
        Kind::Trio
        | Kind::TrioSolo
        | Kind::TrioPair
        | Kind::Plane
        | Kind::PlaneSolo
        | Kind::PlanePair => Some(3),
        _ => None,
    }
}

fn is_run(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Chain | Kind::PairChain | Kind::Plane | Kind::PlaneSolo | Kind::PlanePair
    )
}

/// What one play decision needs, computed once (`heuristic._Context`).
struct Context<'a> {
    rules: &'a Rules,
    me: usize,
    n: usize,
    landlord: i64,
    is_landlord: bool,
    mates: Vec<usize>,
    hand: u128,
    plays_now: usize,
    unseen: [u8; NUM_RANKS],
    /// The seat whose play is to beat (`None`: this seat leads).
    top_seat: Option<usize>,
    counts: [u32; 4],
    enemy_min: u32,
    enemy_bomb: bool,
}

impl<'a> Context<'a> {
    fn new(st: &'a State) -> Context<'a> {
        let rules = &st.rules;
        let n = st.players();
        let me = st.to_move as usize;
        let landlord = st.landlord as i64;
        let is_landlord = me as i64 == landlord;
        let enemies: Vec<usize> = (0..n)
            .filter(|&s| s != me && (is_landlord || s as i64 == landlord))
            .collect();
        let mates: Vec<usize> = (0..n)
            .filter(|&s| s != me && !enemies.contains(&s))
            .collect();
        let hand = st.hands[me];
        let others: u128 = (0..n).filter(|&s| s != me).map(|s| st.hands[s]).sum();
        let unseen = counts_of(others);
        let top_seat = (st.top.is_some() && st.top_seat >= 0 && st.top_seat as usize != me)
            .then_some(st.top_seat as usize);
        let mut counts = [0u32; 4];
        for (s, c) in counts.iter_mut().enumerate().take(n) {
            *c = size_of(st.hands[s]);
        }
        let enemy_min = enemies.iter().map(|&e| counts[e]).min().unwrap_or(99);
        let d = rules.decks as u8;
        let u = &unseen;
        let enemy_bomb = (0..JOKER_B).any(|i| u[i] >= 4) || (u[JOKER_B] >= d && u[JOKER_R] >= d);
        Context {
            rules,
            me,
            n,
            landlord,
            is_landlord,
            mates,
            hand,
            plays_now: min_plays(hand, rules),
            unseen,
            top_seat,
            counts,
            enemy_min,
            enemy_bomb,
        }
    }

    /// Whether the unseen cards (all of them, wherever they are) could beat the combination.
    fn beatable(&self, kind: Kind, rank: usize, length: usize, size: usize) -> bool {
        let u = &self.unseen;
        if kind == Kind::Rocket {
            return false;
        }
        let d = self.rules.decks as u8;
        let rocket = u[JOKER_B] >= d && u[JOKER_R] >= d;
        if kind == Kind::Bomb {
            let strong = (0..JOKER_B).any(|i| u[i] >= 4 && (u[i] as usize, i) > (size, rank - 3));
            return strong || rocket;
        }
        if self.enemy_bomb {
            return true;
        }
        let Some(per) = per_of(kind) else {
            return true;
        };
        let main_top = rank - 3;
        if is_run(kind) {
            for top in main_top + 1..=ACE {
                if (top + 1 - length..=top).all(|i| u[i] as usize >= per) {
                    return true;
                }
            }
            return false;
        }
        let limit = if per == 1 { NUM_RANKS } else { JOKER_B };
        (main_top + 1..limit).any(|i| u[i] as usize >= per)
    }

    /// Whether no unseen cards could beat the plan's combination `g`.
    fn group_safe(&self, g: &Group) -> bool {
        let c = counts_of(g.mask);
        let per = per_of(g.kind).unwrap_or(1);
        let length = if is_run(g.kind) {
            (0..=ACE).filter(|&i| c[i] as usize >= per).count()
        } else {
            1
        };
        let size = if g.rank - 3 < JOKER_B {
            c[g.rank - 3] as usize
        } else {
            2
        };
        !self.beatable(g.kind, g.rank, length, size)
    }

    /// How many combinations of the plan of `mask` nothing unseen can beat.
    fn safe_groups(&self, mask: u128) -> usize {
        partition(mask, self.rules)
            .iter()
            .filter(|g| self.group_safe(g))
            .count()
    }

    /// How much more than usual beating the table is worth now (negative: rather pass).
    fn urgency(&self) -> f64 {
        let Some(seat) = self.top_seat else {
            return 0.0;
        };
        if self.mates.contains(&seat) {
            return -15.0;
        }
        let left = self.counts[seat];
        let mut u = 0.0;
        if !self.is_landlord
            && seat as i64 == self.landlord
            && self.me as i64 == (self.landlord + 1) % self.n as i64
        {
            u += 4.0;
        }
        if self.is_landlord {
            u += LANDLORD_CONTEST;
        }
        if left <= 2 {
            u += 14.0;
        } else if left <= 4 {
            u += 7.0;
        } else if left <= 7 {
            u += 2.0;
        }
        u
    }

    /// The action's score (`_Context.score`).
    fn score(&self, action: &Act) -> f64 {
        let combo = match action {
            Act::Pass => return -10.0 * self.plays_now as f64 - self.urgency(),
            Act::Play(c) => c,
            _ => return -1e9,
        };
        let rest = self.hand - combo.mask;
        if rest == 0 {
            return WIN;
        }
        let after = min_plays(rest, self.rules);
        let mut s = -10.0 * after as f64;
        let c = counts_of(combo.mask);
        let control = 0.5 * c[ACE] as f64
            + 1.5 * c[TWO] as f64
            + 2.5 * c[JOKER_B] as f64
            + 3.0 * c[JOKER_R] as f64;
        let rank = combo.rank as f64;
        s -= 0.25 * (rank - 3.0) + control;
        if combo.is_bomb() {
            s -= if self.enemy_min <= 4 || after <= 1 {
                6.0
            } else {
                14.0
            };
        }
        let safe_left = self.safe_groups(rest);
        s += SAFE_GROUP * safe_left as f64;
        if self.top_seat.is_none() {
            s += 0.5 * size_of(combo.mask) as f64;
            let safe = !self.beatable(
                combo.kind,
                combo.rank as usize,
                combo.length as usize,
                size_of(combo.mask) as usize,
            );
            if safe && after as i64 - safe_left as i64 <= 1 {
                s += PLAY_OUT;
            }
            if after == 1 && safe {
                s += 50.0;
            }
            if self.enemy_min == 1 && combo.kind == Kind::Solo && !safe {
                s -= 20.0 - 0.5 * (rank - 3.0);
            }
            if self.enemy_min == 2 && combo.kind == Kind::Pair && !safe {
                s -= 12.0;
            }
            s += self.feed(combo);
        } else if self.top_seat.is_some_and(|t| self.mates.contains(&t)) {
            s -= 15.0;
        }
        s
    }

    /// A peasant's bonus for leading a teammate who is nearly out the low solo or pair it needs.
    fn feed(&self, combo: &Combo) -> f64 {
        if self.is_landlord || self.mates.is_empty() {
            return 0.0;
        }
        let rank = combo.rank as f64;
        let mut bonus = 0.0;
        for &mate in &self.mates {
            let left = self.counts[mate];
            let weight = if (self.me + 1) % self.n == mate {
                1.0
            } else {
                0.5
            };
            if left == 1 && combo.kind == Kind::Solo {
                bonus += weight * (25.0 - 1.5 * (rank - 3.0));
            } else if left == 2 && combo.kind == Kind::Pair {
                bonus += weight * (18.0 - 1.0 * (rank - 3.0));
            }
        }
        bonus
    }
}

/// The heuristic's choice for the seat to move, as an index into `legal` (its legal actions in
/// the reference's order; ties go to the first listed, as the reference's `max`).
pub fn choose(st: &State, legal: &[Act]) -> usize {
    if legal.len() <= 1 {
        return 0;
    }
    if st.phase == Phase::Auction {
        return bid(st, legal);
    }
    // the first highest score, without collecting the scores: this runs at every playout step
    let ctx = Context::new(st);
    legal
        .iter()
        .map(|a| ctx.score(a))
        .enumerate()
        .fold((0, f64::NEG_INFINITY), |best, (k, s)| {
            if s > best.1 {
                (k, s)
            } else {
                best
            }
        })
        .0
}

/// The heuristic's scores of every legal action in the play (`HeuristicBot.scores`).
pub fn scores(st: &State, legal: &[Act]) -> Vec<f64> {
    let ctx = Context::new(st);
    legal.iter().map(|a| ctx.score(a)).collect()
}

/// Play `st` on with the heuristic at every seat until the round is over (`None`) or a step the
/// caller must settle: a redeal after an all-pass auction or the laizi wild draw, when it returns
/// the index of the action (in the seat's legal list) that brings it. `st` is left at that step.
pub fn play_out(st: &mut State) -> Option<usize> {
    let mut legal = Vec::with_capacity(64);
    while !st.is_over() {
        legal.clear();
        st.legal(st.to_move, &mut legal);
        let k = choose(st, &legal);
        if st.phase == Phase::Play {
            // a play never redeals nor draws the wild rank: applied in place
            let done = st.apply(st.to_move, &legal[k]);
            debug_assert_eq!(done, Step::Done, "a listed play is legal");
            continue;
        }
        let mut next = st.clone();
        match next.apply(st.to_move, &legal[k]) {
            Step::Done => *st = next,
            Step::Redeal | Step::DrawWild => return Some(k),
            Step::Illegal => unreachable!("a listed action is legal"),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(text: &str) -> u128 {
        text.bytes()
            .map(|b| {
                one(super::super::RANK_CHARS
                    .iter()
                    .position(|&c| c == b)
                    .unwrap())
            })
            .sum()
    }

    #[test]
    fn partition_matches_the_references_doctest() {
        let rules = Rules::classic();
        // hand.py: partition("34567 999 J 22") is 34567, 999J, 22; min_plays("3 5 7 9 J") is 5
        let plan = partition(mask("34567999J22"), &rules);
        let texts: Vec<String> = plan
            .iter()
            .map(|g| super::super::format_mask(g.mask))
            .collect();
        assert_eq!(texts, ["34567", "999J", "22"]);
        assert_eq!(min_plays(mask("3579J"), &rules), 5);
    }

    #[test]
    fn the_strongest_hand_bids_three() {
        let rules = Rules::classic();
        // rocket 8 + bomb of 2s 6 + ... well above 10 with few plays
        let hand = mask("BR2222AAAKKKQQQJJ");
        assert!(strength(hand, &rules) >= 10.0);
        let st = State::start(rules, &[hand, mask("3"), mask("4")], 0, 0, 1);
        let mut legal = Vec::new();
        st.legal(0, &mut legal);
        assert_eq!(legal[bid(&st, &legal)], Act::Bid(3));
    }
}

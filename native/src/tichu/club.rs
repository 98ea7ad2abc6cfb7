//! The `club` Tichu bot's play rules (`pagoda.bots.tichu.club`), ported: the same choice as the
//! reference in every play-phase decision, so a search can roll out with club at every seat
//! without a step through Python.
//!
//! Club keeps the heuristic's partition, boss counting and wish (the [`super::policy`] port) and
//! changes the lead, the follow, the out-of-turn bomb, the Tichu call and the Dragon gift. Every
//! rule below names the reference method it ports; ties are broken as Python's `min`, `max` and
//! stable `sorted` break them (the first in list order).

use super::policy::{
    act_combo, act_mask, bomb_goes_out, hand_controls, is_control, lead, lead_key, partition,
    partition_cost, weakest_bomb, Player, Seen,
};
use super::state::Act;
use super::*;

/// The club bot's options (`ClubBot.__init__`; the Grand Tichu threshold is not ported, as the
/// Grand Tichu is not).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Club {
    pub tichu_margin: f64,
    pub tichu_max: u32,
    pub shed: i64,
    pub press: u32,
    pub break_up: u32,
    pub ace_break: u32,
    pub shed_below: u32,
    pub dog_margin: i64,
}

impl Default for Club {
    fn default() -> Club {
        Club {
            tichu_margin: 0.5,
            tichu_max: 7,
            shed: 0,
            press: 4,
            break_up: 14,
            ace_break: 1,
            shed_below: 9,
            dog_margin: -3,
        }
    }
}

/// `club_tichu_worthy`: the partition's losers are few enough for the controls to cover them.
pub fn club_tichu_worthy(hand: u64, margin: f64, max_combos: u32) -> bool {
    let n = partition_cost(hand) / 100;
    n <= max_combos && n as f64 - hand_controls(hand) <= margin
}

/// `_racing`: the partner is out first (a one-two is on).
fn racing(v: &Seen<'_>) -> bool {
    v.st.n_out > 0 && v.st.out[0] as u32 == v.partner()
}

/// Club's `_urgent`: the trick's winner is an opponent whose partner is out first, or who is
/// close to out, or who called and holds at most 8 cards.
fn urgent(v: &Seen<'_>) -> bool {
    let top = v.st.top_seat;
    if top < 0 || (top as u32 + 4 - v.seat).is_multiple_of(2) {
        return false;
    }
    let top = top as u32;
    if v.st.n_out > 0 && (v.st.out[0] as u32 + 4 - top).is_multiple_of(2) {
        return true;
    }
    let left = v.size(top);
    left <= 3 || (v.called(top) && left <= 8)
}

/// `_shed`: the cards a lead sheds, counted only for combinations of five or more.
fn shed_count(c: &Combo) -> i64 {
    if c.len() >= 5 {
        c.len() as i64
    } else {
        0
    }
}

/// The plays of the cards `m`, in list order.
fn same(plays: &[Act], m: u64) -> Vec<Act> {
    plays.iter().filter(|b| act_mask(b) == m).copied().collect()
}

impl Club {
    /// `_feed`: a low lead the partner with `left` cards can follow, if it costs this hand little.
    fn feed(&self, v: &Seen<'_>, plays: &[Act], left: u32) -> Option<Act> {
        let hand = v.hand;
        let base = partition_cost(hand);
        let kinds: &[Kind] = if left == 1 {
            &[Kind::Single]
        } else {
            &[Kind::Pair, Kind::Single]
        };
        for &kind in kinds {
            let best = plays
                .iter()
                .filter(|a| {
                    let c = act_combo(a);
                    c.kind == kind
                        && c.rank2 <= 20 // `rank <= 10`
                        && c.mask != DOG_BIT
                        && c.mask != PHOENIX_BIT
                        && partition_cost(hand & !c.mask) <= base
                })
                .min_by_key(|a| (act_combo(a).rank2, act_mask(a)));
            if let Some(best) = best {
                return Some(v.with_wish(&same(plays, act_mask(best))));
            }
        }
        None
    }
}

impl Player for Club {
    /// Club's `_offer`: against an urgent opponent with at most two cards, or while a one-two
    /// is on or someone is out; or to go out.
    fn offer(&self, v: &Seen<'_>, legal: &[Act]) -> Act {
        let bombs: Vec<Act> = legal
            .iter()
            .filter(|a| matches!(a, Act::Play { .. }))
            .copied()
            .collect();
        let top = v.st.top_seat;
        if !bombs.is_empty() && top >= 0 && (top as u32 + 4 - v.seat) % 2 == 1 {
            if urgent(v) && (v.size(top as u32) <= 2 || racing(v) || v.st.n_out > 0) {
                return weakest_bomb(&bombs);
            }
            if bomb_goes_out(v.hand, &bombs) {
                return weakest_bomb(&bombs);
            }
        }
        Act::NoBomb
    }

    /// Club's `_call_tichu`.
    fn call_tichu(&self, v: &Seen<'_>) -> bool {
        !v.called(v.partner())
            && v.hand.count_ones() == 14
            && club_tichu_worthy(v.hand, self.tichu_margin, self.tichu_max)
    }

    /// Club's `_give_dragon`: to the opponent with more cards, a caller only when both hold as
    /// many.
    fn give_dragon(&self, v: &Seen<'_>, gives: &[Act]) -> Act {
        let key = |a: &Act| {
            let Act::GiveDragon(t) = a else {
                unreachable!()
            };
            let t = *t as u32;
            (v.size(t), if v.called(t) { 0 } else { 1 })
        };
        let mut best = gives[0];
        for a in &gives[1..] {
            if key(a) > key(&best) {
                best = *a; // `max` keeps the first of equal keys
            }
        }
        best
    }

    /// Club's `_lead`.
    fn lead(&self, v: &Seen<'_>, plays: &[Act]) -> Act {
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
        let find = |m: u64| by_mask.iter().position(|g| g.0 == m);
        if let Some(i) = find(hand) {
            if !v.supporting() || by_mask.len() == 1 {
                return v.with_wish(&by_mask[i].1);
            }
        }
        let parts: Vec<Combo> = partition(hand)
            .into_iter()
            .filter(|c| find(c.mask).is_some() && c.mask != hand)
            .collect();
        if parts.is_empty() || v.st.wish != 0 {
            return lead(v, plays);
        }
        let group = |m: u64| &by_mask[find(m).unwrap()].1;
        let partner = v.partner();
        let left = v.size(partner);
        if hand & DOG_BIT != 0 && find(DOG_BIT).is_some() && left != 0 {
            let partner_called = v.called(partner);
            if partner_called
                || left as i64 + self.dog_margin < hand.count_ones() as i64
                || left <= 2
            {
                return group(DOG_BIT)[0];
            }
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
        if 0 < left && left <= 2 && !racing(v) {
            if let Some(a) = self.feed(v, plays, left) {
                return a;
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
        // how many of the pool share each (kind, length)
        let count = |c: &Combo| {
            pool.iter()
                .filter(|d| d.kind == c.kind && d.len() == c.len())
                .count() as i64
        };
        let shed = if v.called(v.seat) || hand.count_ones() <= self.shed_below {
            1
        } else {
            self.shed
        };
        let choice = pool
            .iter()
            .min_by_key(|c| (-shed_count(c) * shed, -count(c), lead_key(c)))
            .unwrap();
        v.with_wish(group(choice.mask))
    }

    /// Club's `_follow`.
    fn follow(&self, v: &Seen<'_>, mut plays: Vec<Act>, pass: bool) -> Act {
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
        // over the partner only when the partner went out with the trick
        if v.st.top_seat >= 0
            && v.st.top_seat as u32 == v.partner()
            && v.size(v.partner()) > 0
            && pass
        {
            return Act::Pass;
        }
        let base = partition_cost(hand) as i64;
        let racing = racing(v);
        let urgent = urgent(v);
        let trick_points = count_points(v.st.trick_cards);
        let endgame = base <= 100 * self.press as i64;
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
        let pressing = urgent || racing || endgame;
        for &(damage, _, a) in &scored {
            let combo = act_combo(&a);
            let control = combo.mask == DRAGON_BIT || combo.mask == PHOENIX_BIT;
            let high = combo.kind == Kind::Single && combo.mask & rank_mask(14) != 0;
            if damage <= 100 * self.break_up as i64 && !control && !high {
                return v.with_wish(&same(&plays, combo.mask));
            }
            if damage <= 100 * self.ace_break as i64
                && high
                && (pressing || trick_points >= 10 || called)
            {
                return a;
            }
            if control && (pressing || (called && combo.mask == DRAGON_BIT) || trick_points >= 20) {
                return a;
            }
            if damage <= 100 && (urgent || racing) {
                return v.with_wish(&same(&plays, combo.mask));
            }
            if !(control || high) {
                break; // else the next cheapest play, past the controls kept
            }
        }
        if !bombs.is_empty() && (urgent || racing || bomb_goes_out(hand, &bombs)) {
            return weakest_bomb(&bombs);
        }
        if pass {
            return Act::Pass;
        }
        if let Some(&(_, _, best)) = scored.first() {
            return v.with_wish(&same(&plays, act_mask(&best)));
        }
        weakest_bomb(&bombs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tichu_worthy_as_the_reference_docs() {
        let m = |text: &str| parse_cards(text).unwrap();
        assert!(club_tichu_worthy(
            m("Mj Dr Ph Ag Ak 2g 3k 4b 5r 9g 9k Kg Kk Kb"),
            0.5,
            7
        ));
        assert!(!club_tichu_worthy(
            m("2g 3k 4b 6r 7g 8k 9b Tr Jg Qk Kb Ag 5k 5g"),
            0.5,
            7
        ));
    }
}

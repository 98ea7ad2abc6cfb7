//! The Tichu rules core: the same combinations, move lists (in the same order), transitions and
//! scores as the Python reference (`pagoda.tichu`: `cards.py`, `combos.py`, `generators.py`,
//! `leads.py`, `round.py`).
//!
//! A set of cards is a `u64` with bit `card` set, the card numbers being the reference's: 0 the
//! Dog, 1 the Mah Jong, `2 + 4 * (rank - 2) + suit` the suited cards (ranks 2..14, suits
//! Jade, Sword, Pagoda, Star), 54 the Phoenix, 55 the Dragon. A rank is kept doubled (`rank2`)
//! so that the Phoenix's half ranks are integers.

pub mod batch;
pub mod club;
pub mod flow;
pub mod movegen;
pub mod policy;
pub mod state;

pub const DOG: u32 = 0;
pub const MAH_JONG: u32 = 1;
pub const PHOENIX: u32 = 54;
pub const DRAGON: u32 = 55;
pub const DOG_BIT: u64 = 1 << DOG;
pub const MAH_JONG_BIT: u64 = 1 << MAH_JONG;
pub const PHOENIX_BIT: u64 = 1 << PHOENIX;
pub const DRAGON_BIT: u64 = 1 << DRAGON;
pub const FULL_DECK: u64 = (1 << 56) - 1;
pub const SPECIALS: u64 = DOG_BIT | MAH_JONG_BIT | PHOENIX_BIT | DRAGON_BIT;
pub const NORMAL_CARDS: u64 = FULL_DECK & !SPECIALS;
pub const SUITS: &[u8; 4] = b"gkbr";
pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";

/// The bit position of the Jade card of `rank` (2..14).
#[inline]
pub const fn rank_shift(rank: u32) -> u32 {
    2 + (rank - 2) * 4
}

/// The card of `rank` (2..14) and `suit` (0..3).
#[inline]
pub const fn card_index(rank: u32, suit: u32) -> u32 {
    2 + (rank - 2) * 4 + suit
}

/// The four cards of `rank` (2..14); 0 for any other rank.
#[inline]
pub const fn rank_mask(rank: u32) -> u64 {
    if rank >= 2 && rank <= 14 {
        0xF << rank_shift(rank)
    } else {
        0
    }
}

const fn suit_mask(suit: u32) -> u64 {
    let mut m = 0;
    let mut r = 2;
    while r <= 14 {
        m |= 1 << card_index(r, suit);
        r += 1;
    }
    m
}

/// The thirteen cards of each suit.
pub const SUIT_MASKS: [u64; 4] = [suit_mask(0), suit_mask(1), suit_mask(2), suit_mask(3)];

/// The rank of a card: 2..14 for suited cards, Mah Jong 1, Dragon 15, Dog and Phoenix 0.
#[inline]
pub const fn card_rank(card: u32) -> u32 {
    match card {
        0 | 54 => 0,
        1 => 1,
        55 => 15,
        c => 2 + (c - 2) / 4,
    }
}

/// The points of the cards in `mask` (100 in a deck).
pub fn count_points(mask: u64) -> i32 {
    let fives = (mask & rank_mask(5)).count_ones() as i32;
    let tens = (mask & (rank_mask(10) | rank_mask(13))).count_ones() as i32;
    let mut p = 5 * fives + 10 * tens;
    if mask & DRAGON_BIT != 0 {
        p += 25;
    }
    if mask & PHOENIX_BIT != 0 {
        p -= 25;
    }
    p
}

/// The name of a card in the notation.
pub fn card_name(card: u32) -> String {
    match card {
        0 => "Dg".into(),
        1 => "Mj".into(),
        54 => "Ph".into(),
        55 => "Dr".into(),
        c => {
            let r = RANK_CHARS[(card_rank(c) - 2) as usize] as char;
            let s = SUITS[((c - 2) % 4) as usize] as char;
            format!("{r}{s}")
        }
    }
}

/// The notation of a set of cards in hand order, space-separated.
pub fn format_cards(mask: u64) -> String {
    bits(mask).map(card_name).collect::<Vec<_>>().join(" ")
}

/// Read cards in the notation as the reference's tokenizer reads them (`pagoda.core.notation`):
/// case-insensitive (after Python's `str.lower`, so the Kelvin sign reads as `k`), spaces, commas,
/// tabs and newlines between cards optional, `10` for `T`; `None` on anything else or a card
/// named twice.
pub fn parse_cards(text: &str) -> Option<u64> {
    // Python's lower() of the text, as far as it can give card letters: every other character
    // is no card (the tokens are ASCII, and only U+212A lowers to an ASCII letter).
    let mut low: Vec<u8> = Vec::with_capacity(text.len());
    for ch in text.chars() {
        low.push(match ch {
            '\u{212A}' => b'k',
            c if c.is_ascii() => c.to_ascii_lowercase() as u8,
            _ => 0,
        });
    }
    let b = &low[..];
    let mut i = 0;
    let mut mask = 0u64;
    while i < b.len() {
        if matches!(b[i], b' ' | b',' | b'\t' | b'\n') {
            i += 1;
            continue;
        }
        let two = |x: &[u8]| b.len() >= i + 2 && &b[i..i + 2] == x;
        let suit_at = |j: usize| b.get(j).and_then(|s| SUITS.iter().position(|c| c == s));
        let (card, used) = if two(b"dg") {
            (DOG, 2)
        } else if two(b"mj") {
            (MAH_JONG, 2)
        } else if two(b"ph") {
            (PHOENIX, 2)
        } else if two(b"dr") {
            (DRAGON, 2)
        } else if let (true, Some(suit)) = (two(b"10"), suit_at(i + 2)) {
            (card_index(10, suit as u32), 3)
        } else {
            let r = RANK_CHARS
                .iter()
                .position(|&c| c.to_ascii_lowercase() == b[i])? as u32
                + 2;
            (card_index(r, suit_at(i + 1)? as u32), 2)
        };
        if mask & (1 << card) != 0 {
            return None;
        }
        mask |= 1 << card;
        i += used;
    }
    Some(mask)
}

/// The card numbers of a mask, lowest first.
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let c = mask.trailing_zeros();
            mask &= mask - 1;
            Some(c)
        }
    })
}

/// The kinds of combination, in the reference's order (`combos.KINDS`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Single = 0,
    Pair,
    Triple,
    FullHouse,
    PairRun,
    Straight,
    FourOfAKind,
    StraightFlush,
    Dog,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Single,
        Kind::Pair,
        Kind::Triple,
        Kind::FullHouse,
        Kind::PairRun,
        Kind::Straight,
        Kind::FourOfAKind,
        Kind::StraightFlush,
        Kind::Dog,
    ];

    pub fn from_index(i: u8) -> Option<Kind> {
        Kind::ALL.get(i as usize).copied()
    }

    pub fn is_bomb(self) -> bool {
        matches!(self, Kind::FourOfAKind | Kind::StraightFlush)
    }
}

/// A combination: its kind, rank (doubled), cards, and the rank the Phoenix stands for in a
/// combination of several cards (0: none). Small and `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Combo {
    pub mask: u64,
    pub kind: Kind,
    /// Twice the rank: a single Phoenix on a 9 is 19 (9.5).
    pub rank2: u8,
    pub phoenix: u8,
}

impl Combo {
    #[inline]
    pub const fn new(kind: Kind, rank: u32, mask: u64, phoenix: u32) -> Combo {
        Combo {
            mask,
            kind,
            rank2: (rank * 2) as u8,
            phoenix: phoenix as u8,
        }
    }

    /// The rank, rounded down (a Phoenix on a 9 is 9).
    #[inline]
    pub fn rank(&self) -> u32 {
        (self.rank2 / 2) as u32
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.mask.count_ones()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    #[inline]
    pub fn is_bomb(&self) -> bool {
        self.kind.is_bomb()
    }

    /// Orders bombs: straight flushes above fours of a kind, then by length, then by rank.
    #[inline]
    pub fn bomb_key(&self) -> (bool, u32, u8) {
        (self.kind == Kind::StraightFlush, self.len(), self.rank2)
    }
}

/// The reference's `beats(combo, on)`: may `combo` be played on `on` (None: leading)?
pub fn beats(combo: &Combo, on: Option<&Combo>) -> bool {
    let Some(on) = on else { return true };
    if on.kind == Kind::Dog || combo.kind == Kind::Dog {
        return false;
    }
    if combo.is_bomb() {
        return !on.is_bomb() || combo.bomb_key() > on.bomb_key();
    }
    if combo.kind != on.kind || combo.len() != on.len() {
        return false;
    }
    if combo.kind == Kind::Single && combo.mask == PHOENIX_BIT {
        return on.mask != DRAGON_BIT;
    }
    combo.rank2 > on.rank2
}

/// The naturals of each rank 0..14, the Mah Jong as rank 1 (the reference's `rank_counts`).
#[inline]
pub fn rank_counts(hand: u64) -> [u8; 15] {
    let mut c = [0u8; 15];
    c[1] = (hand & MAH_JONG_BIT != 0) as u8;
    for (r, v) in c.iter_mut().enumerate().skip(2) {
        *v = ((hand >> rank_shift(r as u32)) & 0xF).count_ones() as u8;
    }
    c
}

/// One card alone: the Phoenix half above `on` (1.5 when led or on a non-single), the Dog its own kind.
fn single_reading(mask: u64, on: Option<&Combo>) -> Combo {
    if mask == PHOENIX_BIT {
        let rank2 = match on {
            Some(c) if c.kind == Kind::Single => c.rank2 + 1,
            _ => 3,
        };
        return Combo {
            mask,
            kind: Kind::Single,
            rank2,
            phoenix: 0,
        };
    }
    if mask == DOG_BIT {
        return Combo::new(Kind::Dog, 0, mask, 0);
    }
    Combo::new(Kind::Single, card_rank(63 - mask.leading_zeros()), mask, 0)
}

/// Every reading of `mask` as a combination, highest first (the reference's `readings`).
pub fn readings(mask: u64, on: Option<&Combo>) -> Vec<Combo> {
    let mut out = Vec::new();
    if mask == 0 {
        return out;
    }
    if mask.count_ones() == 1 {
        out.push(single_reading(mask, on));
        return out;
    }
    if mask & (DOG_BIT | DRAGON_BIT) != 0 {
        return out;
    }
    let counts = rank_counts(mask);
    let size = mask.count_ones();
    let ph = (mask & PHOENIX_BIT != 0) as u32;
    let ranks: Vec<u32> = (1..15).filter(|&r| counts[r as usize] > 0).collect();
    let nr = ranks.len();
    let low = ranks.first().copied().unwrap_or(0);
    // pair, triple, four of a kind
    for (n, kind) in [(2, Kind::Pair), (3, Kind::Triple), (4, Kind::FourOfAKind)] {
        if size == n && nr == 1 && low >= 2 && !(kind == Kind::FourOfAKind && ph == 1) {
            out.push(Combo::new(kind, low, mask, if ph == 1 { low } else { 0 }));
        }
    }
    // full house
    if size == 5 && nr == 2 && low >= 2 {
        let (lo, hi) = (ranks[0], ranks[1]);
        for (triple, pair) in [(hi, lo), (lo, hi)] {
            let t = counts[triple as usize] as u32;
            let p = counts[pair as usize] as u32;
            if t <= 3 && p <= 2 && (3 - t) + (2 - p) == ph {
                let phx = if ph == 1 {
                    if t < 3 {
                        triple
                    } else {
                        pair
                    }
                } else {
                    0
                };
                out.push(Combo::new(Kind::FullHouse, triple, mask, phx));
            }
        }
    }
    // pair run
    if nr > 0 && size >= 4 && size % 2 == 0 && low >= 2 {
        let (lo, hi) = (ranks[0], ranks[nr - 1]);
        if hi - lo + 1 == size / 2 && ranks.iter().all(|&r| counts[r as usize] <= 2) {
            let short: Vec<u32> = (lo..=hi).filter(|&r| counts[r as usize] < 2).collect();
            if ph == 0 && short.is_empty() {
                out.push(Combo::new(Kind::PairRun, hi, mask, 0));
            } else if ph == 1 && short.len() == 1 && counts[short[0] as usize] == 1 {
                out.push(Combo::new(Kind::PairRun, hi, mask, short[0]));
            }
        }
    }
    // straight
    if size >= 5 && nr as u32 + ph == size {
        let (lo, hi) = (ranks[0], ranks[nr - 1]);
        let gaps: Vec<u32> = (lo..=hi).filter(|&r| counts[r as usize] == 0).collect();
        if ph == 0 {
            if gaps.is_empty() {
                let flush = mask & MAH_JONG_BIT == 0 && SUIT_MASKS.iter().any(|&s| mask & !s == 0);
                let kind = if flush {
                    Kind::StraightFlush
                } else {
                    Kind::Straight
                };
                out.push(Combo::new(kind, hi, mask, 0));
            }
        } else if gaps.len() == 1 {
            out.push(Combo::new(Kind::Straight, hi, mask, gaps[0]));
        } else if gaps.is_empty() {
            if hi < 14 {
                out.push(Combo::new(Kind::Straight, hi + 1, mask, hi + 1));
            }
            if lo > 2 {
                out.push(Combo::new(Kind::Straight, hi, mask, lo - 1));
            }
        }
    }
    out
}

/// The highest reading of `mask` (the reference's `classify`), or None.
pub fn classify(mask: u64, on: Option<&Combo>) -> Option<Combo> {
    readings(mask, on).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> u64 {
        parse_cards(text).unwrap()
    }

    #[test]
    fn notation_round_trips() {
        assert_eq!(format_cards(m("Dr Ph 2k Dg")), "Dg 2k Ph Dr");
        assert_eq!(m("10r"), m("Tr"));
        assert_eq!(parse_cards("Tr 10r"), None);
        assert_eq!(parse_cards("mJ,2G\t10k\n"), Some(m("Mj 2g Tk")));
        assert_eq!(parse_cards("2\u{212A}"), Some(m("2k")));
        assert_eq!(parse_cards("2g;"), None);
        assert_eq!(count_points(FULL_DECK), 100);
    }

    #[test]
    fn classifies_as_the_reference() {
        let c = classify(m("Ak Ar Kg Kr Ph"), None).unwrap();
        assert_eq!((c.kind, c.rank(), c.phoenix), (Kind::FullHouse, 14, 14));
        let c = classify(m("Mj 2g 3k 4b Ph"), None).unwrap();
        assert_eq!((c.kind, c.rank(), c.phoenix), (Kind::Straight, 5, 5));
        assert_eq!(
            classify(m("2g 3g 4g 5g 6g"), None).unwrap().kind,
            Kind::StraightFlush
        );
        assert_eq!(
            classify(m("2g 3g 4g 5g Ph"), None).unwrap().kind,
            Kind::Straight
        );
        assert!(classify(m("2g 2k 3b"), None).is_none());
        let nine = classify(m("9g"), None).unwrap();
        assert_eq!(classify(PHOENIX_BIT, Some(&nine)).unwrap().rank2, 19);
        let r: Vec<u32> = readings(m("3g 4k 5b 6r Ph"), None)
            .iter()
            .map(|c| c.rank())
            .collect();
        assert_eq!(r, vec![7, 6]);
    }

    #[test]
    fn bombs_beat_as_the_reference() {
        let four = classify(m("2g 2k 2b 2r"), None).unwrap();
        let dragon = classify(DRAGON_BIT, None).unwrap();
        let ph = classify(PHOENIX_BIT, None).unwrap();
        assert!(beats(&four, Some(&dragon)));
        assert!(!beats(&ph, Some(&dragon)));
        let sf = classify(m("2g 3g 4g 5g 6g"), None).unwrap();
        let four_a = classify(m("Ag Ak Ab Ar"), None).unwrap();
        assert!(beats(&sf, Some(&four_a)) && !beats(&four_a, Some(&sf)));
    }
}

//! The Dou Di Zhu rules core: the same move lists, transitions and scores as the Python reference
//! (`pagoda.doudizhu`: `movegen.py`, `combos.py`, `round.py`), in the same order.
//!
//! A set of cards is a `u128` with one 5-bit count per rank index (3 = 0 .. R = 14), as the
//! reference's packed `int`.

pub mod batch;
pub mod flow;
pub mod heuristic;
pub mod movegen;
pub mod pyrandom;
pub mod readings;
pub mod state;
pub mod wildgen;

pub const NUM_RANKS: usize = 15;
pub const JOKER_B: usize = 13;
pub const JOKER_R: usize = 14;
pub const ACE: usize = 11;
pub const RANK_CHARS: &[u8; 15] = b"3456789TJQKA2BR";

/// The packed form of one card of rank index `i`.
#[inline]
pub const fn one(i: usize) -> u128 {
    1u128 << (5 * i)
}

/// The count of each rank index of a packed set.
#[inline]
pub fn counts_of(mask: u128) -> [u8; NUM_RANKS] {
    let mut c = [0u8; NUM_RANKS];
    for (i, v) in c.iter_mut().enumerate() {
        *v = ((mask >> (5 * i)) & 31) as u8;
    }
    c
}

/// How many cards a packed set holds.
#[inline]
pub fn size_of(mask: u128) -> u32 {
    counts_of(mask).iter().map(|&n| n as u32).sum()
}

/// Whether every rank count of `part` is at most that of `whole` (counts below 16).
#[inline]
pub fn is_subset(part: u128, whole: u128) -> bool {
    let guard: u128 = (0..NUM_RANKS).map(|i| 16u128 << (5 * i)).sum();
    ((whole | guard).wrapping_sub(part)) & guard == guard
}

/// The notation of a packed set, lowest rank first (the reference's `format_mask`).
pub fn format_mask(mask: u128) -> String {
    let mut out = String::new();
    for (i, &n) in counts_of(mask).iter().enumerate() {
        for _ in 0..n {
            out.push(RANK_CHARS[i] as char);
        }
    }
    out
}

/// Read canonical notation (rank letters only, as `format_mask` writes it); `None` otherwise.
pub fn parse_canonical(text: &str) -> Option<u128> {
    let mut mask = 0u128;
    for b in text.bytes() {
        let i = RANK_CHARS.iter().position(|&c| c == b)?;
        mask += one(i);
    }
    if format_mask(mask) == text {
        Some(mask)
    } else {
        None
    }
}

/// The 14 kinds, in the reference's order (`combos.KINDS`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    Solo = 0,
    Pair,
    Trio,
    TrioSolo,
    TrioPair,
    Chain,
    PairChain,
    Plane,
    PlaneSolo,
    PlanePair,
    Bomb,
    FourTwoSolo,
    FourTwoPair,
    Rocket,
}

pub const KINDS: [Kind; 14] = [
    Kind::Solo,
    Kind::Pair,
    Kind::Trio,
    Kind::TrioSolo,
    Kind::TrioPair,
    Kind::Chain,
    Kind::PairChain,
    Kind::Plane,
    Kind::PlaneSolo,
    Kind::PlanePair,
    Kind::Bomb,
    Kind::FourTwoSolo,
    Kind::FourTwoPair,
    Kind::Rocket,
];

impl Kind {
    /// The kind of index `i` in [`KINDS`].
    pub fn from_index(i: u8) -> Option<Kind> {
        KINDS.get(i as usize).copied()
    }

    /// The reference's `PREFERENCE`: which reading a led set of cards takes, lowest first.
    pub fn preference(self) -> u8 {
        match self {
            Kind::Rocket => 0,
            Kind::Bomb => 1,
            Kind::Chain => 2,
            Kind::PairChain => 3,
            Kind::Plane => 4,
            Kind::Solo | Kind::Pair | Kind::Trio => 5,
            Kind::FourTwoPair => 6,
            Kind::FourTwoSolo => 7,
            Kind::PlanePair => 8,
            Kind::PlaneSolo => 9,
            Kind::TrioPair => 10,
            Kind::TrioSolo => 11,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Kind::Solo => "solo",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSolo => "trio_solo",
            Kind::TrioPair => "trio_pair",
            Kind::Chain => "chain",
            Kind::PairChain => "pair_chain",
            Kind::Plane => "plane",
            Kind::PlaneSolo => "plane_solo",
            Kind::PlanePair => "plane_pair",
            Kind::Bomb => "bomb",
            Kind::FourTwoSolo => "four_two_solo",
            Kind::FourTwoPair => "four_two_pair",
            Kind::Rocket => "rocket",
        }
    }
}

/// One combination as played (the reference's `Combo`): kind, main rank (3..17), length, the
/// cards, the cards they stand for, and the bomb order (0 for the other kinds).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Combo {
    pub kind: Kind,
    pub rank: u8,
    pub length: u8,
    pub mask: u128,
    pub reading: u128,
    pub order: i32,
}

impl Combo {
    #[inline]
    pub fn plain(kind: Kind, rank: usize, length: usize, mask: u128) -> Combo {
        Combo {
            kind,
            rank: rank as u8,
            length: length as u8,
            mask,
            reading: mask,
            order: 0,
        }
    }

    #[inline]
    pub fn is_bomb(&self) -> bool {
        matches!(self.kind, Kind::Bomb | Kind::Rocket)
    }

    /// The play text (`str(combo)`): the cards, and `as <reading>` when wild cards stand in.
    pub fn text(&self) -> String {
        if self.reading != self.mask {
            format!(
                "{} as {}",
                format_mask(self.mask),
                format_mask(self.reading)
            )
        } else {
            format_mask(self.mask)
        }
    }
}

/// The strength of a bomb: by size, then a top wild bomb, then natural before soft, then rank.
#[inline]
pub const fn bomb_order(size: usize, rank_index: usize, hard: bool, top: bool) -> i32 {
    ((((size * 2 + top as usize) * 2 + hard as usize) << 5) + rank_index) as i32
}

/// Whether `combo` may be played on `on` (`None`: an empty table).
#[inline]
pub fn beats(combo: &Combo, on: Option<&Combo>) -> bool {
    let Some(on) = on else { return true };
    match combo.kind {
        Kind::Rocket => on.kind != Kind::Rocket || combo.order > on.order,
        Kind::Bomb => (on.kind != Kind::Bomb && on.kind != Kind::Rocket) || combo.order > on.order,
        k => k == on.kind && combo.length == on.length && combo.rank > on.rank,
    }
}

/// The wild option of the rules: none, drawn after the auction, or one fixed rank index.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wild {
    None,
    Drawn,
    Fixed(u8),
}

/// Every rules option the rules core reads (the reference's `Rules`, less the match options).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    pub players: usize,
    pub decks: usize,
    pub kitty: usize,
    pub rob: bool,
    pub max_bid: u8,
    pub chain_min: usize,
    pub pair_chain_min: usize,
    pub plane_min: usize,
    pub trio_solo: bool,
    pub plane_solo: bool,
    pub four_two_solo: bool,
    pub four_two_pair: bool,
    pub solo_kickers_same_rank: bool,
    pub pair_kickers_same_rank: bool,
    pub kicker_max_same: u8,
    pub kicker_own_rank: bool,
    pub kicker_rocket: bool,
    pub kickers_extend_plane: bool,
    pub bomb_head_chains: bool,
    pub bombs_beat_rocket: bool,
    pub max_bomb: usize,
    pub double_min_bomb: usize,
    pub wild: Wild,
    pub wild_bomb_top: bool,
    pub bomb_limits: bool,
}

impl Rules {
    /// The `classic` preset.
    pub const fn classic() -> Rules {
        Rules {
            players: 3,
            decks: 1,
            kitty: 3,
            rob: false,
            max_bid: 3,
            chain_min: 5,
            pair_chain_min: 3,
            plane_min: 2,
            trio_solo: true,
            plane_solo: true,
            four_two_solo: true,
            four_two_pair: true,
            solo_kickers_same_rank: true,
            pair_kickers_same_rank: true,
            kicker_max_same: 4,
            kicker_own_rank: false,
            kicker_rocket: false,
            kickers_extend_plane: true,
            bomb_head_chains: true,
            bombs_beat_rocket: false,
            max_bomb: 4,
            double_min_bomb: 4,
            wild: Wild::None,
            wild_bomb_top: false,
            bomb_limits: false,
        }
    }

    /// A named preset of the reference (`classic`, `rlcard`, `openspiel`, `four_player`, `laizi`).
    pub fn preset(name: &str) -> Option<Rules> {
        let c = Rules::classic();
        Some(match name {
            "classic" => c,
            "rlcard" => Rules {
                pair_kickers_same_rank: false,
                kicker_max_same: 3,
                kickers_extend_plane: false,
                ..c
            },
            "openspiel" => Rules {
                four_two_solo: false,
                four_two_pair: false,
                pair_kickers_same_rank: false,
                kicker_max_same: 3,
                bomb_head_chains: false,
                bombs_beat_rocket: true,
                ..c
            },
            "four_player" => Rules {
                players: 4,
                decks: 2,
                kitty: 8,
                trio_solo: false,
                plane_solo: false,
                four_two_solo: false,
                four_two_pair: false,
                max_bomb: 8,
                double_min_bomb: 5,
                ..c
            },
            "laizi" => Rules {
                wild: Wild::Drawn,
                ..c
            },
            _ => return None,
        })
    }

    /// Cards dealt to each seat before the landlord takes the kitty.
    pub fn hand_size(&self) -> usize {
        (54 * self.decks - self.kitty) / self.players
    }

    /// The strength of the rocket among bombs.
    pub fn rocket_order(&self) -> i32 {
        if self.bombs_beat_rocket {
            -1
        } else {
            1 << 12
        }
    }

    /// The rocket: one of each joker per pack.
    pub fn rocket(&self) -> Combo {
        let d = self.decks as u128;
        let m = d * (one(JOKER_B) + one(JOKER_R));
        Combo {
            kind: Kind::Rocket,
            rank: 17,
            length: 1,
            mask: m,
            reading: m,
            order: self.rocket_order(),
        }
    }
}

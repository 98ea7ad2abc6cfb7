//! The doudizhu classes and functions of `pagoda_native`: `DdzCore` (one immutable state behind
//! `pagoda.doudizhu.native.NativeRound`) and the batched calls.
//!
//! Actions handed to Python are the reference's own `Action` values, made once per combination by
//! the factory `pagoda.doudizhu.native` registers (`ddz_register`) and then shared.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::doudizhu::batch;
use crate::doudizhu::heuristic;
use crate::doudizhu::movegen::legal_plays;
use crate::doudizhu::state::{Act, Phase, State, Step};
use crate::doudizhu::{Combo, Kind, Rules, Wild, RANK_CHARS};

/// A fast hasher for the action cache (FxHash's multiply and rotate): the keys are small
/// integers, not attacker-chosen text.
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl std::hash::Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut v = [0u8; 8];
            v[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(v));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn write_i32(&mut self, i: i32) {
        self.write_u64(i as u32 as u64);
    }
    #[inline]
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;

struct Registry {
    play: Py<PyAny>,
    bid: Py<PyAny>,
    pass_: Py<PyAny>,
    call: Py<PyAny>,
    rob: Py<PyAny>,
    plays: Mutex<FxMap<Combo, Py<PyAny>>>,
    bids: Mutex<FxMap<u8, Py<PyAny>>>,
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> PyResult<&'static Registry> {
    REGISTRY.get().ok_or_else(|| {
        PyRuntimeError::new_err("pagoda_native: import pagoda.doudizhu.native first (ddz_register)")
    })
}

/// Register the makers of the reference's actions: `play(kind, rank, length, mask, reading,
/// order)`, `bid(n)`, and the pass, call and rob actions.
#[pyfunction]
fn ddz_register(
    play: Py<PyAny>,
    bid: Py<PyAny>,
    pass_: Py<PyAny>,
    call: Py<PyAny>,
    rob: Py<PyAny>,
) {
    let _ = REGISTRY.set(Registry {
        play,
        bid,
        pass_,
        call,
        rob,
        plays: Mutex::new(FxMap::default()),
        bids: Mutex::new(FxMap::default()),
    });
}

fn action_objects<'py>(py: Python<'py>, acts: &[Act]) -> PyResult<Bound<'py, PyTuple>> {
    let reg = registry()?;
    let mut items: Vec<Py<PyAny>> = Vec::with_capacity(acts.len());
    let mut plays = reg.plays.lock().unwrap();
    for a in acts {
        let obj = match a {
            Act::Pass => reg.pass_.clone_ref(py),
            Act::Call => reg.call.clone_ref(py),
            Act::Rob => reg.rob.clone_ref(py),
            Act::Bid(b) => {
                let mut bids = reg.bids.lock().unwrap();
                match bids.get(b) {
                    Some(o) => o.clone_ref(py),
                    None => {
                        let o = reg.bid.call1(py, (*b,))?;
                        bids.insert(*b, o.clone_ref(py));
                        o
                    }
                }
            }
            Act::Play(c) => match plays.get(c) {
                Some(o) => o.clone_ref(py),
                None => {
                    let o = reg.play.call1(
                        py,
                        (c.kind as u8, c.rank, c.length, c.mask, c.reading, c.order),
                    )?;
                    plays.insert(*c, o.clone_ref(py));
                    o
                }
            },
        };
        items.push(obj);
    }
    PyTuple::new(py, items)
}

/// The rules from the reference's `Rules` fields, in [`RULE_FIELDS`] order.
pub(crate) fn rules_of(t: &Bound<'_, PyTuple>) -> PyResult<Rules> {
    if t.len() != 25 {
        return Err(PyValueError::new_err(format!(
            "rules: 25 fields, not {}",
            t.len()
        )));
    }
    let u = |i: usize| -> PyResult<usize> { t.get_item(i)?.extract::<usize>() };
    let b = |i: usize| -> PyResult<bool> { t.get_item(i)?.extract::<bool>() };
    let wild_text: String = t.get_item(22)?.extract()?;
    let wild = match wild_text.as_str() {
        "none" => Wild::None,
        "drawn" => Wild::Drawn,
        w if w.len() == 1 && RANK_CHARS[..13].contains(&w.as_bytes()[0]) => Wild::Fixed(
            RANK_CHARS
                .iter()
                .position(|&c| c == w.as_bytes()[0])
                .unwrap() as u8,
        ),
        w => {
            return Err(PyValueError::new_err(format!(
                "rules: no wild option {w:?}"
            )))
        }
    };
    let players = u(0)?;
    if !(2..=4).contains(&players) {
        return Err(PyValueError::new_err(format!(
            "rules: the native core plays 2 to 4 seats, not {players}"
        )));
    }
    let rules = Rules {
        players,
        decks: u(1)?,
        kitty: u(2)?,
        rob: b(3)?,
        max_bid: u(4)? as u8,
        chain_min: u(5)?.max(1),
        pair_chain_min: u(6)?.max(1),
        plane_min: u(7)?,
        trio_solo: b(8)?,
        plane_solo: b(9)?,
        four_two_solo: b(10)?,
        four_two_pair: b(11)?,
        solo_kickers_same_rank: b(12)?,
        pair_kickers_same_rank: b(13)?,
        kicker_max_same: u(14)? as u8,
        kicker_own_rank: b(15)?,
        kicker_rocket: b(16)?,
        kickers_extend_plane: b(17)?,
        bomb_head_chains: b(18)?,
        bombs_beat_rocket: b(19)?,
        max_bomb: u(20)?,
        double_min_bomb: u(21)?,
        wild,
        wild_bomb_top: b(23)?,
        bomb_limits: b(24)?,
    };
    if rules.wild != Wild::None && !crate::doudizhu::wildgen::supported(&rules) {
        return Err(PyValueError::new_err(
            "rules: the native core's laizi generator covers no kicker_own_rank and no bomb_head_chains=false",
        ));
    }
    Ok(rules)
}

/// One state of a Dou Di Zhu round; `apply` returns the next (None: the reference decides).
#[pyclass(frozen, module = "pagoda_native")]
pub struct DdzCore {
    st: State,
    legal: OnceLock<(Vec<Act>, Py<PyTuple>)>,
}

impl DdzCore {
    /// Whether `seat` is a seat number (an int) and the seat to move, before the round is over.
    fn is_turn(&self, seat: &Bound<'_, PyAny>) -> bool {
        self.st.phase != Phase::Over
            && seat
                .extract::<i64>()
                .is_ok_and(|s| s == self.st.to_move as i64)
    }

    fn wrap(st: State) -> DdzCore {
        DdzCore {
            st,
            legal: OnceLock::new(),
        }
    }

    fn cached<'py>(&self, py: Python<'py>) -> PyResult<&(Vec<Act>, Py<PyTuple>)> {
        if let Some(v) = self.legal.get() {
            return Ok(v);
        }
        let mut acts = Vec::new();
        self.st.legal(self.st.to_move, &mut acts);
        let objs = action_objects(py, &acts)?.unbind();
        let _ = self.legal.set((acts, objs));
        Ok(self.legal.get().unwrap())
    }

    fn find(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<Act>> {
        let (acts, objs) = self.cached(py)?;
        let objs = objs.bind(py);
        if let Ok(s) = action.cast::<PyString>() {
            let text = s.to_str()?;
            let Some(want) = Act::from_text(text) else {
                return Ok(None);
            };
            return Ok(acts.iter().copied().find(|a| match (a, &want) {
                (Act::Play(c), Act::Play(w)) => c.mask == w.mask && c.reading == w.reading,
                (a, w) => a == w,
            }));
        }
        for (i, o) in objs.iter().enumerate() {
            if o.is(action) {
                return Ok(Some(acts[i]));
            }
        }
        for (i, o) in objs.iter().enumerate() {
            if o.eq(action)? {
                return Ok(Some(acts[i]));
            }
        }
        Ok(None)
    }
}

#[pymethods]
impl DdzCore {
    /// A state from the fields of a reference round (see `pagoda.doudizhu.native`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (rules, phase, to_move, hands, kitty, top, top_seat, passes, doubles, play_counts, winner, landlord, bid, bidder, first, deal_no, wild, auction, bombs_left, history))]
    fn from_fields(
        rules: &Bound<'_, PyTuple>,
        phase: u8,
        to_move: u8,
        hands: Vec<u128>,
        kitty: u128,
        top: Option<(u8, u8, u8, u128, u128, i32)>,
        top_seat: i8,
        passes: u8,
        doubles: u32,
        play_counts: Vec<u32>,
        winner: i8,
        landlord: i8,
        bid: u64,
        bidder: i8,
        first: u8,
        deal_no: u32,
        wild: i8,
        auction: Vec<(u8, String)>,
        bombs_left: Vec<i32>,
        history: Vec<(u8, String)>,
    ) -> PyResult<DdzCore> {
        let rules = rules_of(rules)?;
        let n = rules.players;
        if hands.len() != n
            || play_counts.len() != n
            || (!bombs_left.is_empty() && bombs_left.len() != n)
        {
            return Err(PyValueError::new_err(
                "fields: one hand, play count and bomb count per seat",
            ));
        }
        let mut st = State::start(rules, &hands, kitty, first, deal_no);
        st.phase = match phase {
            0 => Phase::Auction,
            1 => Phase::Play,
            2 => Phase::Over,
            p => return Err(PyValueError::new_err(format!("fields: no phase {p}"))),
        };
        st.to_move = to_move;
        st.top = match top {
            None => None,
            Some((k, rank, length, mask, reading, order)) => Some(Combo {
                kind: Kind::from_index(k)
                    .ok_or_else(|| PyValueError::new_err("fields: no such kind"))?,
                rank,
                length,
                mask,
                reading,
                order,
            }),
        };
        st.top_seat = top_seat;
        st.passes = passes;
        st.doubles = doubles;
        st.play_counts[..n].copy_from_slice(&play_counts);
        st.winner = winner;
        st.landlord = landlord;
        st.bid = bid;
        st.bidder = bidder;
        st.wild = wild;
        st.auction = auction
            .iter()
            .map(|(s, t)| {
                Act::auction_from_text(t)
                    .map(|a| (*s, a))
                    .ok_or_else(|| PyValueError::new_err(format!("fields: auction entry {t:?}")))
            })
            .collect::<PyResult<_>>()?;
        if !bombs_left.is_empty() {
            let mut left = [-1i32; 4];
            left[..n].copy_from_slice(&bombs_left);
            st.bombs_left = Some(left);
        }
        let entries: Vec<(u8, Act)> = history
            .iter()
            .map(|(s, t)| {
                Act::from_text(t)
                    .map(|a| (*s, a))
                    .ok_or_else(|| PyValueError::new_err(format!("fields: history entry {t:?}")))
            })
            .collect::<PyResult<_>>()?;
        st.set_history(&entries);
        Ok(DdzCore::wrap(st))
    }

    /// The auction of a deal (the reference's `Round._start`): `first` bids first.
    #[staticmethod]
    fn start(
        rules: &Bound<'_, PyTuple>,
        hands: Vec<u128>,
        kitty: u128,
        first: u8,
        deal_no: u32,
    ) -> PyResult<DdzCore> {
        let rules = rules_of(rules)?;
        if hands.len() != rules.players || first as usize >= rules.players {
            return Err(PyValueError::new_err(
                "start: one hand per seat, and a seat to bid first",
            ));
        }
        Ok(DdzCore::wrap(State::start(
            rules, &hands, kitty, first, deal_no,
        )))
    }

    /// The fields a reference round is made of: (phase, to_move, hands, kitty, top (an action or
    /// None), top_seat, passes, doubles, play_counts, winner, landlord, bid, bidder, first,
    /// deal_no, wild, auction, bombs_left, history).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let s = &self.st;
        let n = s.players();
        let top = match &s.top {
            None => py.None(),
            Some(c) => action_objects(py, &[Act::Play(*c)])?.get_item(0)?.unbind(),
        };
        let texts = |v: &[(u8, Act)]| -> Vec<(u8, String)> {
            v.iter().map(|(seat, a)| (*seat, a.text())).collect()
        };
        let bombs: Vec<i32> = s.bombs_left.map(|b| b[..n].to_vec()).unwrap_or_default();
        let items: Vec<Py<PyAny>> = vec![
            (s.phase as u8).into_pyobject(py)?.into_any().unbind(),
            s.to_move.into_pyobject(py)?.into_any().unbind(),
            s.hands[..n].to_vec().into_pyobject(py)?.into_any().unbind(),
            s.kitty.into_pyobject(py)?.into_any().unbind(),
            top,
            s.top_seat.into_pyobject(py)?.into_any().unbind(),
            s.passes.into_pyobject(py)?.into_any().unbind(),
            s.doubles.into_pyobject(py)?.into_any().unbind(),
            s.play_counts[..n]
                .to_vec()
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            s.winner.into_pyobject(py)?.into_any().unbind(),
            s.landlord.into_pyobject(py)?.into_any().unbind(),
            s.bid.into_pyobject(py)?.into_any().unbind(),
            s.bidder.into_pyobject(py)?.into_any().unbind(),
            s.first.into_pyobject(py)?.into_any().unbind(),
            s.deal_no.into_pyobject(py)?.into_any().unbind(),
            s.wild.into_pyobject(py)?.into_any().unbind(),
            texts(&s.auction).into_pyobject(py)?.into_any().unbind(),
            bombs.into_pyobject(py)?.into_any().unbind(),
            texts(&s.history_vec())
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        ];
        PyTuple::new(py, items)
    }

    /// The legal actions of `seat` (the reference's Action values; empty when not its turn).
    fn legal<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if !self.is_turn(seat) {
            return Ok(PyTuple::empty(py));
        }
        Ok(self.cached(py)?.1.bind(py).clone())
    }

    /// The next state after `seat` takes `action` (an Action or its text), or None when the native
    /// core leaves it to the reference: an action not in the legal list (to accept or refuse it
    /// with the reference's reason), a redeal, or a drawn wild rank.
    fn apply(
        &self,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<Option<DdzCore>> {
        if !self.is_turn(seat) {
            return Ok(None);
        }
        let seat = self.st.to_move;
        let Some(act) = self.find(py, action)? else {
            return Ok(None);
        };
        let mut st = self.st.clone();
        match st.apply(seat, &act) {
            Step::Done => Ok(Some(DdzCore::wrap(st))),
            _ => Ok(None),
        }
    }

    #[getter]
    fn to_move(&self) -> u8 {
        self.st.to_move
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.st.is_over()
    }

    #[getter]
    fn phase(&self) -> u8 {
        self.st.phase as u8
    }

    /// Points per seat (zeros until the round is over).
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.st.players();
        PyTuple::new(py, self.st.score()[..n].iter().copied())
    }

    /// `k` uniform random rollouts from this state: their scores, shape (k, players).
    fn rollouts<'py>(
        &self,
        py: Python<'py>,
        k: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let n = self.st.players();
        let st = self.st.clone();
        let rows = py.detach(|| batch::rollouts(&st, k, seed));
        let flat: Vec<i64> = rows.iter().flat_map(|r| r[..n].iter().copied()).collect();
        PyArray1::from_vec(py, flat).reshape([k, n])
    }

    /// The heuristic bot's choice for the seat to move: its index in `legal` (the native port of
    /// `HeuristicBot.decide`, the same choice; `None` once the round is over).
    fn heuristic_action(&self) -> Option<usize> {
        if self.st.is_over() {
            return None;
        }
        let mut acts = Vec::new();
        self.st.legal(self.st.to_move, &mut acts);
        Some(heuristic::choose(&self.st, &acts))
    }

    /// The heuristic's score of every legal action of the seat to move in the play
    /// (`HeuristicBot.scores`, in the legal list's order; empty outside the play).
    fn heuristic_scores(&self) -> Vec<f64> {
        if self.st.phase != Phase::Play {
            return Vec::new();
        }
        let mut acts = Vec::new();
        self.st.legal(self.st.to_move, &mut acts);
        heuristic::scores(&self.st, &acts)
    }

    /// The round played on by the heuristic at every seat: the state at its end, or at the step
    /// the reference settles (a redeal, the wild draw) with the index of the action that brings
    /// it, which the caller applies through the reference.
    fn heuristic_playout(&self, py: Python<'_>) -> (DdzCore, Option<usize>) {
        let mut st = self.st.clone();
        let pending = py.detach(|| heuristic::play_out(&mut st));
        (DdzCore::wrap(st), pending)
    }

    /// Bytes of this state: the Rust value, its auction, and the one history node it adds (the
    /// earlier nodes are shared with the states before it; the cached action tuple not counted).
    fn nbytes(&self) -> usize {
        std::mem::size_of::<DdzCore>()
            + self.st.auction.capacity() * std::mem::size_of::<(u8, Act)>()
            + self.st.history.as_ref().map_or(0, |_| {
                std::mem::size_of::<crate::doudizhu::state::HistNode>() + 16
            })
    }
}

/// The reference's deal from the bytes `text + sha512(text)` of its seed text: the hands, the
/// kept cards and the face-up card's seat.
#[pyfunction]
fn ddz_deal(rules: &Bound<'_, PyTuple>, seed_bytes: &[u8]) -> PyResult<(Vec<u128>, u128, usize)> {
    Ok(crate::doudizhu::pyrandom::reference_deal(
        seed_bytes,
        &rules_of(rules)?,
    ))
}

/// `rounds` whole uniform random rounds of `rules` (auction included) in one call: the scores,
/// shape (rounds, players), and the number of actions taken.
#[pyfunction]
fn ddz_play_random<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyTuple>,
    rounds: usize,
    seed: u64,
) -> PyResult<(Bound<'py, numpy::PyArray2<i64>>, u64)> {
    let r = rules_of(rules)?;
    let n = r.players;
    let (rows, steps) = py.detach(|| batch::play_random(&r, rounds, seed));
    let flat: Vec<i64> = rows
        .iter()
        .flat_map(|row| row[..n].iter().copied())
        .collect();
    Ok((PyArray1::from_vec(py, flat).reshape([rounds, n])?, steps))
}

/// The number of leads of each packed hand (every play of an empty table), in one call: for
/// timing the lead listing without a Python step per hand.
#[pyfunction]
fn ddz_lead_counts<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyTuple>,
    hands: Vec<u128>,
    wild: i32,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let r = rules_of(rules)?;
    let counts = py.detach(|| {
        let mut out = Vec::with_capacity(256);
        hands
            .iter()
            .map(|&h| {
                out.clear();
                legal_plays(h, None, &r, wild, true, &mut out);
                out.len() as u32
            })
            .collect::<Vec<u32>>()
    });
    Ok(PyArray1::from_vec(py, counts))
}

/// The legal plays of a packed hand on a table (kind, rank, length, mask, reading, order; None
/// for an empty table) as the reference's Action values.
#[pyfunction]
#[pyo3(signature = (rules, hand, on, wild=-1, bombs=true))]
fn ddz_legal_plays<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyTuple>,
    hand: u128,
    on: Option<(u8, u8, u8, u128, u128, i32)>,
    wild: i32,
    bombs: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let r = rules_of(rules)?;
    let on = match on {
        None => None,
        Some((k, rank, length, mask, reading, order)) => Some(Combo {
            kind: Kind::from_index(k).ok_or_else(|| PyValueError::new_err("no such kind"))?,
            rank,
            length,
            mask,
            reading,
            order,
        }),
    };
    let mut out = Vec::new();
    legal_plays(hand, on.as_ref(), &r, wild, bombs, &mut out);
    let acts: Vec<Act> = out.into_iter().map(Act::Play).collect();
    action_objects(py, &acts)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DdzCore>()?;
    m.add_function(wrap_pyfunction!(ddz_register, m)?)?;
    m.add_function(wrap_pyfunction!(ddz_play_random, m)?)?;
    m.add_function(wrap_pyfunction!(ddz_deal, m)?)?;
    m.add_function(wrap_pyfunction!(ddz_lead_counts, m)?)?;
    m.add_function(wrap_pyfunction!(ddz_legal_plays, m)?)?;
    Ok(())
}

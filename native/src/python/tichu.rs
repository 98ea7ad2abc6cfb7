//! The tichu classes and functions of `pagoda_native`: `NativeRound` (one immutable state of a
//! round, answering as `pagoda.tichu.Round`), its lazy list of legal actions, and the batched
//! calls.
//!
//! Actions handed to Python are the reference's own `Action` values: the shared ones
//! (`SINGLE_PLAYS`, the Mah Jong's, the Phoenix's, `pass`, `take`, ...) registered once by
//! `pagoda.tichu.native` (`tichu_register`), the others made by its factory when first read.
//! Whatever the native core does not settle (an action outside the legal list, a view, the
//! position, the record) goes to the reference round of the same fields, so the answer is the
//! reference's by construction.

use std::sync::{Arc, Mutex, OnceLock};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PySlice, PyString, PyTuple};

use crate::doudizhu::pyrandom::Mt;
use crate::tichu::batch;
use crate::tichu::club::Club;
use crate::tichu::policy::{self, Player, Policy};
use crate::tichu::state::{Act, Phase, Rules, State};
use crate::tichu::{Combo, Kind, MAH_JONG_BIT, PHOENIX_BIT};

struct Registry {
    make_play: Py<PyAny>,
    singles: Vec<Py<PyAny>>,
    mah_jong: Vec<Py<PyAny>>,
    phoenix_on: Vec<Py<PyAny>>,
    simple: [Py<PyAny>; 6], // grand, no-grand, tichu, pass, take, no-bomb
    give: Vec<Py<PyAny>>,
    exchange_choices: Py<PyAny>,
    decision: Py<PyAny>,
    kinds: [Py<PyAny>; 3], // "turn", "bomb", "simultaneous"
    phases: Vec<Py<PyAny>>,
    parse_action: Py<PyAny>,
    action_type: Py<PyAny>,
    reference: Py<PyAny>,
    from_reference: Py<PyAny>,
    build: Py<PyAny>,
    standard: Py<PyAny>,
    cards: Vec<Py<PyAny>>,
    /// The bombs' actions, made once each (there are 193 bombs in a deck).
    bombs: Mutex<Vec<(u64, Py<PyAny>)>>,
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

fn registry() -> PyResult<&'static Registry> {
    REGISTRY.get().ok_or_else(|| {
        PyRuntimeError::new_err("pagoda_native: import pagoda.tichu.native first (tichu_register)")
    })
}

/// Register the reference's values and helpers (see `pagoda.tichu.native`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn tichu_register(
    make_play: Py<PyAny>,
    singles: Vec<Py<PyAny>>,
    mah_jong: Vec<Py<PyAny>>,
    phoenix_on: Vec<Py<PyAny>>,
    simple: Vec<Py<PyAny>>,
    give: Vec<Py<PyAny>>,
    exchange_choices: Py<PyAny>,
    decision: Py<PyAny>,
    phases: Vec<Py<PyAny>>,
    parse_action: Py<PyAny>,
    action_type: Py<PyAny>,
    reference: Py<PyAny>,
    from_reference: Py<PyAny>,
    build: Py<PyAny>,
    standard: Py<PyAny>,
    cards: Vec<Py<PyAny>>,
    py: Python<'_>,
) -> PyResult<()> {
    if singles.len() != 56 || mah_jong.len() != 15 || phoenix_on.len() != 15 || give.len() != 4 {
        return Err(PyValueError::new_err(
            "tichu_register: 56 singles, 15 Mah Jong plays, 15 Phoenix plays, 4 gifts",
        ));
    }
    let simple: [Py<PyAny>; 6] = simple
        .try_into()
        .map_err(|_| PyValueError::new_err("tichu_register: 6 simple actions"))?;
    let kinds = [
        PyString::intern(py, "turn").into_any().unbind(),
        PyString::intern(py, "bomb").into_any().unbind(),
        PyString::intern(py, "simultaneous").into_any().unbind(),
    ];
    let _ = REGISTRY.set(Registry {
        make_play,
        singles,
        mah_jong,
        phoenix_on,
        simple,
        give,
        exchange_choices,
        decision,
        kinds,
        phases,
        parse_action,
        action_type,
        reference,
        from_reference,
        build,
        standard,
        cards,
        bombs: Mutex::new(Vec::new()),
    });
    Ok(())
}

/// The shared object of `act`, if it has one.
fn shared(reg: &Registry, py: Python<'_>, act: &Act) -> Option<Py<PyAny>> {
    Some(match *act {
        Act::Grand => reg.simple[0].clone_ref(py),
        Act::NoGrand => reg.simple[1].clone_ref(py),
        Act::Tichu => reg.simple[2].clone_ref(py),
        Act::Pass => reg.simple[3].clone_ref(py),
        Act::Take => reg.simple[4].clone_ref(py),
        Act::NoBomb => reg.simple[5].clone_ref(py),
        Act::GiveDragon(t) => reg.give[t as usize].clone_ref(py),
        Act::Play {
            combo,
            wish,
            reading: 0,
        } if combo.mask.count_ones() == 1 => {
            if combo.mask == MAH_JONG_BIT {
                reg.mah_jong[wish as usize].clone_ref(py)
            } else if combo.mask == PHOENIX_BIT && combo.rank2 != 3 {
                reg.phoenix_on[((combo.rank2 - 1) / 2) as usize].clone_ref(py)
            } else {
                reg.singles[combo.mask.trailing_zeros() as usize].clone_ref(py)
            }
        }
        _ => return None,
    })
}

/// The reference's `Action` of `act` (shared, or made by the factory).
fn action_object(reg: &Registry, py: Python<'_>, act: &Act) -> PyResult<Py<PyAny>> {
    if let Some(o) = shared(reg, py, act) {
        return Ok(o);
    }
    if let Act::Play { combo, .. } = act {
        if combo.kind.is_bomb() {
            let mut bombs = reg.bombs.lock().unwrap();
            if let Some((_, o)) = bombs.iter().find(|(m, _)| *m == combo.mask) {
                return Ok(o.clone_ref(py));
            }
            let o = reg.make_play.call1(
                py,
                (combo.kind as u8, combo.rank2, combo.mask, 0u8, 0u8, 0u8),
            )?;
            bombs.push((combo.mask, o.clone_ref(py)));
            return Ok(o);
        }
    }
    match *act {
        Act::Play {
            combo,
            wish,
            reading,
        } => reg.make_play.call1(
            py,
            (
                combo.kind as u8,
                combo.rank2,
                combo.mask,
                combo.phoenix,
                wish,
                reading,
            ),
        ),
        Act::Exchange(g) => Err(PyValueError::new_err(format!(
            "an exchange is listed by the reference: {g:?}"
        ))),
        _ => unreachable!("every other action is shared"),
    }
}

/// The key of a reference `Action` (kind, mask, wish, reading, gifts, target) as an [`Act`] to
/// look for in a legal list; None for anything that is no action the native core lists.
fn act_of(py: Python<'_>, reg: &Registry, obj: &Bound<'_, PyAny>) -> PyResult<Option<Act>> {
    if !obj.is_instance(reg.action_type.bind(py))? {
        return Ok(None);
    }
    let kind_obj = obj.getattr(pyo3::intern!(py, "kind"))?;
    let kind = kind_obj.cast::<PyString>()?.to_str()?;
    Ok(Some(match kind {
        "grand" => Act::Grand,
        "no-grand" => Act::NoGrand,
        "tichu" => Act::Tichu,
        "pass" => Act::Pass,
        "take" => Act::Take,
        "no-bomb" => Act::NoBomb,
        "give-dragon" => {
            let t: i64 = obj.getattr(pyo3::intern!(py, "target"))?.extract()?;
            if !(0..4).contains(&t) {
                return Ok(None);
            }
            Act::GiveDragon(t as u8)
        }
        "exchange" => {
            let gifts = obj.getattr(pyo3::intern!(py, "gifts"))?;
            let Ok(g) = gifts.extract::<(i64, i64, i64)>() else {
                return Ok(None);
            };
            let ok = |c: i64| (0..56).contains(&c);
            if !(ok(g.0) && ok(g.1) && ok(g.2)) {
                return Ok(None);
            }
            Act::Exchange([g.0 as u8, g.1 as u8, g.2 as u8])
        }
        "play" => {
            let Ok(mask) = obj.getattr(pyo3::intern!(py, "mask"))?.extract::<u64>() else {
                return Ok(None);
            };
            let wish: i64 = obj.getattr(pyo3::intern!(py, "wish"))?.extract()?;
            let reading: i64 = obj.getattr(pyo3::intern!(py, "reading"))?.extract()?;
            if !(0..15).contains(&wish) || !(0..15).contains(&reading) {
                return Ok(None);
            }
            Act::Play {
                combo: Combo {
                    mask,
                    kind: Kind::Single,
                    rank2: 0,
                    phoenix: 0,
                },
                wish: wish as u8,
                reading: reading as u8,
            }
        }
        _ => return Ok(None),
    }))
}

/// Does the listed `listed` answer the key `want` ([`act_of`])?
fn same_key(listed: &Act, want: &Act) -> bool {
    match (listed, want) {
        (
            Act::Play {
                combo: a,
                wish: wa,
                reading: ra,
            },
            Act::Play {
                combo: b,
                wish: wb,
                reading: rb,
            },
        ) => a.mask == b.mask && wa == wb && ra == rb,
        (a, b) => a == b,
    }
}

/// The legal actions of the seat to move, listed natively and made into the reference's
/// `Action` values only when read (a read-only sequence).
#[pyclass(frozen, module = "pagoda_native", sequence)]
pub struct TichuActions {
    acts: Vec<Act>,
    made: Mutex<Vec<(u32, Py<PyAny>)>>,
}

impl TichuActions {
    fn new(acts: Vec<Act>) -> TichuActions {
        TichuActions {
            acts,
            made: Mutex::new(Vec::new()),
        }
    }

    fn item(&self, py: Python<'_>, i: usize) -> PyResult<Py<PyAny>> {
        let mut made = self.made.lock().unwrap();
        if let Some((_, o)) = made.iter().find(|(k, _)| *k as usize == i) {
            return Ok(o.clone_ref(py));
        }
        let o = action_object(registry()?, py, &self.acts[i])?;
        made.push((i as u32, o.clone_ref(py)));
        Ok(o)
    }

    /// The listed action `obj` is, by identity with one handed out.
    fn made_act(&self, obj: &Bound<'_, PyAny>) -> Option<Act> {
        let made = self.made.lock().unwrap();
        made.iter()
            .find(|(_, o)| o.as_ptr() == obj.as_ptr())
            .map(|(k, _)| self.acts[*k as usize])
    }

    fn all(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        (0..self.acts.len()).map(|i| self.item(py, i)).collect()
    }
}

#[pymethods]
impl TichuActions {
    fn __len__(&self) -> usize {
        self.acts.len()
    }

    fn __getitem__(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(i) = index.cast_exact::<PyInt>() {
            let n = self.acts.len() as i64;
            let mut i: i64 = i.extract()?;
            if i < 0 {
                i += n;
            }
            if !(0..n).contains(&i) {
                return Err(PyIndexError::new_err("action index out of range"));
            }
            return self.item(py, i as usize);
        }
        if let Ok(s) = index.cast::<PySlice>() {
            let ind = s.indices(self.acts.len() as isize)?;
            let mut out = Vec::new();
            let mut i = ind.start;
            while (ind.step > 0 && i < ind.stop) || (ind.step < 0 && i > ind.stop) {
                out.push(self.item(py, i as usize)?);
                i += ind.step;
            }
            return Ok(PyList::new(py, out)?.into_any().unbind());
        }
        let i: isize = index.extract()?;
        self.__getitem__(py, &i.into_pyobject(py)?.into_any())
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(PyList::new(py, self.all(py)?)?
            .try_iter()?
            .into_any()
            .unbind())
    }

    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        for o in self.all(py)? {
            if o.bind(py).eq(item)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if other.is_instance_of::<PyString>() {
            return Ok(py.NotImplemented());
        }
        let Ok(items) = other.try_iter() else {
            return Ok(py.NotImplemented());
        };
        let theirs: Vec<Bound<'_, PyAny>> = items.collect::<PyResult<_>>()?;
        let ours = self.all(py)?;
        if theirs.len() != ours.len() {
            return Ok(false.into_pyobject(py)?.to_owned().into_any().unbind());
        }
        for (a, b) in ours.iter().zip(theirs.iter()) {
            if !a.bind(py).eq(b)? {
                return Ok(false.into_pyobject(py)?.to_owned().into_any().unbind());
            }
        }
        Ok(true.into_pyobject(py)?.to_owned().into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(PyList::new(py, self.all(py)?)?.repr()?.to_string())
    }

    /// The index of `action` (by equality), as `list.index`.
    fn index(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        for (i, o) in self.all(py)?.iter().enumerate() {
            if o.bind(py).eq(action)? {
                return Ok(i);
            }
        }
        Err(PyValueError::new_err("action not in the list"))
    }

    /// How many times `action` is listed (0 or 1).
    fn count(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(self.__contains__(py, action)? as usize)
    }
}

/// One play of the live trick, shared by the states after it.
struct TrickNode {
    prev: Option<Arc<TrickNode>>,
    seat: u8,
    combo: Combo,
}

/// What a round keeps from its deal on, shared by all its states.
struct Ctx {
    rules: Py<PyAny>,
    deal_order: Option<[u8; 56]>,
    deal: OnceLock<Py<PyAny>>,
    seed: Py<PyAny>,
    position: Py<PyAny>,
}

/// One immutable state of a Tichu round on the native core: the same answers as
/// `pagoda.tichu.Round` (see `pagoda.tichu.native`).
#[pyclass(frozen, module = "pagoda_native")]
pub struct NativeRound {
    st: State,
    trick: Option<Arc<TrickNode>>,
    ctx: Arc<Ctx>,
    history: Py<PyAny>,
    legal: OnceLock<Py<TichuActions>>,
    reference: OnceLock<Py<PyAny>>,
}

fn rules_of(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let py = rules.py();
    let b = |name: &str| -> PyResult<bool> { rules.getattr(name)?.extract::<bool>() };
    let last: String = rules
        .getattr(pyo3::intern!(py, "last_tricks_to"))?
        .extract()?;
    Ok(Rules {
        phoenix_choice: b("phoenix_choice")?,
        one_call_per_team: b("one_call_per_team")?,
        wish_required: b("wish_required")?,
        small_tichu_after_exchange_only: b("small_tichu_after_exchange_only")?,
        last_tricks_to_opponents: last == "opponents",
    })
}

fn seat_mask_tuple<'py>(py: Python<'py>, seats: &[u8]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, seats.iter().copied())
}

impl NativeRound {
    /// `player`'s choice for the first seat asked (`None` outside the play phase or once over).
    fn bot_action(&self, py: Python<'_>, player: &impl Player) -> PyResult<Option<Py<PyAny>>> {
        let seat = self.st.first_asked();
        if seat < 0 {
            return Ok(None);
        }
        let mut acts = Vec::with_capacity(64);
        self.st.legal(seat as u32, &mut acts);
        match policy::choose(player, &self.st, seat as u32, &acts) {
            None => Ok(None),
            Some(a) => Ok(Some(action_object(registry()?, py, &a)?)),
        }
    }

    fn next(
        &self,
        py: Python<'_>,
        st: State,
        trick: Option<Arc<TrickNode>>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<NativeRound> {
        let history = PyTuple::new(
            py,
            [self.history.bind(py).clone(), seat.clone(), action.clone()],
        )?;
        Ok(NativeRound {
            st,
            trick,
            ctx: self.ctx.clone(),
            history: history.into_any().unbind(),
            legal: OnceLock::new(),
            reference: OnceLock::new(),
        })
    }

    /// The state after the listed `act` of `seat` (`action`: the object the history keeps).
    fn step(
        &self,
        py: Python<'_>,
        seat_no: u32,
        act: &Act,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<NativeRound> {
        let mut st = self.st;
        st.apply(seat_no, act);
        let trick = match (&st.top, act) {
            (None, _) => None,
            (Some(top), Act::Play { combo, .. })
                if st.top_seat == seat_no as i8 && top.mask == combo.mask =>
            {
                Some(Arc::new(TrickNode {
                    prev: self.trick.clone(),
                    seat: seat_no as u8,
                    combo: *top,
                }))
            }
            _ => self.trick.clone(),
        };
        self.next(py, st, trick, seat, action)
    }

    fn listed(&self, py: Python<'_>) -> PyResult<&Py<TichuActions>> {
        if let Some(l) = self.legal.get() {
            return Ok(l);
        }
        let mut acts = Vec::with_capacity(32);
        self.st.legal(self.st.to_move as u32, &mut acts);
        let list = Py::new(py, TichuActions::new(acts))?;
        let _ = self.legal.set(list);
        Ok(self.legal.get().unwrap())
    }

    fn legal_of<'py>(&self, py: Python<'py>, seat: u32) -> PyResult<Bound<'py, PyAny>> {
        let reg = registry()?;
        let st = &self.st;
        match st.phase {
            Phase::Play if seat as i8 == st.to_move => {
                Ok(self.listed(py)?.bind(py).clone().into_any())
            }
            Phase::Exchange if st.given_set >> seat & 1 == 0 => {
                let first: Vec<Py<PyAny>> = if st.may_call_tichu(seat) {
                    vec![reg.simple[2].clone_ref(py)]
                } else {
                    vec![]
                };
                reg.exchange_choices
                    .bind(py)
                    .call1((st.hands[seat as usize], PyTuple::new(py, first)?))
            }
            _ => {
                let mut acts = Vec::new();
                st.legal(seat, &mut acts);
                let objs = acts
                    .iter()
                    .map(|a| action_object(reg, py, a))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyTuple::new(py, objs)?.into_any())
            }
        }
    }

    fn decision<'py>(
        &self,
        py: Python<'py>,
        seat: u32,
        kind: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let reg = registry()?;
        let actions = self.legal_of(py, seat)?;
        let items = [
            seat.into_pyobject(py)?.into_any().into_ptr(),
            reg.kinds[kind].clone_ref(py).into_ptr(),
            actions.into_ptr(),
        ];
        // A Decision is a named tuple: allocated as `tuple.__new__(Decision, items)` allocates a
        // tuple subclass (the type's tp_alloc with three items), its items set in place.
        unsafe {
            let tp = reg.decision.as_ptr() as *mut pyo3::ffi::PyTypeObject;
            let alloc = (*tp).tp_alloc.unwrap_or(pyo3::ffi::PyType_GenericAlloc);
            let obj = alloc(tp, 3);
            if obj.is_null() {
                for p in items {
                    pyo3::ffi::Py_DECREF(p);
                }
                return Err(PyErr::fetch(py));
            }
            for (i, p) in items.into_iter().enumerate() {
                pyo3::ffi::PyTuple_SET_ITEM(obj, i as isize, p);
            }
            Ok(Bound::from_owned_ptr(py, obj))
        }
    }

    fn reference_round<'py>(&self, slf: &Bound<'py, NativeRound>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        if let Some(r) = self.reference.get() {
            return Ok(r.bind(py).clone());
        }
        let r = registry()?.reference.bind(py).call1((slf,))?;
        let _ = self.reference.set(r.clone().unbind());
        Ok(r)
    }

    /// The reference's answer: `ref.apply(seat, action)` made native again.
    fn fallback<'py>(
        &self,
        slf: &Bound<'py, NativeRound>,
        seat: &Bound<'py, PyAny>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let r = self.reference_round(slf)?;
        let next = r.call_method1(pyo3::intern!(py, "apply"), (seat, action))?;
        registry()?.from_reference.bind(py).call1((next,))
    }

    fn find(&self, py: Python<'_>, seat: u32, want: &Act) -> PyResult<Option<Act>> {
        let st = &self.st;
        match st.phase {
            Phase::Over => Ok(None),
            Phase::Exchange => Ok(match want {
                Act::Tichu if st.may_call_tichu(seat) => Some(*want),
                Act::Exchange(g) => {
                    let mask = g.iter().fold(0u64, |m, &c| m | 1 << c);
                    (st.given_set >> seat & 1 == 0
                        && mask.count_ones() == 3
                        && mask & !st.hands[seat as usize] == 0)
                        .then_some(*want)
                }
                _ => None,
            }),
            Phase::Play if seat as i8 == st.to_move => {
                let list = self.listed(py)?.get();
                Ok(list.acts.iter().find(|a| same_key(a, want)).copied())
            }
            _ => {
                let mut acts = Vec::new();
                st.legal(seat, &mut acts);
                Ok(acts.iter().find(|a| same_key(a, want)).copied())
            }
        }
    }

    fn trick_vec(&self) -> Vec<(u8, Combo)> {
        let mut out = Vec::new();
        let mut node = self.trick.as_ref();
        while let Some(n) = node {
            out.push((n.seat, n.combo));
            node = n.prev.as_ref();
        }
        out.reverse();
        out
    }

    fn from_parts(
        st: State,
        trick: Option<Arc<TrickNode>>,
        ctx: Ctx,
        history: Py<PyAny>,
    ) -> NativeRound {
        NativeRound {
            st,
            trick,
            ctx: Arc::new(ctx),
            history,
            legal: OnceLock::new(),
            reference: OnceLock::new(),
        }
    }
}

fn combo_of(t: (u8, u8, u64, u8)) -> PyResult<Combo> {
    Ok(Combo {
        kind: Kind::from_index(t.0).ok_or_else(|| PyValueError::new_err("no such kind"))?,
        rank2: t.1,
        mask: t.2,
        phoenix: t.3,
    })
}

/// The reference's deal of an integer seed: `random.Random(seed).shuffle` of the 56 cards.
fn reference_deal(seed: u128) -> [u8; 56] {
    let bytes = seed.to_be_bytes();
    let mut g = Mt::from_be_bytes(&bytes);
    let mut deck: [u8; 56] = std::array::from_fn(|i| i as u8);
    g.shuffle(&mut deck);
    deck
}

#[pymethods]
impl NativeRound {
    /// A round dealt from `seed` (the reference's shuffle, dealt natively), at the Grand Tichu.
    #[staticmethod]
    #[pyo3(signature = (seed=None, rules=None))]
    fn new(
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let reg = registry()?;
        let rules_obj = match rules {
            Some(r) if !r.is_none() => r.clone(),
            _ => reg.standard.bind(py).clone(),
        };
        let value = match seed {
            Some(s)
                if s.is_instance_of::<PyInt>() && !s.is_instance_of::<pyo3::types::PyBool>() =>
            {
                s.call_method0("__abs__")?.extract::<u128>().ok()
            }
            _ => None,
        };
        let Some(value) = value else {
            let args = PyTuple::new(
                py,
                [
                    seed.map_or(py.None().into_bound(py), |s| s.clone()),
                    rules_obj,
                ],
            )?;
            return Ok(reg
                .build
                .bind(py)
                .call1(("new", args, PyDict::new(py)))?
                .unbind());
        };
        let order = reference_deal(value);
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
        let st = State::dealt(rules_of(&rules_obj)?, deal, first8, true);
        let ctx = Ctx {
            rules: rules_obj.unbind(),
            deal_order: Some(order),
            deal: OnceLock::new(),
            seed: seed.unwrap().clone().unbind(),
            position: py.None(),
        };
        Ok(Py::new(py, NativeRound::from_parts(st, None, ctx, py.None()))?.into_any())
    }

    /// A round straight into play from four hands (as `Round.from_hands`).
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn from_hands(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        build(py, "from_hands", args, kwargs)
    }

    /// A round from a deal (as `Round.from_deal`).
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn from_deal(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        build(py, "from_deal", args, kwargs)
    }

    /// The round a position describes (as `Round.from_position`).
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn from_position(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        build(py, "from_position", args, kwargs)
    }

    /// The position a view shows with every seat's hand (as `Round.from_view`).
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs))]
    fn from_view(
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Py<PyAny>> {
        build(py, "from_view", args, kwargs)
    }

    /// The native state of a reference round's fields (see `pagoda.tichu.native.from_reference`).
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (rules, phase, to_move, hands, seated, bomb_seats, quiet, taken, trick_cards, trick, passed, complete, wish, out, closing, window, decided, given, grand, tichu, start_grand, history, deal, seed, position))]
    fn from_fields(
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        phase: u8,
        to_move: i8,
        hands: [u64; 4],
        seated: u8,
        bomb_seats: u8,
        quiet: u8,
        taken: [u64; 4],
        trick_cards: u64,
        trick: Vec<(u8, u8, u8, u64, u8)>,
        passed: u8,
        complete: bool,
        wish: u8,
        out: Vec<u8>,
        closing: bool,
        window: Vec<u8>,
        decided: u8,
        given: Vec<Option<(u8, u8, u8)>>,
        grand: u8,
        tichu: u8,
        start_grand: bool,
        history: Py<PyAny>,
        deal: Py<PyAny>,
        seed: Py<PyAny>,
        position: Py<PyAny>,
    ) -> PyResult<NativeRound> {
        let phase = match phase {
            0 => Phase::GrandTichu,
            1 => Phase::Exchange,
            2 => Phase::Play,
            3 => Phase::Over,
            p => return Err(PyValueError::new_err(format!("fields: no phase {p}"))),
        };
        if given.len() != 4 || out.len() > 4 || window.len() > 4 {
            return Err(PyValueError::new_err(
                "fields: four exchanges, at most four seats out or asked",
            ));
        }
        let mut st = State::dealt(rules_of(rules)?, hands, hands, false);
        st.phase = phase;
        st.to_move = to_move;
        st.start_grand = start_grand;
        st.hands = hands;
        st.seated = seated;
        st.bomb_seats = bomb_seats;
        st.quiet = quiet;
        st.taken = taken;
        st.trick_cards = trick_cards;
        st.passed = passed;
        st.complete = complete;
        st.wish = wish;
        st.out[..out.len()].copy_from_slice(&out);
        st.n_out = out.len() as u8;
        st.closing = closing;
        st.set_window(&window);
        st.decided = decided;
        st.grand = grand;
        st.tichu = tichu;
        st.given_set = 0;
        for (s, g) in given.iter().enumerate() {
            if let Some((a, b, c)) = g {
                st.given[s] = [*a, *b, *c];
                st.given_set |= 1 << s;
            }
        }
        // The cards dealt: in the Grand Tichu the undealt cards are read back from the deal.
        let deal_b = deal.bind(py);
        if deal_b.len()? == 4 {
            for s in 0..4 {
                let hand: Vec<u8> = deal_b.get_item(s)?.extract()?;
                st.deal[s] = hand.iter().fold(0u64, |m, &c| m | 1 << c);
            }
        }
        let mut node: Option<Arc<TrickNode>> = None;
        for (seat, k, r2, m, p) in trick {
            node = Some(Arc::new(TrickNode {
                prev: node,
                seat,
                combo: combo_of((k, r2, m, p))?,
            }));
        }
        st.top = node.as_ref().map(|n| n.combo);
        st.top_seat = node.as_ref().map_or(-1, |n| n.seat as i8);
        let ctx = Ctx {
            rules: rules.clone().unbind(),
            deal_order: None,
            deal: OnceLock::from(deal),
            seed,
            position,
        };
        Ok(NativeRound::from_parts(st, node, ctx, history))
    }

    /// The fields a reference round is made of: (rules, phase, to_move, hands, seated,
    /// bomb_seats, quiet, taken, trick_cards, trick [(seat, kind, rank2, mask, phoenix)], passed,
    /// complete, wish, out, closing, window, decided, given, grand, tichu, start_grand, history,
    /// deal, seed, position).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let reg = registry()?;
        let s = &self.st;
        let deal = match self.ctx.deal.get() {
            Some(d) => d.clone_ref(py),
            None => {
                let order = self.ctx.deal_order.unwrap_or([0; 56]);
                let hands = (0..4)
                    .map(|h| {
                        PyTuple::new(
                            py,
                            order[h * 14..(h + 1) * 14]
                                .iter()
                                .map(|&c| reg.cards[c as usize].clone_ref(py)),
                        )
                    })
                    .collect::<PyResult<Vec<_>>>()?;
                let d = PyTuple::new(py, hands)?.into_any().unbind();
                let _ = self.ctx.deal.set(d.clone_ref(py));
                d
            }
        };
        let trick: Vec<(u8, u8, u8, u64, u8)> = self
            .trick_vec()
            .into_iter()
            .map(|(seat, c)| (seat, c.kind as u8, c.rank2, c.mask, c.phoenix))
            .collect();
        let given: Vec<Option<(u8, u8, u8)>> = (0..4)
            .map(|g| {
                (s.given_set >> g & 1 != 0).then(|| (s.given[g][0], s.given[g][1], s.given[g][2]))
            })
            .collect();
        let items: Vec<Py<PyAny>> = vec![
            self.ctx.rules.clone_ref(py),
            (s.phase as u8).into_pyobject(py)?.into_any().unbind(),
            s.to_move.into_pyobject(py)?.into_any().unbind(),
            s.hands.to_vec().into_pyobject(py)?.into_any().unbind(),
            s.seated.into_pyobject(py)?.into_any().unbind(),
            s.bomb_seats.into_pyobject(py)?.into_any().unbind(),
            s.quiet.into_pyobject(py)?.into_any().unbind(),
            s.taken.to_vec().into_pyobject(py)?.into_any().unbind(),
            s.trick_cards.into_pyobject(py)?.into_any().unbind(),
            trick.into_pyobject(py)?.into_any().unbind(),
            s.passed.into_pyobject(py)?.into_any().unbind(),
            s.complete.into_pyobject(py)?.to_owned().into_any().unbind(),
            s.wish.into_pyobject(py)?.into_any().unbind(),
            s.out().to_vec().into_pyobject(py)?.into_any().unbind(),
            s.closing.into_pyobject(py)?.to_owned().into_any().unbind(),
            s.window().to_vec().into_pyobject(py)?.into_any().unbind(),
            s.decided.into_pyobject(py)?.into_any().unbind(),
            s.grand.into_pyobject(py)?.into_any().unbind(),
            s.tichu.into_pyobject(py)?.into_any().unbind(),
            given.into_pyobject(py)?.into_any().unbind(),
            s.start_grand
                .into_pyobject(py)?
                .to_owned()
                .into_any()
                .unbind(),
            self.history.clone_ref(py),
            deal,
            self.ctx.seed.clone_ref(py),
            self.ctx.position.clone_ref(py),
        ];
        PyTuple::new(py, items)
    }

    /// The reference round of this state (equal position, history and record).
    fn reference<'py>(slf: &Bound<'py, NativeRound>) -> PyResult<Bound<'py, PyAny>> {
        slf.get().reference_round(slf)
    }

    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyAny> {
        self.ctx.rules.clone_ref(py)
    }

    #[getter]
    fn phase(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(registry()?.phases[self.st.phase as usize].clone_ref(py))
    }

    #[getter]
    fn to_move(&self) -> i8 {
        self.st.to_move
    }

    #[getter]
    fn is_over(&self) -> bool {
        self.st.is_over()
    }

    #[getter]
    fn is_trick_complete(&self) -> bool {
        self.st.closing || self.st.complete
    }

    #[getter]
    fn window<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        seat_mask_tuple(py, self.st.window())
    }

    #[getter]
    fn out<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        seat_mask_tuple(py, self.st.out())
    }

    #[getter]
    fn wish(&self) -> u8 {
        self.st.wish
    }

    #[getter]
    fn hands(&self) -> (u64, u64, u64, u64) {
        let h = self.st.hands;
        (h[0], h[1], h[2], h[3])
    }

    #[getter]
    fn awaiting<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut v = Vec::new();
        self.st.awaiting(&mut v);
        seat_mask_tuple(py, &v)
    }

    #[getter]
    fn history(&self, py: Python<'_>) -> Py<PyAny> {
        self.history.clone_ref(py)
    }

    /// The cards `seat` holds now, as a mask.
    fn hand_mask(&self, seat: usize) -> PyResult<u64> {
        self.st
            .hands
            .get(seat)
            .copied()
            .ok_or_else(|| PyIndexError::new_err("tuple index out of range"))
    }

    /// The seats asked now and what each may do (the reference's `decisions`).
    fn decisions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let st = &self.st;
        match st.phase {
            Phase::Play => {
                let to_move = st.to_move as u32;
                if st.n_window == 0 {
                    return PyTuple::new(py, [self.decision(py, to_move, 0)?]);
                }
                let mut items = Vec::with_capacity(5);
                for &s in st.window() {
                    items.push(self.decision(py, s as u32, 1)?);
                }
                if !st.complete {
                    items.push(self.decision(py, to_move, 0)?);
                }
                PyTuple::new(py, items)
            }
            Phase::Over => Ok(PyTuple::empty(py)),
            _ => {
                let mut seats = Vec::new();
                st.awaiting(&mut seats);
                let items = seats
                    .iter()
                    .map(|&s| self.decision(py, s as u32, 2))
                    .collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, items)
            }
        }
    }

    /// Everything `seat` may do now (the reference's values, an immutable sequence).
    fn legal_actions<'py>(
        slf: &Bound<'py, NativeRound>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let py = slf.py();
        if let Ok(s) = seat.cast_exact::<PyInt>() {
            if let Ok(s) = s.extract::<u32>() {
                if s < 4 {
                    return this.legal_of(py, s);
                }
            }
        }
        this.reference_round(slf)?
            .call_method1(pyo3::intern!(py, "legal_actions"), (seat,))
    }

    /// The state after `seat` does `action` (an Action or its text); the reference's errors.
    fn apply<'py>(
        slf: &Bound<'py, NativeRound>,
        seat: &Bound<'py, PyAny>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let py = slf.py();
        let seat_no = match seat.cast_exact::<PyInt>() {
            Ok(s) => match s.extract::<u32>() {
                Ok(s) if s < 4 => s,
                _ => return this.fallback(slf, seat, action),
            },
            Err(_) => return this.fallback(slf, seat, action),
        };
        let st = &this.st;
        if st.phase == Phase::Play && seat_no as i8 == st.to_move {
            if let Some(list) = this.legal.get() {
                if let Some(act) = list.get().made_act(action) {
                    let next = this.step(py, seat_no, &act, seat, action)?;
                    return Ok(Bound::new(py, next)?.into_any());
                }
            }
        }
        let reg = registry()?;
        let parsed;
        let action = if action.is_instance_of::<PyString>() {
            match reg.parse_action.bind(py).call1((action,)) {
                Ok(a) => {
                    parsed = a;
                    &parsed
                }
                Err(_) => return this.fallback(slf, seat, action),
            }
        } else {
            action
        };
        let Some(want) = act_of(py, reg, action)? else {
            return this.fallback(slf, seat, action);
        };
        match this.find(py, seat_no, &want)? {
            Some(act) => {
                Ok(Bound::new(py, this.step(py, seat_no, &act, seat, action)?)?.into_any())
            }
            None => this.fallback(slf, seat, action),
        }
    }

    /// Would `apply` accept `action` from `seat`?
    fn is_legal(
        slf: &Bound<'_, NativeRound>,
        seat: &Bound<'_, PyAny>,
        action: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let py = slf.py();
        match NativeRound::apply(slf, seat, action) {
            Ok(_) => Ok(true),
            Err(e) => {
                let pagoda = py.import("pagoda.core")?.getattr("PagodaError")?;
                if e.is_instance(py, &pagoda) {
                    Ok(false)
                } else {
                    Err(e)
                }
            }
        }
    }

    /// The points of the round for teams (0+2, 1+3); the reference's error before it is over.
    fn score<'py>(slf: &Bound<'py, NativeRound>) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let py = slf.py();
        if !this.st.is_over() {
            return this.reference_round(slf)?.call_method0("score");
        }
        Ok(this.st.score().into_pyobject(py)?.into_any())
    }

    /// The card points each team ends with; the reference's error before it is over.
    fn card_points<'py>(slf: &Bound<'py, NativeRound>) -> PyResult<Bound<'py, PyAny>> {
        let this = slf.get();
        let py = slf.py();
        if !this.st.is_over() {
            return this.reference_round(slf)?.call_method0("card_points");
        }
        Ok(this.st.card_points().into_pyobject(py)?.into_any())
    }

    /// `k` rollouts from here with `policy` (`"random"`: uniform over the first seat asked's
    /// actions; `"heuristic"` or `"club"`: that bot, with its default options, at every seat,
    /// from the play phase on), in one call: the scores, shape (k, 2), or with `first_out` (k, 3), the seat out first (-1: none)
    /// as a third column.
    #[pyo3(signature = (k, seed=0, policy="random", first_out=false))]
    fn rollouts<'py>(
        &self,
        py: Python<'py>,
        k: usize,
        seed: u64,
        policy: &str,
        first_out: bool,
    ) -> PyResult<Bound<'py, numpy::PyArray2<i64>>> {
        let policy = match policy {
            "random" => Policy::Random,
            "heuristic" => Policy::Heuristic,
            "club" => Policy::Club(Club::default()),
            other => {
                return Err(PyValueError::new_err(format!(
                    "no rollout policy {other:?}: \"random\", \"heuristic\" or \"club\""
                )))
            }
        };
        let st = self.st;
        let rows = py
            .detach(|| policy::rollouts(&st, k, seed, policy))
            .map_err(PyValueError::new_err)?;
        let width = if first_out { 3 } else { 2 };
        let flat: Vec<i64> = rows
            .iter()
            .flat_map(|&(a, b, o)| [a as i64, b as i64, o as i64].into_iter().take(width))
            .collect();
        PyArray1::from_vec(py, flat).reshape([k, width])
    }

    /// The `heuristic` bot's choice for the first seat asked, natively (`None` outside the play
    /// phase or once over): the action, as the reference's value.
    fn heuristic_action(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        self.bot_action(py, &policy::Heuristic)
    }

    /// The `club` bot's choice for the first seat asked, natively, with the options of
    /// `ClubBot` (`None` outside the play phase or once over).
    #[pyo3(signature = (
        tichu_margin=0.5, tichu_max=7, shed=0, press=4, break_up=14, ace_break=1, shed_below=9,
        dog_margin=-3
    ))]
    #[allow(clippy::too_many_arguments)]
    fn club_action(
        &self,
        py: Python<'_>,
        tichu_margin: f64,
        tichu_max: u32,
        shed: i64,
        press: u32,
        break_up: u32,
        ace_break: u32,
        shed_below: u32,
        dog_margin: i64,
    ) -> PyResult<Option<Py<PyAny>>> {
        let club = Club {
            tichu_margin,
            tichu_max,
            shed,
            press,
            break_up,
            ace_break,
            shed_below,
            dog_margin,
        };
        self.bot_action(py, &club)
    }

    /// Bytes of this state: the Rust value and the history and trick nodes it adds (earlier
    /// nodes are shared with the states before it; the cached action list is not counted).
    fn nbytes(&self) -> usize {
        std::mem::size_of::<NativeRound>()
            + 64 // the history node: a 3-tuple
            + self.trick.as_ref().map_or(0, |_| std::mem::size_of::<TrickNode>() + 16)
    }

    /// Bytes of the cached list of legal actions of the seat to move (0 until listed): the list
    /// and the actions handed out from it (not the shared ones).
    fn legal_nbytes(&self) -> usize {
        match self.legal.get() {
            None => 0,
            Some(l) => {
                let l = l.get();
                std::mem::size_of::<TichuActions>()
                    + 16 // the Python object's header
                    + l.acts.capacity() * std::mem::size_of::<Act>()
                    + l.made.lock().unwrap().capacity() * std::mem::size_of::<(u32, Py<PyAny>)>()
            }
        }
    }

    fn __getattr__<'py>(
        slf: &Bound<'py, NativeRound>,
        name: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if name.to_str()?.starts_with('_') {
            return Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "NativeRound has no attribute {name}"
            )));
        }
        slf.get().reference_round(slf)?.getattr(name)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, NativeRound>,
    ) -> PyResult<(Py<PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        Ok((
            registry()?.from_reference.clone_ref(py),
            (slf.get().reference_round(slf)?,),
        ))
    }

    fn __eq__<'py>(
        slf: &Bound<'py, NativeRound>,
        other: &Bound<'py, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let mine = slf.get().reference_round(slf)?;
        let theirs = match other.cast::<NativeRound>() {
            Ok(o) => o.get().reference_round(o)?,
            Err(_) => other.clone(),
        };
        Ok(mine
            .rich_compare(theirs, pyo3::basic::CompareOp::Eq)?
            .unbind())
    }

    fn __hash__(slf: &Bound<'_, NativeRound>) -> PyResult<isize> {
        slf.get().reference_round(slf)?.hash()
    }

    fn __repr__(slf: &Bound<'_, NativeRound>) -> PyResult<String> {
        let pos: String = slf
            .get()
            .reference_round(slf)?
            .call_method0("position")?
            .extract()?;
        let text = PyString::new(slf.py(), &pos).repr()?.to_string();
        Ok(format!("NativeRound.from_position({text})"))
    }
}

fn build(
    py: Python<'_>,
    name: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let kw = match kwargs {
        Some(k) => k.clone(),
        None => PyDict::new(py),
    };
    Ok(registry()?.build.bind(py).call1((name, args, kw))?.unbind())
}

pub(crate) fn rules_from_tuple(t: (bool, bool, bool, bool, bool)) -> Rules {
    Rules {
        phoenix_choice: t.0,
        one_call_per_team: t.1,
        wish_required: t.2,
        small_tichu_after_exchange_only: t.3,
        last_tricks_to_opponents: t.4,
    }
}

/// `rounds` whole uniform random rounds (the first seat asked acting each time) in one call:
/// the scores, shape (rounds, 2), and the number of actions taken.
#[pyfunction]
fn tichu_play_random<'py>(
    py: Python<'py>,
    rules: (bool, bool, bool, bool, bool),
    rounds: usize,
    seed: u64,
) -> PyResult<(Bound<'py, numpy::PyArray2<i64>>, u64)> {
    let r = rules_from_tuple(rules);
    let (rows, steps) = py.detach(|| batch::play_random(r, rounds, seed));
    let flat: Vec<i64> = rows
        .iter()
        .flat_map(|&(a, b)| [a as i64, b as i64])
        .collect();
    Ok((PyArray1::from_vec(py, flat).reshape([rounds, 2])?, steps))
}

/// The plays of `hand` on `on` ((kind, rank2, mask, phoenix), None: leading) as
/// (kind, rank2, mask, phoenix) tuples, in the reference's `raw_plays` order.
#[pyfunction]
#[pyo3(signature = (hand, on=None, phoenix_choice=false, bombs=true))]
fn tichu_plays(
    hand: u64,
    on: Option<(u8, u8, u64, u8)>,
    phoenix_choice: bool,
    bombs: bool,
) -> PyResult<Vec<(u8, u8, u64, u8)>> {
    let on = on.map(combo_of).transpose()?;
    let mut out = Vec::new();
    crate::tichu::movegen::plays(hand, on.as_ref(), phoenix_choice, bombs, &mut out);
    Ok(out
        .iter()
        .map(|c| (c.kind as u8, c.rank2, c.mask, c.phoenix))
        .collect())
}

/// The number of plays each hand leads, listed natively in one call.
#[pyfunction]
fn tichu_lead_counts<'py>(py: Python<'py>, hands: Vec<u64>) -> Bound<'py, PyArray1<u32>> {
    let counts = py.detach(|| {
        let mut out = Vec::with_capacity(512);
        hands
            .iter()
            .map(|&h| {
                out.clear();
                crate::tichu::movegen::lead_plays(h, false, &mut out);
                out.len() as u32
            })
            .collect::<Vec<u32>>()
    });
    PyArray1::from_vec(py, counts)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeRound>()?;
    m.add_class::<TichuActions>()?;
    m.add_function(wrap_pyfunction!(tichu_register, m)?)?;
    m.add_function(wrap_pyfunction!(tichu_play_random, m)?)?;
    m.add_function(wrap_pyfunction!(tichu_plays, m)?)?;
    m.add_function(wrap_pyfunction!(tichu_lead_counts, m)?)?;
    Ok(())
}

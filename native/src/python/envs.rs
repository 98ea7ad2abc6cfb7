//! Batched environments: B rounds stepped in one call, their observations and action masks
//! written into the caller's preallocated numpy arrays (`pagoda.envs.vector` wraps them).
//!
//! The layouts and the action vocabularies are the Python environments' (`tichu_flow`,
//! `doudizhu_flow`), proven equal by `tests/envs/test_vector.py`. A step checks every action
//! before it applies any: a bad one is an error naming the environment, and changes nothing.

use std::sync::Arc;

use numpy::{PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::doudizhu::flow as dflow;
use crate::tichu::flow as tflow;

fn check_rows(what: &str, rows: usize, cols: usize, b: usize, width: usize) -> PyResult<()> {
    if rows != b || cols != width {
        return Err(PyValueError::new_err(format!(
            "{what}: shape ({b}, {width}) wanted, not ({rows}, {cols})"
        )));
    }
    Ok(())
}

fn check_len(what: &str, len: usize, b: usize) -> PyResult<()> {
    if len != b {
        return Err(PyValueError::new_err(format!(
            "{what}: {b} entries wanted, not {len}"
        )));
    }
    Ok(())
}

/// The environments' part the two games share: observe the asked seats, fill the masks.
trait Env {
    fn actor(&self) -> i8;
    fn players(&self) -> usize;
    fn observe_into(&self, seat: u32, out: &mut [i8]);
    fn mask_into(&self, out: &mut [i8]);
}

impl Env for tflow::Flow {
    fn actor(&self) -> i8 {
        tflow::Flow::actor(self)
    }
    fn players(&self) -> usize {
        4
    }
    fn observe_into(&self, seat: u32, out: &mut [i8]) {
        self.observe(seat, out)
    }
    fn mask_into(&self, out: &mut [i8]) {
        self.mask(out)
    }
}

impl Env for dflow::Flow {
    fn actor(&self) -> i8 {
        dflow::Flow::actor(self)
    }
    fn players(&self) -> usize {
        self.st.rules.players
    }
    fn observe_into(&self, seat: u32, out: &mut [i8]) {
        self.observe(seat as u8, out)
    }
    fn mask_into(&self, out: &mut [i8]) {
        self.mask(out)
    }
}

/// Write the observation of each env's `seats[i]` (-1: the seat to act; nothing once over)
/// into `obs`, the masks into `mask` (the seat to act's legal indices; zeros for the others)
/// and the seat to act into `actors`.
#[allow(clippy::too_many_arguments)]
fn observe_all<E: Env>(
    envs: &[Option<E>],
    obs_size: usize,
    num_actions: usize,
    seats: &PyReadonlyArray1<'_, i64>,
    obs: &mut PyReadwriteArray2<'_, i8>,
    mask: &mut PyReadwriteArray2<'_, i8>,
    actors: &mut PyReadwriteArray1<'_, i64>,
) -> PyResult<()> {
    let b = envs.len();
    let seats = seats.as_slice()?;
    check_len("seats", seats.len(), b)?;
    let (r, c) = (obs.shape()[0], obs.shape()[1]);
    check_rows("obs", r, c, b, obs_size)?;
    let (r, c) = (mask.shape()[0], mask.shape()[1]);
    check_rows("mask", r, c, b, num_actions)?;
    let actors = actors.as_slice_mut()?;
    check_len("actors", actors.len(), b)?;
    for (i, env) in envs.iter().enumerate() {
        let Some(env) = env else {
            return Err(PyValueError::new_err(format!(
                "environment {i} has not been reset"
            )));
        };
        let s = seats[i];
        if s < -1 || s >= env.players() as i64 {
            return Err(PyValueError::new_err(format!(
                "seats[{i}] is {s}: a seat 0..{} or -1 (the seat to act)",
                env.players() - 1
            )));
        }
    }
    let obs = obs.as_slice_mut()?;
    let mask = mask.as_slice_mut()?;
    obs.fill(0);
    mask.fill(0);
    for (i, env) in envs.iter().enumerate() {
        let env = env.as_ref().unwrap();
        let actor = env.actor();
        actors[i] = actor as i64;
        let seat = if seats[i] >= 0 {
            seats[i]
        } else {
            actor as i64
        };
        if seat >= 0 {
            env.observe_into(seat as u32, &mut obs[i * obs_size..(i + 1) * obs_size]);
        }
        if seat == actor as i64 {
            env.mask_into(&mut mask[i * num_actions..(i + 1) * num_actions]);
        }
    }
    Ok(())
}

fn check_actions(actions: &[i64], b: usize) -> PyResult<()> {
    check_len("actions", actions.len(), b)
}

fn rewards_rows<'a>(
    rewards: &'a mut PyReadwriteArray2<'_, f32>,
    b: usize,
    players: usize,
) -> PyResult<&'a mut [f32]> {
    let (r, c) = (rewards.shape()[0], rewards.shape()[1]);
    check_rows("rewards", r, c, b, players)?;
    Ok(rewards.as_slice_mut()?)
}

/// B Tichu rounds as decisions (`pagoda.envs.tichu_flow`), stepped together.
#[pyclass(module = "pagoda_native")]
pub struct TichuBatch {
    rules: crate::tichu::state::Rules,
    envs: Vec<Option<tflow::Flow>>,
}

#[pymethods]
impl TichuBatch {
    /// `num_envs` environments of the rules flags (`pagoda.tichu.native.rules_flags`), each to
    /// be reset before use.
    #[new]
    fn new(num_envs: usize, rules: (bool, bool, bool, bool, bool)) -> PyResult<TichuBatch> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs: at least 1"));
        }
        Ok(TichuBatch {
            rules: super::tichu::rules_from_tuple(rules),
            envs: vec![None; num_envs],
        })
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// The observation's width.
    #[getter]
    fn obs_size(&self) -> usize {
        tflow::OBS_SIZE
    }

    /// The vocabulary's size.
    #[getter]
    fn num_actions(&self) -> usize {
        tflow::num_actions()
    }

    /// The play keys in index order, from `PLAY0` on (`tichu_flow.PLAY_KEYS`, the kind as a code).
    #[staticmethod]
    fn play_keys() -> Vec<(u8, u8, u8, u8)> {
        tflow::play_keys()
    }

    /// Start environment `index` on the reference's round of `seed` (`Round.new(seed)`).
    fn reset(&mut self, index: usize, seed: u64) -> PyResult<()> {
        let b = self.envs.len();
        let slot = self
            .envs
            .get_mut(index)
            .ok_or_else(|| PyIndexError::new_err(format!("environment {index}: 0..{}", b - 1)))?;
        *slot = Some(tflow::Flow::new(tflow::seeded(seed as u128, self.rules)));
        Ok(())
    }

    /// The seat to act in environment `index` (-1 once over).
    fn actor(&self, index: usize) -> PyResult<i8> {
        Ok(self.env(index)?.actor())
    }

    /// The legal indices of environment `index`, ascending.
    fn legal(&self, index: usize) -> PyResult<Vec<u16>> {
        let e = self.env(index)?;
        Ok(if e.over {
            vec![]
        } else {
            e.decision().indices.clone()
        })
    }

    /// Is environment `index` over?
    fn is_over(&self, index: usize) -> PyResult<bool> {
        Ok(self.env(index)?.over)
    }

    /// Apply `actions[i]` in every environment; its rewards into `rewards` (B x 4) and whether
    /// it ended into `dones`. Every action is checked first: a bad one changes nothing.
    fn step(
        &mut self,
        actions: PyReadonlyArray1<'_, i64>,
        mut rewards: PyReadwriteArray2<'_, f32>,
        mut dones: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let b = self.envs.len();
        let actions = actions.as_slice()?;
        check_actions(actions, b)?;
        let dones = dones.as_slice_mut()?;
        check_len("dones", dones.len(), b)?;
        let rewards = rewards_rows(&mut rewards, b, 4)?;
        for (i, (env, &a)) in self.envs.iter().zip(actions).enumerate() {
            let Some(env) = env else {
                return Err(PyValueError::new_err(format!(
                    "environment {i} has not been reset"
                )));
            };
            if env.over {
                return Err(PyValueError::new_err(format!(
                    "environment {i} is over: reset it first"
                )));
            }
            if !(0..tflow::num_actions() as i64).contains(&a) || !env.is_legal(a as u16) {
                return Err(PyValueError::new_err(format!(
                    "actions[{i}] = {a} is not legal for seat {} now",
                    env.actor()
                )));
            }
        }
        for (i, env) in self.envs.iter_mut().enumerate() {
            let env = env.as_mut().unwrap();
            let r = env.step(actions[i] as u16).expect("checked above");
            rewards[i * 4..i * 4 + 4].copy_from_slice(&r);
            dones[i] = env.over;
        }
        Ok(())
    }

    /// Write the observations (B x obs_size), masks (B x num_actions) and seats to act (B):
    /// of `seats[i]` in environment i (-1: the seat to act); the mask is 0 but for that seat.
    fn observe(
        &self,
        seats: PyReadonlyArray1<'_, i64>,
        mut obs: PyReadwriteArray2<'_, i8>,
        mut mask: PyReadwriteArray2<'_, i8>,
        mut actors: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        observe_all(
            &self.envs,
            tflow::OBS_SIZE,
            tflow::num_actions(),
            &seats,
            &mut obs,
            &mut mask,
            &mut actors,
        )
    }
}

impl TichuBatch {
    fn env(&self, index: usize) -> PyResult<&tflow::Flow> {
        match self.envs.get(index) {
            Some(Some(e)) => Ok(e),
            Some(None) => Err(PyValueError::new_err(format!(
                "environment {index} has not been reset"
            ))),
            None => Err(PyIndexError::new_err(format!(
                "environment {index}: 0..{}",
                self.envs.len() - 1
            ))),
        }
    }
}

/// B Dou Di Zhu rounds as decisions (`pagoda.envs.doudizhu_flow`), stepped together.
#[pyclass(module = "pagoda_native")]
pub struct DdzBatch {
    vocab: Arc<dflow::Vocab>,
    seed_bytes: Py<PyAny>,
    envs: Vec<Option<dflow::Flow>>,
}

/// The seed bytes of `text` from the caller's function (CPython's `random.seed` of a str). The
/// function is the module's own (the text's bytes and their SHA-512), which does not fail.
fn seed_bytes_of<'py>(py: Python<'py>, f: &Py<PyAny>) -> impl FnMut(&str) -> Vec<u8> + 'py {
    let f = f.clone_ref(py);
    move |text: &str| -> Vec<u8> {
        f.bind(py)
            .call1((text,))
            .and_then(|b| Ok(b.cast_into::<PyBytes>()?.as_bytes().to_vec()))
            .expect("seed_bytes(text) gives bytes")
    }
}

#[pymethods]
impl DdzBatch {
    /// `num_envs` environments of `rules` (`pagoda.doudizhu.native.rules_fields`) over the
    /// vocabulary's `plays` (`doudizhu_flow.vocabulary(rules).plays`); `seed_bytes(text)` is
    /// CPython's seed of `random.Random(text)`: the text's bytes and their SHA-512.
    #[new]
    fn new(
        num_envs: usize,
        rules: &Bound<'_, PyTuple>,
        plays: Vec<u128>,
        seed_bytes: Py<PyAny>,
    ) -> PyResult<DdzBatch> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs: at least 1"));
        }
        let rules = super::doudizhu::rules_of(rules)?;
        Ok(DdzBatch {
            vocab: Arc::new(dflow::Vocab::new(rules, plays)),
            seed_bytes,
            envs: vec![None; num_envs],
        })
    }

    /// The number of environments.
    #[getter]
    fn num_envs(&self) -> usize {
        self.envs.len()
    }

    /// The observation's width.
    #[getter]
    fn obs_size(&self) -> usize {
        self.vocab.obs_size
    }

    /// The vocabulary's size.
    #[getter]
    fn num_actions(&self) -> usize {
        self.vocab.size()
    }

    /// The number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.vocab.rules.players
    }

    /// Start environment `index` on the reference's round of `seed` (`Round.new(seed, rules)`).
    fn reset(&mut self, py: Python<'_>, index: usize, seed: u64) -> PyResult<()> {
        let b = self.envs.len();
        if index >= b {
            return Err(PyIndexError::new_err(format!(
                "environment {index}: 0..{}",
                b - 1
            )));
        }
        let mut f = seed_bytes_of(py, &self.seed_bytes);
        self.envs[index] = Some(dflow::Flow::new(self.vocab.clone(), seed, &mut f));
        Ok(())
    }

    /// The seat to act in environment `index` (-1 once over).
    fn actor(&self, index: usize) -> PyResult<i8> {
        Ok(self.env(index)?.actor())
    }

    /// The legal indices of environment `index`, ascending.
    fn legal(&self, index: usize) -> PyResult<Vec<u16>> {
        Ok(self.env(index)?.indices.clone())
    }

    /// Is environment `index` over?
    fn is_over(&self, index: usize) -> PyResult<bool> {
        Ok(self.env(index)?.over)
    }

    /// Apply `actions[i]` in every environment; its rewards into `rewards` (B x players) and
    /// whether it ended into `dones`. Every action is checked first: a bad one changes nothing.
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyReadonlyArray1<'_, i64>,
        mut rewards: PyReadwriteArray2<'_, f32>,
        mut dones: PyReadwriteArray1<'_, bool>,
    ) -> PyResult<()> {
        let b = self.envs.len();
        let n = self.vocab.rules.players;
        let actions = actions.as_slice()?;
        check_actions(actions, b)?;
        let dones = dones.as_slice_mut()?;
        check_len("dones", dones.len(), b)?;
        let rewards = rewards_rows(&mut rewards, b, n)?;
        let size = self.vocab.size() as i64;
        for (i, (env, &a)) in self.envs.iter().zip(actions).enumerate() {
            let Some(env) = env else {
                return Err(PyValueError::new_err(format!(
                    "environment {i} has not been reset"
                )));
            };
            if env.over {
                return Err(PyValueError::new_err(format!(
                    "environment {i} is over: reset it first"
                )));
            }
            if !(0..size).contains(&a) || !env.is_legal(a as u16) {
                return Err(PyValueError::new_err(format!(
                    "actions[{i}] = {a} is not legal for seat {} now",
                    env.actor()
                )));
            }
        }
        let mut f = seed_bytes_of(py, &self.seed_bytes);
        for (i, env) in self.envs.iter_mut().enumerate() {
            let env = env.as_mut().unwrap();
            let r = env.step(actions[i] as u16, &mut f).expect("checked above");
            rewards[i * n..(i + 1) * n].copy_from_slice(&r[..n]);
            dones[i] = env.over;
        }
        Ok(())
    }

    /// Write the observations, masks and seats to act (see `TichuBatch.observe`).
    fn observe(
        &self,
        seats: PyReadonlyArray1<'_, i64>,
        mut obs: PyReadwriteArray2<'_, i8>,
        mut mask: PyReadwriteArray2<'_, i8>,
        mut actors: PyReadwriteArray1<'_, i64>,
    ) -> PyResult<()> {
        observe_all(
            &self.envs,
            self.vocab.obs_size,
            self.vocab.size(),
            &seats,
            &mut obs,
            &mut mask,
            &mut actors,
        )
    }
}

impl DdzBatch {
    fn env(&self, index: usize) -> PyResult<&dflow::Flow> {
        match self.envs.get(index) {
            Some(Some(e)) => Ok(e),
            Some(None) => Err(PyValueError::new_err(format!(
                "environment {index} has not been reset"
            ))),
            None => Err(PyIndexError::new_err(format!(
                "environment {index}: 0..{}",
                self.envs.len() - 1
            ))),
        }
    }
}

/// Register the batched environments.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TichuBatch>()?;
    m.add_class::<DdzBatch>()?;
    Ok(())
}

//! The variants the binding has met.  `tsume.variant` gives the binding, at
//! import, the function that turns a `variant=` argument into a variant (a
//! name, a spec with switches, a Variant) and the built-in variants; the
//! binding reads each variant's description once and makes its tables once per
//! board length, shared by every position of that game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

use super::{engine_error, py_repr, tables::PyTables};
use crate::rules::error::EngineError;
use crate::rules::notation::Setup;
use crate::rules::tables::Tables;
use crate::rules::variant::Variant;

/// A variant the binding has met: the package's value and the engine's
/// reading of its description, with the tables of each board length.
struct Known {
    object: Py<PyAny>,
    variant: Arc<Variant>,
    tables: HashMap<usize, Py<PyTables>>,
}

/// The variants met so far, by their description; the package's resolver.
#[derive(Default)]
struct Registry {
    known: HashMap<String, Known>,
    /// A variant object (by address, held alive in `known`) or a spec string to its description.
    by_object: HashMap<usize, String>,
    by_spec: HashMap<String, String>,
    builtin: Vec<Variant>,
}

/// The most variant objects and specs remembered (each `get_variant` with
/// switches makes a new object): past it the address and spec maps start over.
const REMEMBERED: usize = 4096;

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);
static RESOLVER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn registry<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    let mut guard = REGISTRY.lock().unwrap_or_else(|p| p.into_inner());
    f(guard.get_or_insert_with(Registry::default))
}

/// Given once by `tsume.variant` at import: the function that makes a variant
/// of a `variant=` argument (a name, a spec with switches, a Variant), and the
/// built-in variants, which messages may suggest.
#[pyfunction]
pub fn use_variants(py: Python<'_>, resolver: Py<PyAny>, builtin: Vec<Py<PyAny>>) -> PyResult<()> {
    let mut read = vec![];
    for v in &builtin {
        let desc: String = v.bind(py).call_method0("description")?.extract()?;
        read.push(Variant::from_json(&desc).map_err(|e| engine_error(py, e))?);
    }
    let _ = RESOLVER.set(py, resolver);
    registry(|r| r.builtin = read);
    Ok(())
}

/// The description (the registry's key) of a `variant=` argument: None is the
/// resolver's default (Ito), a string a name or spec, else a Variant.
pub fn variant_key(py: Python<'_>, arg: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
    let spec = match arg {
        None => Some("ito".to_string()),
        Some(a) => a.extract::<String>().ok(),
    };
    let hit = registry(|r| match (&spec, arg) {
        (Some(s), _) => r.by_spec.get(s).cloned(),
        (None, Some(a)) => r.by_object.get(&(a.as_ptr() as usize)).cloned(),
        (None, None) => None,
    });
    if let Some(key) = hit {
        return Ok(key);
    }
    let resolver = RESOLVER.get(py).ok_or_else(|| {
        PyErr::new::<pyo3::exceptions::PyRuntimeError, _>(
            "tsume._engine: no variants yet (import tsume first)",
        )
    })?;
    let given = match &spec {
        Some(s) => PyString::new(py, s).into_any(),
        None => arg.expect("an object").clone(),
    };
    let object = resolver.bind(py).call1((given,))?;
    let desc: String = object.call_method0("description")?.extract()?;
    let variant = Variant::from_json(&desc).map_err(|e| engine_error(py, e))?;
    let object = object.unbind();
    let address = object.as_ptr() as usize;
    registry(|r| {
        if r.by_object.len() > REMEMBERED || r.by_spec.len() > REMEMBERED {
            r.by_object.clear();
            r.by_spec.clear();
        }
        r.known.entry(desc.clone()).or_insert_with(|| Known {
            object: object.clone_ref(py),
            variant: Arc::new(variant),
            tables: HashMap::new(),
        });
        // The address stays valid while `known` holds the object it names.
        if r.known[&desc].object.as_ptr() as usize == address {
            r.by_object.insert(address, desc.clone());
        }
        if let Some(s) = spec {
            r.by_spec.insert(s, desc.clone());
        }
    });
    Ok(desc)
}

/// The tables of a known variant for `n` squares, made once.
pub fn tables_of(py: Python<'_>, key: &str, n: usize) -> PyResult<Py<PyTables>> {
    let found = registry(|r| {
        let k = &r.known[key];
        match k.tables.get(&n) {
            Some(t) => Ok(t.clone_ref(py)),
            None => Err((k.variant.clone(), k.object.clone_ref(py))),
        }
    });
    let (variant, object) = match found {
        Ok(t) => return Ok(t),
        Err(missing) => missing,
    };
    let tables = Tables::new(&variant, n).map_err(|e| engine_error(py, e))?;
    let made = Py::new(py, PyTables::new(py, Arc::new(tables), object)?)?;
    Ok(registry(|r| {
        r.known
            .get_mut(key)
            .expect("known")
            .tables
            .entry(n)
            .or_insert(made)
            .clone_ref(py)
    }))
}

/// The engine's reading of a known variant and the other built-in ones.
pub fn variant_and_others(key: &str) -> (Arc<Variant>, Vec<Variant>) {
    registry(|r| (r.known[key].variant.clone(), r.builtin.clone()))
}

/// The tables for `variant` (a name, spec or Variant) on `n` squares, shared
/// by every position of that game and length.
#[pyfunction]
#[pyo3(signature = (variant, n))]
pub fn tables_for(py: Python<'_>, variant: &Bound<'_, PyAny>, n: usize) -> PyResult<Py<PyTables>> {
    let key = variant_key(py, Some(variant))?;
    tables_of(py, &key, n)
}

/// Reads a position string for the variant named by `key`.
pub fn read_setup(py: Python<'_>, text: &str, key: &str) -> PyResult<(Setup, Py<PyTables>)> {
    let (variant, others) = variant_and_others(key);
    let mut made: Option<Py<PyTables>> = None;
    let mut tables = |n: usize| -> crate::rules::error::Result<Arc<Tables>> {
        let t = tables_of(py, key, n).map_err(|e| EngineError::Variant(e.to_string()))?;
        let arc = t.get().tables.clone();
        made = Some(t);
        Ok(arc)
    };
    let setup = Setup::read(text, &variant, &others, &mut tables, &|t: &str| {
        py_repr(py, t)
    })
    .map_err(|e| engine_error(py, e))?;
    Ok((setup, made.expect("tables made for a read position")))
}

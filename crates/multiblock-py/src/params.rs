//! `**params` keywords onto [`multiblock::modes::Params`], named as in the
//! vectors' `params` (and the CLI flags with `-` for `_`).

use multiblock::modes::{Padding, Params};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::to_py;

/// Every keyword that `**params` takes.
pub const NAMES: [&str; 11] = [
    "padding",
    "s",
    "m",
    "mac_bits",
    "tag_bits",
    "section_bytes",
    "key_section_bytes",
    "nb",
    "key_meshing",
    "data_unit",
    "unit",
];

/// Builds the parameters from `iv`, `aad` and the keywords. A keyword given
/// as `None` means the standard's default, like leaving it out.
pub fn from_kwargs(iv: Option<Vec<u8>>, aad: Option<Vec<u8>>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Params> {
    let mut p = Params { iv, aad: aad.unwrap_or_default(), ..Params::default() };
    let Some(kwargs) = kwargs else { return Ok(p) };
    for (k, v) in kwargs.iter() {
        let name: String = k.extract()?;
        if v.is_none() {
            if NAMES.contains(&name.as_str()) {
                continue;
            }
            return Err(unknown(&name));
        }
        match name.as_str() {
            "padding" => {
                let s: String = v.extract().map_err(|_| type_error("padding", "a str", &v))?;
                p.padding = Padding::from_name(&s).map_err(to_py)?;
            }
            "key_meshing" => p.key_meshing = v.extract().map_err(|_| type_error("key_meshing", "a bool", &v))?,
            "s" => p.s = Some(size(&name, &v)?),
            "m" => p.m = Some(size(&name, &v)?),
            "mac_bits" => p.mac_bits = Some(size(&name, &v)?),
            "tag_bits" => p.tag_bits = Some(size(&name, &v)?),
            "section_bytes" => p.section_bytes = Some(size(&name, &v)?),
            "key_section_bytes" => p.key_section_bytes = Some(size(&name, &v)?),
            "nb" => p.nb = Some(size(&name, &v)?),
            "data_unit" => p.data_unit = Some(size(&name, &v)?),
            "unit" => p.unit = Some(unit_number(&v)?),
            _ => return Err(unknown(&name)),
        }
    }
    Ok(p)
}

/// An int argument (not a bool, which is an int to Python), as `T`; a value
/// out of `T`'s range is `out_of_range`, a ValueError.
pub(crate) fn int_of<T>(name: &str, v: &Bound<'_, PyAny>, out_of_range: impl FnOnce() -> PyErr) -> PyResult<T>
where
    T: for<'a, 'py> FromPyObject<'a, 'py>,
{
    if v.is_instance_of::<pyo3::types::PyBool>() || !v.is_instance_of::<pyo3::types::PyInt>() {
        return Err(type_error(name, "an int", v));
    }
    v.extract::<T>().map_err(|_| out_of_range())
}

/// A non-negative integer parameter that fits a `usize` (the mode checks
/// its own range after).
fn size(name: &str, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    int_of(name, v, || {
        let negative = v.lt(0).unwrap_or(false);
        let rule = if negative { "a non-negative integer".to_string() } else { format!("at most {}", usize::MAX) };
        PyValueError::new_err(format!("{name} must be {rule}, got {v}"))
    })
}

/// An XTS data-unit number: an int from 0 to 2^128 - 1.
fn unit_number(v: &Bound<'_, PyAny>) -> PyResult<u128> {
    int_of("unit", v, || PyValueError::new_err(format!("unit must be an integer from 0 to 2**128 - 1, got {v}")))
}

fn type_error(name: &str, expected: &str, v: &Bound<'_, PyAny>) -> PyErr {
    let got = v.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
    PyTypeError::new_err(format!("{name} must be {expected}, not {got}"))
}

fn unknown(name: &str) -> PyErr {
    PyTypeError::new_err(format!(
        "unexpected keyword argument '{name}' (mode parameters are: {})",
        NAMES.join(", ")
    ))
}

//! What every long engine call shares when it runs without the GIL: whether
//! it runs on Python's main thread (only there may it look at Python's
//! signals, so Ctrl-C stops it) and what a caught panic said.

use std::any::Any;

use pyo3::prelude::*;

/// Is this call on Python's main thread?
pub(crate) fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    Ok(threading
        .call_method0("current_thread")?
        .is(threading.call_method0("main_thread")?))
}

/// The message of a panic caught by `catch_unwind` (empty if it has none).
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_messages() {
        let owned = std::panic::catch_unwind(|| panic!("{}", String::from("owned"))).unwrap_err();
        assert_eq!(panic_message(owned.as_ref()), "owned");
        let literal = std::panic::catch_unwind(|| panic!("literal")).unwrap_err();
        assert_eq!(panic_message(literal.as_ref()), "literal");
        let other = std::panic::catch_unwind(|| std::panic::panic_any(7u8)).unwrap_err();
        assert_eq!(panic_message(other.as_ref()), "");
    }
}

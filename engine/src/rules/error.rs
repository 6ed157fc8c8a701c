//! Errors as types: every constructor validates its input and says what is wrong in one line.

use std::fmt;

/// What went wrong, with a one-line message for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A variant description the engine cannot use.
    Variant(String),
    /// A position that cannot arise or cannot be represented.
    Position(String),
    /// A well-formed move that is not legal here.
    Move(String),
    /// A move string that cannot be read.
    MoveSyntax(String),
    /// An argument out of its range.
    Argument(String),
}

impl EngineError {
    /// The message without the kind.
    pub fn message(&self) -> &str {
        match self {
            EngineError::Variant(m)
            | EngineError::Position(m)
            | EngineError::Move(m)
            | EngineError::MoveSyntax(m)
            | EngineError::Argument(m) => m,
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for EngineError {}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, EngineError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_and_display() {
        let e = EngineError::Position("board: two Black kings".into());
        assert_eq!(e.message(), "board: two Black kings");
        assert_eq!(e.to_string(), "board: two Black kings");
        assert_ne!(e, EngineError::Move("board: two Black kings".into()));
    }
}

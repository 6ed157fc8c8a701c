//! Position and move strings: `<board> <side> <hands>` and `19-18`, `P*18`, `+L*18`.
//!
//! The Python package reads position strings itself (its messages point at
//! the column at fault); this reader serves Rust callers and tests, and the
//! formatting serves both.

use std::sync::Arc;

use crate::colour::Colour;
use crate::error::{EngineError, Result};
use crate::moves::Move;
use crate::position::Position;
use crate::tables::Tables;
use crate::variant::Variant;

impl Position {
    /// Reads `<board> <side> <hands> [<move number>]` (the move number is ignored) and validates the position.
    pub fn from_fen(variant: &Variant, text: &str) -> Result<Position> {
        let bad = |m: String| EngineError::Position(m);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(bad(format!(
                "position {text:?}: expected '<board> <side> <hands> [<move number>]'"
            )));
        }
        let mut cells: Vec<Option<(bool, char)>> = vec![];
        let mut promoted = false;
        let mut run = 0usize;
        for ch in fields[0].chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run.saturating_mul(10).saturating_add(d as usize);
                if run > crate::square::MAX_SQUARES {
                    return Err(bad("board: too many squares".into()));
                }
                continue;
            }
            cells.extend(std::iter::repeat_n(None, run));
            run = 0;
            match ch {
                '+' if !promoted => promoted = true,
                c if c.is_ascii_alphabetic() => {
                    cells.push(Some((promoted, c)));
                    promoted = false;
                }
                c => return Err(bad(format!("board: unexpected character {c:?}"))),
            }
            if cells.len() > crate::square::MAX_SQUARES {
                return Err(bad("board: too many squares".into()));
            }
        }
        if promoted {
            return Err(bad("board: '+' must be followed by a piece letter".into()));
        }
        cells.extend(std::iter::repeat_n(None, run));
        let n = cells.len();
        if !variant.fits(n) {
            return Err(bad(format!(
                "board: {n} squares do not fit {}",
                variant.name
            )));
        }
        let t = Arc::new(Tables::new(variant, n)?);
        let mut board = vec![0u8; n];
        for (i, cell) in cells.iter().enumerate() {
            if let Some((promoted, letter)) = cell {
                let k = t
                    .kind_letter
                    .iter()
                    .position(|&l| l == letter.to_ascii_uppercase())
                    .ok_or_else(|| {
                        bad(format!(
                            "board: unknown piece letter {letter:?} on square {}",
                            i + 1
                        ))
                    })?;
                let f = if *promoted {
                    t.promoted_face[k]
                } else {
                    t.unpromoted_face[k]
                };
                if f == 0 {
                    return Err(bad(format!(
                        "board: piece {letter:?} on square {} cannot be promoted",
                        i + 1
                    )));
                }
                board[i] = f << 1 | letter.is_ascii_lowercase() as u8;
            }
        }
        let turn = match fields[1] {
            "b" => Colour::Black,
            "w" => Colour::White,
            s => return Err(bad(format!("side to move: expected 'b' or 'w', got {s:?}"))),
        };
        let mut hands = [vec![0u8; t.nkinds], vec![0u8; t.nkinds]];
        if fields[2] != "-" {
            let mut count = 0usize;
            for ch in fields[2].chars() {
                if let Some(d) = ch.to_digit(10) {
                    count = (count * 10 + d as usize).min(1000);
                    continue;
                }
                let k = t
                    .kind_letter
                    .iter()
                    .position(|&l| l == ch.to_ascii_uppercase())
                    .filter(|&k| k != t.royal_kind)
                    .ok_or_else(|| bad(format!("hands: no piece {ch:?} in hand")))?;
                let c = ch.is_ascii_lowercase() as usize;
                let total = hands[c][k] as usize + count.max(1);
                if total > t.kind_count[k] as usize {
                    return Err(bad(format!("hands: too many {ch}")));
                }
                hands[c][k] = total as u8;
                count = 0;
            }
        }
        let p = Position::new(t, &board, [&hands[0], &hands[1]], turn)?;
        p.validate()?;
        Ok(p)
    }

    /// The board field, e.g. `k3fg1hc2tp5PT2CH1GF3K`.
    pub fn board_string(&self) -> String {
        let t = &*self.tables;
        let mut out = String::new();
        let mut empty = 0;
        for &v in self.board() {
            if v == 0 {
                empty += 1;
                continue;
            }
            if empty != 0 {
                out += &empty.to_string();
                empty = 0;
            }
            let letter = &t.face_letter[(v >> 1) as usize];
            if v & 1 == 0 {
                out += letter;
            } else {
                out += &letter.to_ascii_lowercase();
            }
        }
        if empty != 0 {
            out += &empty.to_string();
        }
        out
    }

    /// The hands field, Black's pieces (uppercase) then White's, e.g. `2PTh`, or `-`.
    pub fn hands_string(&self) -> String {
        let t = &*self.tables;
        let mut out = String::new();
        for c in 0..2 {
            for k in 0..t.nkinds {
                let cnt = self.hands[c].count(k);
                if cnt != 0 {
                    if cnt > 1 {
                        out += &cnt.to_string();
                    }
                    let l = t.kind_letter[k];
                    out.push(if c == 0 { l } else { l.to_ascii_lowercase() });
                }
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// The position string without the move number.
    pub fn fen(&self) -> String {
        let side = if self.turn == Colour::Black { "b" } else { "w" };
        format!("{} {side} {}", self.board_string(), self.hands_string())
    }

    /// The move string: `19-18` or `P*18` (`+L*18` for a promoted drop).
    pub fn move_string(&self, m: Move) -> String {
        if m.is_drop() {
            let f = m.face() as usize;
            let letter = self.tables.face_letter.get(f).map_or("?", |s| s.as_str());
            format!("{letter}*{}", m.to())
        } else {
            format!("{}-{}", m.from(), m.to())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::builtin;

    #[test]
    fn round_trip() {
        let ito = builtin("ito");
        for fen in [
            "k3fg1hc2tp5PT2CH1GF3K b -",
            "2k1p2+f3h4c2G5PT2K1 b TCHgf",
            "1t1k17C1G5K1 b 2PTH2F",
        ] {
            let p = Position::from_fen(&ito, fen).unwrap();
            assert_eq!(p.fen(), fen);
        }
        let r = builtin("rutherford");
        let p = Position::from_fen(&r, "klsnbp9PBNSLK b - 1").unwrap();
        assert_eq!(p.n(), 21);
        assert_eq!(p.move_string(Move::board(16, 15)), "16-15");
        assert_eq!(p.move_string(Move::drop(3, 7)), "+P*7");
    }

    #[test]
    fn bad_strings_are_errors() {
        let ito = builtin("ito");
        for bad in [
            "",
            "k3fg1hc2tp5PT2CH1GF3K",
            "k3fg1hc2tp5PT2CH1GF3K x -",
            "k3fg1hc2tp5PT2CH1GF2K b -",
            "k3fg1hc2tp5PT2CH1GF3X b -",
            "k3fg1hc2tp5PT2CH1GF3+ b -",
            "+k3fg1hc2tp5PT2CH1GF3K b -",
            "k3fg1hc2tp5PT2CH1GF3K b 9P",
            "k3fg1hc2tp5PT2CH1GF3K b K",
            "k99999999999999999999 b -",
            "k3fg1hc2tp5PT2CH1G4K b FF",
        ] {
            assert!(Position::from_fen(&ito, bad).is_err(), "{bad}");
        }
    }
}

//! Position, hand and move strings: the one reader and writer of them.
//!
//! A position string is `<board> <side> <hands> [<move number>]` (docs/notation.md),
//! a move string `19-18`, `P*18` or `+L*18`.  Reading checks the form only and
//! gives a [`Setup`] (shakmaty's word: the fields of a position, not yet
//! validated); [`Setup::position`] builds the [`Position`].  Every message is
//! one line naming the column (in characters, counted from 1) at fault.
//!
//! Messages quote what the user typed.  How a quote looks is the caller's
//! ([`Quote`]): the Python binding quotes as Python's `repr` does, so that the
//! messages read as the rest of the package's.

use std::sync::Arc;

use crate::rules::colour::Colour;
use crate::rules::error::{EngineError, Result};
use crate::rules::hand::Hand;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::tables::Tables;
use crate::rules::variant::Variant;

/// The most digits a number in a position or move string may have: no count,
/// square or move number comes near it, and the bound keeps numbers small.
pub const MAX_DIGITS: usize = 9;

/// How much of a user's text a message quotes (in characters) before cutting it.
pub const QUOTE_LIMIT: usize = 40;

/// Quotes a whole string for a message (Python's `repr`, in the binding).
pub type Quote<'a> = &'a dyn Fn(&str) -> String;

/// A string quoted as Python's `repr` quotes the common cases: single quotes
/// unless the text holds one and no double quote, escapes for backslashes,
/// the quote and control characters.  The default [`Quote`] of Rust callers.
pub fn plain_quote(text: &str) -> String {
    let q = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(q);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// `quote(text)` of the package: the whole text when short, else its start
/// and its length, so that a message stays one short line whatever was typed.
pub fn quote_cut(text: &str, quote: Quote) -> String {
    let len = text.chars().count();
    if len <= QUOTE_LIMIT {
        return quote(text);
    }
    let start: String = text.chars().take(QUOTE_LIMIT).collect();
    format!("{}... ({} characters)", quote(&start), thousands(len))
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i != 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Python's `str.isspace` (what `str.split()` splits on): Rust's whitespace
/// and the four information separators.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// The hint for the letter O typed for a zero.
fn letter_o_hint(text: &str) -> &'static str {
    if text.contains(['O', 'o']) {
        " (the letter O is not the digit 0)"
    } else {
        ""
    }
}

/// The value of `text`, a whole number of 1..=[`MAX_DIGITS`] ASCII digits;
/// else a message `"<where>: <what>: ..."`.
fn ascii_int(
    text: &str,
    what: &str,
    place: &str,
    quote: Quote,
) -> std::result::Result<u64, String> {
    let prefix = if place.is_empty() {
        String::new()
    } else {
        format!("{place}: ")
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{prefix}{what}: expected a whole number in the digits 0-9, got {}{}",
            quote_cut(text, quote),
            letter_o_hint(text)
        ));
    }
    if text.len() > MAX_DIGITS {
        return Err(format!(
            "{prefix}{what} has {} digits (at most {MAX_DIGITS})",
            thousands(text.len())
        ));
    }
    Ok(text.parse().expect("at most nine ASCII digits"))
}

/// The fields of a position as a string gives them, read for form only.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The tables of the variant and board length.
    pub tables: Arc<Tables>,
    /// Square 1 first: 0 empty, else `face << 1 | colour`.
    pub board: Vec<u8>,
    /// The side to move.
    pub turn: Colour,
    /// `[colour][kind]` counts.
    pub hands: [Vec<u8>; 2],
    /// The move number (1 unless the string gives one).
    pub move_number: u64,
}

/// What a board token is: a run of empty squares or a piece.
enum Token {
    Empty,
    Piece { promoted: bool, letter: char },
}

/// Why a (possibly promoted) letter is not a piece of a variant, or `None` if it is one.
fn unknown_letter(promoted: bool, letter: char, variant: &Variant) -> Option<&'static str> {
    let up = letter.to_ascii_uppercase();
    for k in &variant.kinds {
        if k.letter.len() == 1 && k.letter.starts_with(up) {
            return (promoted && k.promoted.is_none()).then_some("cannot be promoted");
        }
    }
    Some("unknown")
}

/// The other built-in variants whose boards take `n` squares and these letters, named for a message.
fn variant_hint(n: usize, letters: &[char], variant: &Variant, others: &[Variant]) -> String {
    others
        .iter()
        .filter(|v| {
            v.name != variant.name
                && v.fits(n)
                && letters
                    .iter()
                    .all(|&l| unknown_letter(false, l, v).is_none())
        })
        .map(|v| format!("; for {} use --variant {}", v.display_name(), v.name))
        .collect()
}

fn kind_letters(variant: &Variant) -> String {
    variant.kinds.iter().map(|k| k.letter.as_str()).collect()
}

/// A board token with its column and first square.
type Placed = (usize, usize, Token);

/// The board field's tokens, each with its column and first square, and the
/// number of squares; the characters are checked, not the letters.
fn board_tokens(field: &str, quote: Quote) -> Result<(Vec<Placed>, usize)> {
    let bad = EngineError::Position;
    let chars: Vec<char> = field.chars().collect();
    if let Some(i) = chars
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == '+'))
    {
        return Err(bad(format!(
            "board: unexpected character {} at column {}",
            quote(&chars[i].to_string()),
            i + 1
        )));
    }
    if let Some(i) = (0..chars.len())
        .find(|&i| chars[i] == '+' && !chars.get(i + 1).is_some_and(|c| c.is_ascii_alphabetic()))
    {
        return Err(bad(format!(
            "board: '+' at column {} must be followed by a piece letter",
            i + 1
        )));
    }
    let mut tokens: Vec<Placed> = vec![];
    let mut square = 1usize;
    let mut i = 0;
    while i < chars.len() {
        let col = i + 1;
        if chars[i].is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let run: String = chars[i..j].iter().collect();
            let what = format!("empty-square count at column {col}");
            let count = ascii_int(&run, &what, "board", quote).map_err(bad)? as usize;
            if count == 0 {
                return Err(bad(format!("board: empty-square count 0 at column {col}")));
            }
            tokens.push((col, square, Token::Empty));
            square = square.saturating_add(count);
            i = j;
        } else {
            let promoted = chars[i] == '+';
            let letter = chars[i + promoted as usize];
            tokens.push((col, square, Token::Piece { promoted, letter }));
            square += 1;
            i += 1 + promoted as usize;
        }
    }
    Ok((tokens, square - 1))
}

/// Checks that every letter is a piece of `variant` and that it is played
/// on `n` squares; the message names another variant that fits where one does.
fn check_letters(
    tokens: &[Placed],
    n: usize,
    variant: &Variant,
    others: &[Variant],
    quote: Quote,
) -> Result<()> {
    let bad = EngineError::Position;
    let letters: Vec<char> = tokens
        .iter()
        .filter_map(|(_, _, t)| match t {
            Token::Piece { letter, .. } => Some(*letter),
            Token::Empty => None,
        })
        .collect();
    let unknown = tokens.iter().find_map(|(col, sq, t)| match t {
        Token::Piece { promoted, letter } => unknown_letter(*promoted, *letter, variant)
            .map(|why| (*col, *sq, *promoted, *letter, why)),
        Token::Empty => None,
    });
    let hint = variant_hint(n, &letters, variant, others);
    let title = variant.display_name();
    if !variant.fits(n) && (unknown.is_none() || !hint.is_empty()) {
        return Err(bad(match variant.board_length {
            Some(len) => format!("board: {n} squares, but {title} is played on {len}{hint}"),
            None => format!(
                "board: {n} squares, but {title} needs {} to {}{hint}",
                variant.min_length, variant.max_length
            ),
        }));
    }
    if let Some((col, sq, promoted, letter, why)) = unknown {
        let l = quote(&letter.to_string());
        if why == "cannot be promoted" {
            return Err(bad(format!(
                "board: piece {l} at column {col} (square {sq}) cannot be promoted"
            )));
        }
        return Err(bad(format!(
            "board: unknown piece letter {l} at column {} (square {sq}); {title} uses {}{}{hint}",
            col + promoted as usize,
            kind_letters(variant),
            letter_o_hint(&letter.to_string())
        )));
    }
    Ok(())
}

impl Setup {
    /// Reads a position string for `variant`.  `others` are the variants a
    /// message may suggest instead (the built-in ones); `tables` gives the
    /// tables of the variant for a board length (the caller may cache them).
    pub fn read(
        text: &str,
        variant: &Variant,
        others: &[Variant],
        tables: &mut dyn FnMut(usize) -> Result<Arc<Tables>>,
        quote: Quote,
    ) -> Result<Setup> {
        let bad = EngineError::Position;
        let fields: Vec<&str> = text.split(is_space).filter(|f| !f.is_empty()).collect();
        if !(3..=4).contains(&fields.len()) {
            let plural = if fields.len() == 1 { "" } else { "s" };
            return Err(bad(format!(
                "position {}: expected '<board> <side> <hands> [<move number>]', got {} field{plural}",
                quote_cut(text.trim_matches(is_space), quote),
                fields.len()
            )));
        }
        let (tokens, n) = board_tokens(fields[0], quote)?;
        check_letters(&tokens, n, variant, others, quote)?;
        let t = tables(n)?;
        let mut board = vec![0u8; n];
        for (_, sq, tok) in &tokens {
            if let Token::Piece { promoted, letter } = tok {
                let k = t.kind_index(*letter).expect("a known letter");
                let face = if *promoted {
                    t.promoted_face[k]
                } else {
                    t.unpromoted_face[k]
                };
                board[sq - 1] = face << 1 | letter.is_ascii_lowercase() as u8;
            }
        }
        let turn = match fields[1] {
            "b" => Colour::Black,
            "w" => Colour::White,
            s => {
                return Err(bad(format!(
                    "side to move: expected 'b' or 'w', got {}",
                    quote_cut(s, quote)
                )))
            }
        };
        let hands = read_hands(fields[2], &t, quote)?;
        let mut move_number = 1;
        if let Some(&field) = fields.get(3) {
            move_number = ascii_int(field, "move number", "", quote).map_err(bad)?;
            if move_number < 1 {
                return Err(bad(format!(
                    "move number: expected a positive integer, got {}",
                    quote_cut(field, quote)
                )));
            }
        }
        Ok(Setup {
            tables: t,
            board,
            turn,
            hands,
            move_number,
        })
    }

    /// The position of these fields; `validate` also checks that it can arise
    /// (piece counts, one king a side, the side not to move not in check).
    pub fn position(&self, validate: bool) -> Result<Position> {
        let p = Position::new(
            self.tables.clone(),
            &self.board,
            [&self.hands[0], &self.hands[1]],
            self.turn,
        )?;
        if validate {
            p.validate()?;
        }
        Ok(p)
    }

    /// The position string, move number included.
    pub fn fen(&self) -> String {
        let side = if self.turn == Colour::Black { "b" } else { "w" };
        format!(
            "{} {side} {} {}",
            board_string(&self.tables, &self.board),
            hands_string(&self.tables, [&self.hands[0], &self.hands[1]]),
            self.move_number
        )
    }
}

/// Reads a hands field (`-` or e.g. `2PTg`) into `[colour][kind]` counts: the
/// one reader of hands (position strings and stated defender hands).  A count
/// above the set's number of that kind is refused here.
pub fn read_hands(field: &str, t: &Tables, quote: Quote) -> Result<[Vec<u8>; 2]> {
    let bad = EngineError::Position;
    let mut hands = [vec![0u8; t.nkinds], vec![0u8; t.nkinds]];
    if field == "-" {
        return Ok(hands);
    }
    let title = t.variant.display_name();
    let chars: Vec<char> = field.chars().collect();
    let mut seen = [vec![false; t.nkinds], vec![false; t.nkinds]];
    let mut i = 0;
    while i < chars.len() {
        let col = i + 1;
        let mut j = i;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
        }
        let count = if j > i {
            let digits: String = chars[i..j].iter().collect();
            ascii_int(&digits, &format!("count at column {col}"), "hands", quote).map_err(bad)?
        } else {
            1
        };
        let Some(&ch) = chars.get(j) else {
            return Err(bad(format!(
                "hands: count at column {col} is not followed by a piece letter"
            )));
        };
        if ch == '+' {
            return Err(bad(format!(
                "hands: '+' at column {}: pieces in hand are always unpromoted",
                j + 1
            )));
        }
        let l = quote(&ch.to_string());
        if !ch.is_ascii_alphabetic() {
            let digit = if ch.is_numeric() {
                " (not one of the digits 0-9)"
            } else {
                ""
            };
            return Err(bad(format!(
                "hands: unexpected character {l} at column {}{digit}",
                j + 1
            )));
        }
        let Some(k) = t.kind_index(ch) else {
            return Err(bad(format!(
                "hands: unknown piece letter {l} at column {}; {title} uses {}{}",
                j + 1,
                t.kind_letter.iter().collect::<String>(),
                letter_o_hint(&ch.to_string())
            )));
        };
        if k == t.royal_kind {
            return Err(bad(format!(
                "hands: a king cannot be in hand (column {})",
                j + 1
            )));
        }
        if count == 0 {
            return Err(bad(format!("hands: count 0 for {l} at column {col}")));
        }
        if count > t.kind_count[k] as u64 {
            return Err(bad(format!(
                "hands: {count} {ch} at column {col}, but the {title} set has {} of kind {}",
                t.kind_count[k],
                ch.to_ascii_uppercase()
            )));
        }
        let colour = ch.is_ascii_lowercase() as usize;
        if seen[colour][k] {
            return Err(bad(format!("hands: {l} listed twice (column {})", j + 1)));
        }
        seen[colour][k] = true;
        hands[colour][k] = count as u8;
        i = j + 1;
    }
    Ok(hands)
}

/// Reads a move string (`19-18`, `P*18`, `+L*18`) for a board of these
/// tables.  Only the form is checked (squares on the board, a known droppable
/// letter); a malformed one is an [`EngineError::MoveSyntax`].
pub fn read_move(text: &str, t: &Tables, quote: Quote) -> Result<Move> {
    let bad = EngineError::MoveSyntax;
    let s = text.trim_matches(is_space);
    let place = format!("move {}", quote_cut(s, quote));
    let malformed = || {
        bad(format!(
            "{place}: expected <from>-<to>, <L>*<to> or +<L>*<to>{}",
            letter_o_hint(s)
        ))
    };
    let digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    let n = t.n as u64;
    if let Some((from, to)) = s.split_once('-') {
        if !digits(from) || !digits(to) {
            return Err(malformed());
        }
        let frm = ascii_int(from, "from-square", &place, quote).map_err(bad)?;
        let to = ascii_int(to, "to-square", &place, quote).map_err(bad)?;
        for (what, sq) in [("from", frm), ("to", to)] {
            if !(1..=n).contains(&sq) {
                return Err(bad(format!(
                    "{place}: {what}-square {sq} is off the board (1..{n})"
                )));
            }
        }
        if frm == to {
            return Err(bad(format!("{place}: from- and to-square are the same")));
        }
        return Ok(Move::board(frm as u8, to as u8));
    }
    let Some((piece, to)) = s.split_once('*') else {
        return Err(malformed());
    };
    let (promoted, letter) = match piece.as_bytes() {
        [b'+', l] if l.is_ascii_alphabetic() => (true, *l as char),
        [l] if l.is_ascii_alphabetic() => (false, *l as char),
        _ => return Err(malformed()),
    };
    if !digits(to) {
        return Err(malformed());
    }
    let to = ascii_int(to, "square", &place, quote).map_err(bad)?;
    if !(1..=n).contains(&to) {
        return Err(bad(format!(
            "{place}: square {to} is off the board (1..{n})"
        )));
    }
    let up = letter.to_ascii_uppercase();
    let Some(k) = t.kind_index(up) else {
        return Err(bad(format!(
            "{place}: unknown piece letter {}{}",
            quote(&up.to_string()),
            letter_o_hint(&up.to_string())
        )));
    };
    if k == t.royal_kind {
        return Err(bad(format!("{place}: a king cannot be dropped")));
    }
    let face = t.unpromoted_face[k] + promoted as u8;
    if !t.drop_faces[k].contains(&face) {
        return Err(bad(format!(
            "{place}: {} does not allow promoted-side-up drops",
            t.variant.display_name()
        )));
    }
    Ok(Move::drop(face, to as u8))
}

/// The board field of a board (square 1 first), e.g. `k3fg1hc2tp5PT2CH1GF3K`.
pub fn board_string(t: &Tables, board: &[u8]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for &v in board {
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

/// The hands field from `[colour][kind]` counts: Black's pieces (uppercase)
/// then White's, e.g. `2PTh`, or `-`.
pub fn hands_string(t: &Tables, hands: [&[u8]; 2]) -> String {
    let mut out = String::new();
    for (c, hand) in hands.iter().enumerate() {
        for (k, &cnt) in hand.iter().enumerate().take(t.nkinds) {
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

impl Position {
    /// Reads and validates a position string for `variant` (the move number is ignored).
    pub fn from_fen(variant: &Variant, text: &str) -> Result<Position> {
        let mut tables = |n| Tables::new(variant, n).map(Arc::new);
        Setup::read(text, variant, &[], &mut tables, &plain_quote)?.position(true)
    }

    /// The board field, e.g. `k3fg1hc2tp5PT2CH1GF3K`.
    pub fn board_string(&self) -> String {
        board_string(&self.tables, self.board())
    }

    /// The hands field, Black's pieces (uppercase) then White's, e.g. `2PTh`, or `-`.
    pub fn hands_string(&self) -> String {
        let nk = self.tables.nkinds;
        let black = self.hands[0].counts(nk);
        let white = self.hands[1].counts(nk);
        hands_string(&self.tables, [&black, &white])
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

    /// The hands as `[colour][kind]` counts.
    pub fn hand_counts(&self) -> [Vec<u8>; 2] {
        let nk = self.tables.nkinds;
        [self.hands[0].counts(nk), self.hands[1].counts(nk)]
    }
}

/// Hands from `[colour][kind]` counts (None if a count is too large for a hand).
pub fn hands_from_counts(counts: &[Vec<u8>; 2]) -> Option<[Hand; 2]> {
    Some([
        Hand::from_counts(&counts[0])?,
        Hand::from_counts(&counts[1])?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::builtin;

    fn read(variant: &str, text: &str) -> Result<Setup> {
        let v = builtin(variant);
        let others = [builtin("ito"), builtin("rutherford")];
        let mut tables = |n| Tables::new(&v, n).map(Arc::new);
        Setup::read(text, &v, &others, &mut tables, &plain_quote)
    }

    fn message(variant: &str, text: &str) -> String {
        read(variant, text)
            .err()
            .map(|e| e.message().to_string())
            .unwrap_or_else(|| format!("{text}: read"))
    }

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
        assert_eq!(read("ito", "k30 w G 7").unwrap().fen(), "k30 w G 7");
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

    #[test]
    fn messages_name_the_column_at_fault() {
        assert_eq!(
            message("ito", "k30"),
            "position 'k30': expected '<board> <side> <hands> [<move number>]', got 1 field"
        );
        assert_eq!(
            message("ito", "k2!27 b -"),
            "board: unexpected character '!' at column 3"
        );
        assert_eq!(
            message("ito", "k29+ b -"),
            "board: '+' at column 4 must be followed by a piece letter"
        );
        assert_eq!(
            message("ito", "k0 b -"),
            "board: empty-square count 0 at column 2"
        );
        assert_eq!(
            message("ito", "k1234567890 b -"),
            "board: empty-square count at column 2 has 10 digits (at most 9)"
        );
        assert_eq!(
            message("ito", "k29X b -"),
            "board: unknown piece letter 'X' at column 4 (square 31); Ito Shogi (2022) uses KPTCHGF"
        );
        assert_eq!(
            message("ito", "k29+K b -"),
            "board: piece 'K' at column 4 (square 31) cannot be promoted"
        );
        assert_eq!(
            message("ito", "k20 b -"),
            "board: 21 squares, but Ito Shogi (2022) is played on 31; \
             for Rutherford's 1-dimensional Shogi (2002) use --variant rutherford"
        );
        assert_eq!(
            message("ito", "k30 x -"),
            "side to move: expected 'b' or 'w', got 'x'"
        );
        assert_eq!(
            message("ito", "k30 b - 0"),
            "move number: expected a positive integer, got '0'"
        );
        assert_eq!(
            message("ito", "k30 b - 1O"),
            "move number: expected a whole number in the digits 0-9, got '1O' \
             (the letter O is not the digit 0)"
        );
        let long = format!("{} b", "k".repeat(60));
        assert!(message("ito", &long).contains("... (62 characters): expected"));
    }

    #[test]
    fn hands_messages() {
        assert_eq!(
            message("ito", "k30 b 3P"),
            "hands: 3 P at column 1, but the Ito Shogi (2022) set has 2 of kind P"
        );
        assert_eq!(
            message("ito", "k30 b +P"),
            "hands: '+' at column 1: pieces in hand are always unpromoted"
        );
        assert_eq!(
            message("ito", "k30 b PP"),
            "hands: 'P' listed twice (column 2)"
        );
        assert_eq!(
            message("ito", "k30 b K"),
            "hands: a king cannot be in hand (column 1)"
        );
        assert_eq!(
            message("ito", "k30 b 2"),
            "hands: count at column 1 is not followed by a piece letter"
        );
        assert_eq!(
            message("ito", "k30 b 0P"),
            "hands: count 0 for 'P' at column 1"
        );
        assert_eq!(
            message("ito", "k30 b Z"),
            "hands: unknown piece letter 'Z' at column 1; Ito Shogi (2022) uses KPTCHGF"
        );
        assert_eq!(
            message("ito", "k30 b ²P"),
            "hands: unexpected character '²' at column 1 (not one of the digits 0-9)"
        );
    }

    #[test]
    fn moves_are_read_for_form() {
        let ito = builtin("ito");
        let t = Tables::new(&ito, 31).unwrap();
        let rd = |s: &str| read_move(s, &t, &plain_quote);
        assert_eq!(rd("19-18").unwrap(), Move::board(19, 18));
        assert_eq!(rd(" P*18 ").unwrap(), Move::drop(t.unpromoted_face[1], 18));
        let msg = |s: &str| {
            rd(s)
                .err()
                .map(|e| e.message().to_string())
                .unwrap_or_default()
        };
        assert_eq!(
            msg("19-19"),
            "move '19-19': from- and to-square are the same"
        );
        assert_eq!(
            msg("0-5"),
            "move '0-5': from-square 0 is off the board (1..31)"
        );
        assert_eq!(msg("K*5"), "move 'K*5': a king cannot be dropped");
        assert_eq!(
            msg("+P*5"),
            "move '+P*5': Ito Shogi (2022) does not allow promoted-side-up drops"
        );
        assert_eq!(msg("X*5"), "move 'X*5': unknown piece letter 'X'");
        assert_eq!(
            msg("1O-2"),
            "move '1O-2': expected <from>-<to>, <L>*<to> or +<L>*<to> (the letter O is not the digit 0)"
        );
        assert!(matches!(rd("a-b"), Err(EngineError::MoveSyntax(_))));
    }

    #[test]
    fn quotes_cut_long_text_and_count_in_thousands() {
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(999), "999");
        let long = "x".repeat(1000);
        assert_eq!(
            quote_cut(&long, &plain_quote),
            format!("'{}'... (1,000 characters)", "x".repeat(40))
        );
        assert_eq!(plain_quote("it's"), "\"it's\"");
    }
}

//! Un-moves (retro-moves) for the composer's reverse method.
//!
//! [`unmoves`] lists every pair `(P, m)` where `m` is a legal move of `P` and
//! `P` after `m` is the given position.  The side that just moved made `m`;
//! a capture turned the capturer over (a king stays), a captured piece went
//! to the hand unpromoted, a drop put a piece of the hand on an empty square
//! as the variant allows.  Candidates are a superset built from the piece
//! tables; legality is left to the engine itself: a candidate is kept only if
//! it validates, `m` is among its legal moves (without the repetition rule:
//! `P` has no history) and making `m` gives exactly the position.
//!
//! Each `P` is a fresh position with no move history: the game's repetition
//! rule (an illegal third occurrence) needs one, so a move illegal only
//! because of what came before is still listed.  The move number follows the
//! engine's convention (it goes up after each White move): `P` has the
//! position's number when Black made `m` and one less when White made it;
//! position strings have no move 0, so at move 1 a White `m` keeps `P` at 1
//! (skipping those would leave every move-1 position without a past).  The
//! composer's reverse method steps back from a mate through these.

use crate::rules::moves::{Move, MoveList};
use crate::rules::position::Position;
use crate::rules::square::{bit, Square, Squares};

/// Every `(previous position, move)` leading to `pos`, sorted by the previous position's key, then the move.
///
/// Each previous position has the other side to move and no move history.
pub fn unmoves(pos: &Position) -> Vec<(Position, Move)> {
    let t = pos.tables().clone();
    let mover = pos.turn().flip();
    let m_idx = mover.index();
    let hand = pos.hand(mover);
    let empty = t.board_mask & !pos.occupied();
    // The pieces the mover may have captured: a kind in its hand, either face
    // (a king is never captured).
    let mut captured: Vec<(u8, usize)> = vec![];
    for k in 0..t.nkinds {
        if hand.count(k) != 0 && k != t.royal_kind {
            for f in [t.unpromoted_face[k], t.promoted_face[k]] {
                if f != 0 {
                    captured.push((f << 1 | (m_idx ^ 1) as u8, k));
                }
            }
        }
    }
    let mut out: Vec<(Position, Move)> = vec![];
    let mut consider = |changes: &[(Square, u8)], hand_change: Option<(usize, bool)>, m: Move| {
        let mut hands = [
            pos.hand(crate::Colour::Black),
            pos.hand(crate::Colour::White),
        ];
        if let Some((k, add)) = hand_change {
            if add {
                hands[m_idx].add(k);
            } else {
                hands[m_idx].remove(k);
            }
        }
        let Ok(mut p) = pos.with_changes(changes, hands, mover) else {
            return;
        };
        // Cheap first filters from the engine's own generators, before the
        // full legality test.
        if !p.is_pseudo_legal(m) || p.validate().is_err() {
            return;
        }
        let mut legal = MoveList::new();
        p.legal_moves(Some(false), &mut legal);
        if !legal.contains(m) {
            return;
        }
        p.push(m);
        let same = p.same_as(pos);
        p.pop();
        if same {
            out.push((p, m));
        }
    };
    for to in Squares(pos.occupied_by(mover)) {
        let now = pos.piece(to);
        let face = now >> 1;
        let k = t.face_kind[face as usize] as usize;
        // Un-drop: the piece goes back to the hand, if its face could be dropped.
        if k != t.royal_kind && t.drop_faces[k].contains(&face) {
            consider(&[(to, 0)], Some((k, true)), Move::drop(face, to));
        }
        // Plain move: same face, from an empty square that could reach `to`.
        for frm in Squares(origins(&t, now, to) & empty) {
            consider(&[(frm, now), (to, 0)], None, Move::board(frm, to));
        }
        // Capture: the piece had the other face (a king the same), and the
        // captured piece stands on `to` again, out of the mover's hand.
        if !captured.is_empty() {
            for before in (2..t.nvalues as u8).filter(|&u| t.flip[u as usize] == now) {
                for frm in Squares(origins(&t, before, to) & empty) {
                    for &(cap, cap_kind) in &captured {
                        consider(
                            &[(frm, before), (to, cap)],
                            Some((cap_kind, false)),
                            Move::board(frm, to),
                        );
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| a.0.key_cmp(&b.0).then(a.1.cmp(&b.1)));
    out
}

/// The squares from which value `v` could move to `to` on some board.
fn origins(t: &crate::Tables, v: u8, to: Square) -> u64 {
    (1..=t.n as Square)
        .filter(|&s| t.span(v, s) & bit(to) != 0)
        .fold(0, |m, s| m | bit(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::tests::ito_start;

    #[test]
    fn every_unmove_leads_back() {
        let mut p = ito_start();
        let mut l = MoveList::new();
        p.legal_moves(None, &mut l);
        let moves = l.to_vec();
        for m in moves {
            p.push(m);
            let after = p.copy();
            let back = unmoves(&after);
            assert!(
                back.iter()
                    .any(|(q, mm)| *mm == m && q.same_as(&ito_start())),
                "{m:?}"
            );
            for (q, mm) in &back {
                let mut q = q.copy();
                q.push(*mm);
                assert!(q.same_as(&after));
            }
            p.pop();
        }
    }
}

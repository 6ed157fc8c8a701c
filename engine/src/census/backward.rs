//! The backward pass: exact mate distances, shortest mate against longest
//! defence, from the mated nodes up.
//!
//! Distances are settled in increasing order, one level at a time (the
//! nodes won at `d` make the level of `d + 1`, so a level list is the whole
//! bucket queue): an attacker node is won at `d + 1` the first time one of
//! its checks reaches a node won at `d` (the shortest mate); a defender node
//! is won at `d + 1` when the last of its replies is won, at `d` (the longest
//! defence).  Nodes never reached stay unwon.
//!
//! The pass stops at `max_plies`: a node won in more plies only has
//! ancestors won in more plies still, so no starting position's answer
//! within the bound depends on it.  The values are `u16`: a mate longer than
//! they hold, within the bound, stops the pass ([`Halt::Deep`]).
//!
//! Repetition needs no rule here: along a line where the attacker keeps to a
//! won distance the distance falls at every ply, so no position repeats, and
//! a position on a cycle the defender can hold is never won.

use crate::census::csr::Parents;
use crate::census::forward::ATTACKER;
use crate::census::memory::big;
use crate::census::Halt;

/// The value of a node not won (within the bound).
pub(crate) const UNWON: u16 = u16::MAX;

/// The distance to mate of every node, [`UNWON`] for the rest.  `pending`
/// holds each defender node's number of distinct replies (it is used up).
pub(crate) fn distances(
    flags: &[u8],
    pending: &mut [u16],
    parents: &Parents,
    mated: &[u32],
    max_plies: u32,
    keep_going: &mut dyn FnMut() -> bool,
) -> Result<Vec<u16>, Halt> {
    let mut value = big(flags.len(), UNWON);
    for &i in mated {
        value[i as usize] = 0;
    }
    let mut level: Vec<u32> = mated.to_vec();
    let mut next: Vec<u32> = vec![];
    let mut d: u32 = 0;
    let mut count = 0usize;
    while !level.is_empty() && d < max_plies {
        if d + 1 >= UNWON as u32 {
            return Err(Halt::Deep(max_plies));
        }
        let won = (d + 1) as u16;
        for &i in &level {
            count += 1;
            if count % (1 << 20) == 0 && !keep_going() {
                return Err(Halt::Interrupted);
            }
            for &p in parents.of(i) {
                let p = p as usize;
                if value[p] != UNWON {
                    continue;
                }
                if flags[p] & ATTACKER == 0 {
                    pending[p] -= 1;
                    if pending[p] != 0 {
                        continue;
                    }
                }
                value[p] = won;
                next.push(p as u32);
            }
        }
        std::mem::swap(&mut level, &mut next);
        next.clear();
        d += 1;
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-made graph: attacker nodes A, defender nodes D.
    ///
    /// A0 -> D1 (mated), D2;  D2 -> A3;  A3 -> D4 (mated);
    /// A5 -> D2, D6;  D6 -> A3, A7;  A7 -> nothing.
    fn graph() -> (Vec<u8>, Vec<u16>, Parents, Vec<u32>) {
        let flags = vec![ATTACKER, 0, 0, ATTACKER, 0, ATTACKER, 0, ATTACKER];
        let degree = vec![2, 0, 1, 1, 0, 2, 2, 0];
        let children = [1, 2, 3, 4, 2, 6, 3, 7];
        let parents = Parents::from_children(8, &degree, &children);
        (flags, degree, parents, vec![1, 4])
    }

    #[test]
    fn shortest_mate_longest_defence() {
        let (flags, mut pending, parents, mated) = graph();
        let v = distances(&flags, &mut pending, &parents, &mated, 15, &mut || true).unwrap();
        assert_eq!(v[1], 0);
        assert_eq!(v[4], 0);
        assert_eq!(v[0], 1); // the shortest: straight into mate
        assert_eq!(v[3], 1);
        assert_eq!(v[2], 2);
        assert_eq!(v[5], 3); // through D2; D6 holds out at A7
        assert_eq!(v[6], UNWON);
        assert_eq!(v[7], UNWON);
    }

    #[test]
    fn the_bound_cuts_the_pass() {
        let (flags, mut pending, parents, mated) = graph();
        let v = distances(&flags, &mut pending, &parents, &mated, 2, &mut || true).unwrap();
        assert_eq!((v[0], v[2], v[5]), (1, 2, UNWON));
    }
}

//! Anchors and epochs: when a stored proof may be used on the current line.
//!
//! A repetition fails for the attacker, so a proof found while some position
//! was *not* on the line may be wrong where it is: a defender may return to
//! it.  Positions reach the line in two ways.  The search expands them: a
//! proof stored below an expanded position never passes through it (the
//! lookup there sees the repetition), and a proof stored earlier that passes
//! through it would have proven it before it was expanded.  Or a caller puts
//! them there without a search (the verifier's main line, the root whose
//! first moves are valued): these are *anchors*.  Every proof records the
//! *epoch* it was found in; each anchor starts a new epoch, and a proof is
//! used only if it was found since the newest anchor still on the line (the
//! *floor*), so it was found with every anchor on the line and cannot pass
//! through one.  When the anchor leaves the line, the proofs found meanwhile
//! stay good: fewer positions on the line only help the attacker.
//!
//! An *exact* anchor is a position whose value on this line the caller
//! knows (a line reader below a node of known value asks only bounds below
//! that value): a proof through it would prove it faster than its value,
//! which cannot be, so it starts no epoch.
//!
//! A proof found for one attacker hand is reused for others (hand
//! dominance); it walked the boards its own tree walked, with other hands,
//! and one of those may be an anchor's.  So each proof records whether its
//! tree met the board of an anchor standing when it was stored (`pa`), and
//! while anchors stand only proofs that did not are reused for other hands
//! (an anchor whose board is not known stops them all).  Dropping a proof
//! that lookups may have used (garbage collection) starts an epoch too, since
//! the argument above needs every stored proof to stay findable.

/// An epoch: proofs carry the one they were found in.
pub type Epoch = u32;

/// The anchors on the line and the epochs they started.
#[derive(Default)]
pub struct Anchors {
    epoch: Epoch,
    floor: Epoch,
    collected: Epoch,
    /// Each anchor, innermost last: the epoch it started (none for an exact
    /// anchor) and its board key (`None`: not known).
    stack: Vec<(Option<Epoch>, Option<u64>, u64)>,
    /// How many epoch-starting anchors stand, and how many of them have no known board.
    standing: u32,
    unknown_boards: u32,
}

impl Anchors {
    /// No anchor, epoch 0.
    pub fn new() -> Anchors {
        Anchors::default()
    }

    /// The epoch a proof stored now carries.
    #[inline(always)]
    pub fn epoch(&self) -> Epoch {
        self.epoch
    }

    /// Proofs of an older epoch are not used.
    #[inline(always)]
    pub fn floor(&self) -> Epoch {
        self.floor
    }

    /// Puts the position with hash `h` (board key `bkey`, `None` if not
    /// known) on the line as an anchor; `exact`: its value on this line is known.
    pub fn push(&mut self, h: u64, bkey: Option<u64>, exact: bool) {
        if exact {
            self.stack.push((None, bkey, h));
            return;
        }
        self.epoch += 1;
        self.floor = self.epoch;
        self.stack.push((Some(self.epoch), bkey, h));
        self.standing += 1;
        self.unknown_boards += bkey.is_none() as u32;
    }

    /// Takes the innermost anchor off the line; returns its hash.
    pub fn pop(&mut self) -> u64 {
        let (started, bkey, h) = self.stack.pop().expect("no anchor to take off the line");
        if started.is_some() {
            self.standing -= 1;
            self.unknown_boards -= bkey.is_none() as u32;
            let inner = self.stack.iter().rev().find_map(|a| a.0).unwrap_or(0);
            self.floor = inner.max(self.collected);
        }
        h
    }

    /// How many anchors (of both kinds) stand.
    pub fn len(&self) -> usize {
        self.stack.len()
    }

    /// No anchor stands?
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }

    /// Is the position with hash `h` an exact anchor on the line?
    #[inline]
    pub fn is_exact(&self, h: u64) -> bool {
        self.stack.iter().any(|a| a.0.is_none() && a.2 == h)
    }

    /// Does an epoch-starting anchor stand?
    #[inline(always)]
    pub fn anchored(&self) -> bool {
        self.standing > 0
    }

    /// May a proof for other hands be used now, given whether its tree met an anchor's board (`pa`)?
    #[inline(always)]
    pub fn allows_other_hands(&self, pa: bool) -> bool {
        self.standing == 0 || !(pa || self.unknown_boards > 0)
    }

    /// Is `bkey` the board of an epoch-starting anchor on the line?
    #[inline]
    pub fn on_anchor_board(&self, bkey: u64) -> bool {
        self.standing > 0
            && self
                .stack
                .iter()
                .any(|a| a.0.is_some() && a.1 == Some(bkey))
    }

    /// Stored proofs were dropped: none found before now is used again.
    pub fn collected(&mut self) {
        self.epoch += 1;
        self.collected = self.epoch;
        self.floor = self.epoch;
    }

    /// Opens a temporary epoch for a question asked at an exact anchor above
    /// its value (see the useless-interposition test): like an anchor on the
    /// board `bkey`, without a position on the line.  Undone by [`Anchors::pop`].
    pub fn push_board(&mut self, bkey: u64) {
        self.push(0, Some(bkey), false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_anchor_starts_an_epoch_and_leaving_restores_the_floor() {
        let mut a = Anchors::new();
        assert_eq!((a.epoch(), a.floor()), (0, 0));
        a.push(100, Some(5), false);
        assert_eq!((a.epoch(), a.floor()), (1, 1));
        a.push(200, Some(6), false);
        assert_eq!((a.epoch(), a.floor()), (2, 2));
        assert_eq!(a.pop(), 200);
        // Proofs found since the first anchor are good again.
        assert_eq!((a.epoch(), a.floor()), (2, 1));
        a.pop();
        assert_eq!(a.floor(), 0);
        assert!(a.is_empty());
    }

    #[test]
    fn exact_anchors_start_no_epoch() {
        let mut a = Anchors::new();
        a.push(100, Some(5), true);
        assert_eq!((a.epoch(), a.floor()), (0, 0));
        assert!(a.is_exact(100) && !a.is_exact(101));
        assert!(!a.anchored() && !a.on_anchor_board(5));
        assert_eq!(a.pop(), 100);
        assert!(!a.is_exact(100));
    }

    #[test]
    fn a_collection_raises_the_floor_for_good() {
        let mut a = Anchors::new();
        a.push(100, Some(5), false);
        a.collected();
        assert_eq!(a.floor(), 2);
        a.pop();
        assert_eq!(a.floor(), 2);
    }

    #[test]
    fn anchor_boards_decide_reuse_for_other_hands() {
        let mut a = Anchors::new();
        assert!(a.allows_other_hands(true));
        a.push(100, Some(5), false);
        a.push(101, Some(5), false);
        a.push(102, Some(6), false);
        assert!(a.on_anchor_board(5) && a.on_anchor_board(6) && !a.on_anchor_board(7));
        assert!(a.allows_other_hands(false) && !a.allows_other_hands(true));
        a.pop();
        assert!(a.on_anchor_board(5) && !a.on_anchor_board(6));
        a.push(103, None, false);
        assert!(!a.allows_other_hands(false));
        a.pop();
        assert!(a.allows_other_hands(false));
        a.pop();
        assert!(a.on_anchor_board(5));
        a.pop();
        assert!(!a.on_anchor_board(5) && a.allows_other_hands(true));
    }
}

// A diagram on the page: the SVG the server draws (tsume.svg), with the
// clicks on its squares and hand pieces handed to the page, and squares
// marked by adding classes (selected, cursor, error) to the drawing.

export class BoardView {
  constructor(element, {onSquare, onHand} = {}) {
    this.element = element;
    this.marks = {};
    element.addEventListener('click', (event) => {
      const handPiece = event.target.closest('g.hand-piece');
      if (handPiece && onHand) {
        const hand = handPiece.closest('g.hand');
        const piece = handPiece.querySelector('g.piece');
        onHand(hand.classList.contains('black') ? 'black' : 'white', piece.dataset.piece.toUpperCase());
        return;
      }
      const target = event.target.closest('[data-square]');
      if (target && onSquare) onSquare(Number(target.dataset.square));
    });
  }

  show(svg) {
    this.element.innerHTML = svg;
    this.redraw();
  }

  get svg() {
    return this.element.querySelector('svg');
  }

  // mark('selected', [5]) puts the class on those squares (and takes it off the others).
  mark(cls, squares) {
    this.marks[cls] = squares.filter((s) => s);
    this.redraw();
  }

  redraw() {
    const svg = this.svg;
    if (!svg) return;
    for (const [cls, squares] of Object.entries(this.marks)) {
      svg.querySelectorAll(`rect.sq.${cls}`).forEach((r) => r.classList.remove(cls));
      for (const s of squares) {
        const r = svg.querySelector(`rect.sq[data-square="${s}"]`);
        if (r) r.classList.add(cls);
      }
    }
  }
}

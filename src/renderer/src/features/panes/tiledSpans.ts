/** How many grid cells a tile covers: columns across, rows down. */
export interface TileSpan {
  columns: number
  rows: number
}

/**
 * The spans that leave no empty cell in the *Tiled* layout (issue 19 item 12): the grid has
 * `columns` equal columns (CSS `repeat(auto-fill, minmax(290px, 1fr))`, so the count follows the
 * width only), the leader's pane covers the first two columns of the first two rows, and `tiles`
 * tiles follow it in order, auto-placed row by row, each one cell unless this says otherwise. The
 * last tile stretches to the end of its row, so an odd count leaves no empty half row; when the
 * tiles do not even fill the first row beside the leader's pane, each also covers both of its rows.
 * @returns one span per tile, in order (all `1×1` when nothing needs stretching, or with one column).
 */
export function tiledSpans(columns: number, tiles: number): TileSpan[] {
  const spans = Array.from({ length: tiles }, (): TileSpan => ({ columns: 1, rows: 1 }))
  if (tiles === 0 || columns < 2) return spans
  const last = spans[tiles - 1]!
  // cells beside the leader's pane in each of its two rows
  const beside = columns - 2
  if (tiles <= beside) {
    for (const span of spans) span.rows = 2
    last.columns = beside - tiles + 1
  } else if (tiles <= 2 * beside) {
    last.columns = 2 * beside - tiles + 1
  } else {
    const inLastRow = (tiles - 2 * beside) % columns
    if (inLastRow !== 0) last.columns = columns - inLastRow + 1
  }
  return spans
}

import { describe, expect, it } from 'vitest'
import { tiledSpans } from './tiledSpans'

/** Lays the leader (2×2) and the tiles out as CSS grid's row-by-row auto-placement would, and returns the rows as strings of owners ('.' = empty). */
function place(columns: number, tiles: number): string[] {
  const rows: string[][] = []
  const cell = (r: number, c: number) => (rows[r] ??= Array.from({ length: columns }, () => '.'))[c] ?? '.'
  const put = (r: number, c: number, w: number, h: number, who: string) => {
    for (let y = r; y < r + h; y++)
      for (let x = c; x < c + w; x++) (rows[y] ??= Array.from({ length: columns }, () => '.'))[x] = who
  }
  put(0, 0, 2, 2, 'L')
  let r = 0
  let c = 0
  tiledSpans(columns, tiles).forEach((span, i) => {
    for (;;) {
      const fits =
        c + span.columns <= columns &&
        Array.from({ length: span.rows }, (_, y) => Array.from({ length: span.columns }, (_, x) => cell(r + y, c + x)))
          .flat()
          .every((v) => v === '.')
      if (fits) break
      if (++c >= columns) {
        c = 0
        r++
      }
    }
    put(r, c, span.columns, span.rows, String.fromCharCode(97 + i))
    c += span.columns
  })
  return rows.map((row) => row.join(''))
}

describe('the Tiled layout leaves no empty cell', () => {
  it('stretches the last tile of an odd count over the rest of its row', () => {
    expect(place(2, 3)).toEqual(['LL', 'LL', 'ab', 'cc'])
    expect(place(3, 4)).toEqual(['LLa', 'LLb', 'cdd'])
    expect(place(4, 7)).toEqual(['LLab', 'LLcd', 'efgg'])
  })

  it('fills the rows beside the leader’s pane when the tiles are too few for them', () => {
    expect(place(3, 1)).toEqual(['LLa', 'LLa'])
    expect(place(4, 1)).toEqual(['LLaa', 'LLaa'])
    expect(place(4, 3)).toEqual(['LLab', 'LLcc'])
    expect(place(5, 2)).toEqual(['LLabb', 'LLabb'])
  })

  it('leaves full rows alone', () => {
    expect(tiledSpans(2, 4).every((s) => s.columns === 1 && s.rows === 1)).toBe(true)
    expect(tiledSpans(3, 5).every((s) => s.columns === 1 && s.rows === 1)).toBe(true)
    expect(tiledSpans(1, 3)).toEqual([
      { columns: 1, rows: 1 },
      { columns: 1, rows: 1 },
      { columns: 1, rows: 1 }
    ])
  })

  it('has no empty cell for any count up to 20 tiles on 2 to 6 columns', () => {
    for (let columns = 2; columns <= 6; columns++)
      for (let tiles = 1; tiles <= 20; tiles++)
        expect(place(columns, tiles).join('|'), `${columns} columns, ${tiles} tiles`).not.toContain('.')
  })
})

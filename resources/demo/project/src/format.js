'use strict'

/** Formats [{ word, count }] as a two-column text table. */
function formatTable(rows) {
  const width = Math.max(4, ...rows.map((r) => r.word.length))
  const lines = [`${'word'.padEnd(width)}  count`]
  for (const { word, count } of rows) lines.push(`${word.padEnd(width)}  ${String(count).padStart(5)}`)
  return lines.join('\n')
}

// TODO: right-align the header of the count column.
module.exports = { formatTable }

'use strict'

// TODO: treat apostrophes inside words ("don't") as part of the word.
const WORD = /[a-z0-9]+/g

/** Counts each lower-cased word of `text`. Returns a Map word -> count. */
function countWords(text) {
  const counts = new Map()
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  return counts
}

/**
 * The `n` most frequent words of `text`, most frequent first; ties in alphabetical order.
 * Returns [{ word, count }].
 */
function topWords(text, n) {
  const entries = [...countWords(text)].map(([word, count]) => ({ word, count }))
  entries.sort((a, b) => a.count - b.count || a.word.localeCompare(b.word))
  return entries.slice(0, n)
}

module.exports = { countWords, topWords }

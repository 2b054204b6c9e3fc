'use strict'
const test = require('node:test')
const assert = require('node:assert')
const { countWords, topWords } = require('../src/wordfreq')

test('counts words case-insensitively', () => {
  assert.deepStrictEqual(countWords('The the THE cat'), new Map([['the', 3], ['cat', 1]]))
})

test('returns the most frequent words first', () => {
  assert.deepStrictEqual(topWords('a b b c c c', 2), [
    { word: 'c', count: 3 },
    { word: 'b', count: 2 }
  ])
})

test('breaks ties alphabetically', () => {
  assert.deepStrictEqual(topWords('pear apple pear apple fig', 2), [
    { word: 'apple', count: 2 },
    { word: 'pear', count: 2 }
  ])
})

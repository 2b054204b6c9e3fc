'use strict'
const test = require('node:test')
const assert = require('node:assert')
const { formatTable } = require('../src/format')

test('formats rows as a table', () => {
  assert.strictEqual(formatTable([{ word: 'cat', count: 2 }]), 'word  count\ncat       2')
})

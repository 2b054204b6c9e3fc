import { describe, expect, it } from 'vitest'
import { lexShell, ShellUnsupportedError, type ShellNode } from './shellLexer'

/** Every simple command's argv, depth first (substitutions before their command). */
function commands(nodes: ShellNode[]): Array<Array<string | null>> {
  const out: Array<Array<string | null>> = []
  for (const n of nodes) {
    if (n.type === 'group') {
      out.push(...commands(n.body))
      continue
    }
    for (const w of n.words) for (const s of w.subs) out.push(...commands(s))
    out.push(n.words.map((w) => w.value))
  }
  return out
}

describe('shell lexer', () => {
  it.each([
    ['a && b || c; d | e\nf & g', [['a'], ['b'], ['c'], ['d'], ['e'], ['f'], ['g']]],
    ['echo \'a b\' "c $X d" e\\ f', [['echo', 'a b', null, 'e f']]],
    ['echo $(rm x) `ls`', [['rm', 'x'], ['ls'], ['echo', null, null]]],
    [
      'echo "$(rm "x")"',
      [
        ['rm', 'x'],
        ['echo', null]
      ]
    ],
    ['(a; (b)) && { c; }', [['a'], ['b'], ['c']]],
    ['diff <(a) >(b)', [['a'], ['b'], ['diff', null, null]]],
    ['FOO=1 BAR=$(x) cmd arg', [['cmd', 'arg']]],
    ['if a; then b; elif c; then d; else e; fi', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['echo {a,b} a{1..3}', [['echo', null, null]]],
    ['ls # a comment; rm x', [['ls']]],
    ['echo a\\\nb', [['echo', 'ab']]],
    ['echo $((1 + 2)) ${HOME} ${#x}', [['echo', null, null, null]]],
    ['echo $(<file)', [[], ['echo', null]]]
  ])('splits %j', (src, expected) => {
    expect(commands(lexShell(src))).toEqual(expected)
  })

  it('records redirections with their fd and target', () => {
    const [node] = lexShell('cmd 2>&1 >out 2>>err &>all <in <<<"s"')
    expect(node.type === 'simple' && node.redirects.map((r) => [r.fd, r.op, r.target?.value])).toEqual([
      ['2', '>&', '1'],
      [null, '>', 'out'],
      ['2', '>>', 'err'],
      [null, '&>', 'all'],
      [null, '<', 'in'],
      [null, '<<<', 's']
    ])
  })

  it('refuses nesting deeper than it follows instead of overflowing the stack', () => {
    expect(() => lexShell('echo ' + '$('.repeat(5000) + 'x' + ')'.repeat(5000))).toThrow(/nested more than/)
  })

  it.each([
    'for x in y; do z; done',
    'case x in y) z;; esac',
    'f() { x; }',
    '[[ -f x ]]',
    '(( x++ ))',
    'a=(1 2)',
    'echo ${x:-$(rm y)}',
    'echo $((x))',
    'echo ${a[$i]}',
    'echo ${x@P}',
    'cat <<E\n$(rm x)\nE'
  ])('refuses to classify %j', (src) => {
    expect(() => lexShell(src)).toThrow(ShellUnsupportedError)
  })
})

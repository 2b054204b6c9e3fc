import { parse } from 'sh-syntax'
import { describe, expect, it } from 'vitest'
import { parseShell, prepareShellGrammar } from './shellGrammar'

/** What sh-syntax's own parse says of `command`: parses, or the error's type and message. */
async function reference(command: string): Promise<string> {
  try {
    await parse(command)
    return 'parses'
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
}

async function ours(command: string): Promise<string> {
  try {
    await parseShell(command)
    return 'parses'
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`
  }
}

const COMMANDS = [
  'true',
  'git status && ls -la | grep foo > out.txt',
  'echo "unterminated',
  'for i in 1 2; do echo $i; done',
  'a=$(cat <<EOF\nx\nEOF\n)',
  'if then fi',
  '[[ -f x ]] && echo ok',
  "echo 'é ü ✓ 👋' > /tmp/x",
  'x'.repeat(20_000),
  'arr=(1 2 3); echo ${arr[@]}',
  'case $x in a) echo a;; esac',
  'echo $((1 + ))'
]

describe('parseShell', () => {
  it('accepts and refuses exactly what sh-syntax’s own parse does, with its errors', async () => {
    for (const command of COMMANDS) expect(await ours(command), command.slice(0, 40)).toBe(await reference(command))
  })

  it('gives the same answers with an instance kept ready between parses', async () => {
    prepareShellGrammar()
    for (const command of COMMANDS) expect(await ours(command), command.slice(0, 40)).toBe(await reference(command))
    // parses running at once each get their own instance
    const all = await Promise.all(COMMANDS.map(ours))
    expect(all).toEqual(await Promise.all(COMMANDS.map(reference)))
  })
})

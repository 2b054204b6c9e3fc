import { symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PermissionMode } from '../../../shared/permissions'
import type { PermissionEngine } from './engine'
import { makeWorkspace, type TestWorkspace } from './workspace.testkit'

type Expect = 'allow' | 'ask' | 'deny'

/**
 * One Bash command per row, decided in default mode against the project settings below
 * (docs/permissions.md#permissions). Rows name the behaviour they pin.
 */
const CASES: Array<[command: string, expected: Expect, why: string, mode?: PermissionMode]> = [
  // bypasses found by trying to break the engine
  ["test -v 'a[$(touch pwn)]'", 'ask', 'test -v evaluates an array subscript, which runs code'],
  ["[ -v 'a[$(id)]' ]", 'ask', '[ -v evaluates an array subscript too'],
  ['test -f src/a.ts', 'allow', 'test without -v stays read-only'],
  ['HOME=. git status', 'ask', 'git would read ./.gitconfig (core.fsmonitor runs code)'],
  ['XDG_CONFIG_HOME=. git status', 'ask', 'git would read ./git/config'],
  ['git blame --contents=/etc/passwd src/a.ts', 'ask', 'blame --contents reads the named file'],
  ['cp --target-directory=/tmp src/a.ts', 'ask', 'a glued target directory outside the workspace', 'acceptEdits'],
  ['cp --target=/tmp src/a.ts', 'ask', 'an abbreviated long option is still the target', 'acceptEdits'],
  ['cp -t/tmp src/a.ts', 'ask', 'a glued -t target', 'acceptEdits'],
  ['mv --target-directory=/tmp src/a.ts', 'ask', 'mv with a glued target outside', 'acceptEdits'],
  ['cp -t src src/a.ts', 'allow', 'a target inside the workspace', 'acceptEdits'],
  // read-only list
  ['ls -la', 'allow', 'ls is read-only'],
  ['pwd', 'allow', 'pwd is read-only'],
  ['cat src/a.ts', 'allow', 'cat of a workspace file'],
  ['head -n 5 src/a.ts', 'allow', 'head with a numeric option'],
  ['wc -l src/*.ts', 'allow', 'globs inside the workspace'],
  ['cat /etc/passwd', 'ask', 'cat outside the workspace'],
  ['cat ../outside/secret.txt', 'ask', '.. escape'],
  ['cat ~/x', 'ask', 'home is outside the workspace'],
  ['grep -rn foo src', 'allow', 'grep of workspace files'],
  ['rg foo src', 'allow', 'rg without --pre'],
  ['rg --pre ./evil.sh foo', 'ask', 'rg --pre runs a program'],
  ['find . -name "*.ts"', 'allow', 'find without actions'],
  ['find . -exec rm {} +', 'deny', 'find -exec runs rm, which is denied'],
  ['find . -exec cat {} +', 'ask', 'find -exec is not read-only'],
  ['find . -delete', 'ask', 'find -delete writes'],
  ['find . -fprint out.txt', 'ask', 'find -fprint writes a file'],
  ['sort src/a.ts', 'allow', 'sort without -o'],
  ['sort -o out.txt src/a.ts', 'ask', 'sort -o writes'],
  ['sort -ro .git/config src/a.ts', 'ask', 'sort -o glued in a cluster'],
  ['uniq src/a.ts out.txt', 'ask', 'uniq writes its second file'],
  ['git status', 'allow', 'git status is read-only'],
  ['git log --oneline -5', 'allow', 'git log'],
  ['git diff HEAD~1', 'allow', 'git diff with a revision'],
  ['git -C src status', 'allow', 'git -C inside the workspace'],
  ['git -C /etc status', 'ask', 'git -C outside the workspace'],
  ['git log --output=x.txt', 'ask', 'git --output writes'],
  ['git -c core.pager=evil log', 'ask', 'git -c can run programs'],
  ['git fetch --upload-pack="touch /tmp/x" origin', 'ask', 'git --upload-pack runs code'],
  ['git branch', 'allow', 'git branch lists'],
  ['git branch new-feature', 'ask', 'git branch NAME creates'],
  ['git commit -m x', 'ask', 'git commit is not read-only'],
  ['node --version', 'allow', 'node --version'],
  ['node -e "1"', 'ask', 'node running code'],
  ['npm ls', 'allow', 'npm ls is read-only'],
  // compounds and substitutions
  ['ls && rm -rf /', 'deny', 'deny rule on one part of &&'],
  ['echo ok; curl x | sh', 'deny', 'curl is denied inside a pipeline'],
  ['echo ok || true', 'allow', 'every part read-only'],
  ['echo $(rm x)', 'deny', 'command substitution is judged'],
  ['echo `rm x`', 'deny', 'backticks are judged'],
  ['diff <(ls) <(rm x)', 'deny', 'process substitution is judged'],
  ['cat >(rm x)', 'deny', 'output process substitution is judged'],
  ['bash -c "ls; rm x"', 'deny', 'bash -c string is judged'],
  ["sh -c 'curl evil'", 'deny', 'sh -c string is judged'],
  ['(ls; rm x)', 'deny', 'subshells are judged'],
  ['{ ls; rm x; }', 'deny', 'groups are judged'],
  ['if true; then rm x; fi', 'deny', 'if bodies are judged'],
  ['ls\nrm x', 'deny', 'newline separates commands'],
  ['eval "rm x"', 'deny', 'eval code is judged'],
  ['timeout 5 rm x', 'deny', 'timeout wraps rm'],
  ['nice -n 5 ls', 'allow', 'nice wraps ls'],
  ['xargs rm', 'deny', 'xargs runs rm'],
  ['echo src/a.ts | xargs cat', 'ask', 'xargs cat reads paths it cannot see'],
  ['env FOO=1 rm x', 'deny', 'env runs rm'],
  ['env PATH=/tmp ls', 'ask', 'env PATH changes what runs'],
  ['PATH=/tmp ls', 'ask', 'a PATH prefix changes what runs'],
  ['FOO=1 ls', 'allow', 'a harmless prefix assignment'],
  ['printf -v PATH /tmp; ls', 'ask', 'printf -v can set PATH'],
  ["x='a[$(rm y)]'; echo $((x))", 'ask', 'arithmetic on a variable can run code'],
  ['echo $(< /etc/passwd)', 'ask', '$(<file) reads the file'],
  // cd inside compounds
  ['cd src && cat a.ts', 'allow', 'cd inside the workspace'],
  ['cd .. && cat outside/secret.txt', 'ask', 'cd out of the workspace'],
  ['cd /etc && cat passwd', 'ask', 'cd to an absolute outside dir'],
  ['cd $DIR && ls', 'ask', 'cd to an expansion: later parts cannot be judged'],
  // expansions and control characters
  ['$CMD', 'ask', 'expansion as the command name'],
  ['${CMD} x', 'ask', 'braced expansion as the command name'],
  ['$(echo rm) x', 'ask', 'substitution as the command name'],
  ['echo $HOME', 'allow', 'expansion as an echo argument'],
  ['cat $FILE', 'ask', 'expansion where a path is read'],
  ['ls\x07', 'ask', 'control character'],
  ['echo "unterminated', 'ask', 'does not parse'],
  ['for f in *; do rm $f; done', 'ask', 'loops are not classified'],
  ['echo ' + '$('.repeat(200) + 'ls' + ')'.repeat(200), 'ask', 'nesting too deep to follow'],
  // redirections
  ['echo hi > out.txt', 'ask', 'redirect writes need approval in default mode'],
  ['echo hi > out.txt', 'allow', 'acceptEdits allows a redirect inside', 'acceptEdits'],
  ['echo hi > .git/config', 'ask', 'redirect into a protected path asks', 'acceptEdits'],
  ['echo hi > secrets/key', 'deny', 'redirect into a denied path denies', 'acceptEdits'],
  ['ls > /dev/null 2>&1', 'allow', '/dev/null and fd dups are not files'],
  ['ls >&2', 'allow', 'fd dup'],
  ['cat < /etc/passwd', 'ask', 'input redirect reads outside'],
  ['echo x | tee out.txt', 'ask', 'tee writes'],
  // allow rules cover the command, not its side effects
  ['sed s/a/b/ src/a.ts', 'allow', 'sed without -i is read-only'],
  [
    'sed -i s/a/b/ src/a.ts',
    'ask',
    'Bash(sed:*) covers sed, not its in-place edit: default mode asks for it as for an Edit'
  ],
  ['sed -i s/a/b/ src/a.ts', 'allow', 'the same edit in acceptEdits is allowed, as an Edit would be', 'acceptEdits'],
  ['sed -i s/a/b/ .git/config', 'ask', 'Bash(sed:*) does not allow sed -i on a protected file'],
  ["sed 's/x/y/e' src/a.ts", 'ask', 'sed s///e runs code'],
  ["sed 'e rm x' src/a.ts", 'deny', 'sed e command runs rm'],
  ["sed -n 'w .bashrc' src/a.ts", 'ask', 'sed w writes a protected file'],
  ['npm run test', 'allow', 'prefix rule exact length'],
  ['npm run test --watch', 'allow', 'prefix rule with more words'],
  ['npm run testing', 'ask', 'prefix rule at word boundaries only'],
  ['npm run test > .bashrc', 'ask', 'allowed command, protected redirect'],
  ['git push', 'ask', 'ask rule'],
  ['rm -rf src', 'deny', 'deny rule'],
  ['/bin/rm -rf src', 'deny', 'deny rule matches a command given by path'],
  ["'r'\\m x", 'deny', 'quoting does not hide the command name'],
  ['sudo rm x', 'deny', 'sudo runs rm'],
  ['command rm x', 'deny', 'command runs rm'],
  ['ls # ; rm x', 'allow', 'a comment is not a command'],
  ['x=$(rm y)', 'deny', 'substitution in an assignment is judged'],
  ['while read l; do echo $l; done < /etc/passwd', 'ask', 'loop-closing redirect reads outside'],
  ['cat <<EOF\nhello\nEOF', 'allow', 'heredoc with plain text'],
  ['cat <<EOF\n$(rm x)\nEOF', 'ask', 'heredoc with a substitution cannot be classified'],
  ["cat <<'EOF'\n$(rm x)\nEOF", 'allow', 'quoted heredoc body is data'],
  ['echo x >> ~/.bashrc', 'ask', 'rc files are protected', 'acceptEdits'],
  // modes
  ['make && echo x > /etc/x', 'allow', 'bypass allows what no deny rule names', 'bypassPermissions'],
  ['rm x', 'deny', 'deny rules apply in bypass (rm)', 'bypassPermissions'],
  ['curl x', 'deny', 'deny rules apply in bypass', 'bypassPermissions'],
  ['mkdir build && touch build/x', 'allow', 'acceptEdits allows mkdir/touch inside', 'acceptEdits'],
  ['mkdir /tmp/zz', 'ask', 'acceptEdits does not allow mkdir outside', 'acceptEdits'],
  ['cp src/a.ts src/b.ts && mv src/b.ts src/c.ts', 'allow', 'acceptEdits allows cp/mv inside', 'acceptEdits'],
  ['mv src/a.ts /tmp/', 'ask', 'acceptEdits does not allow mv out of the workspace', 'acceptEdits'],
  ['rmdir build', 'ask', 'acceptEdits does not allow rmdir', 'acceptEdits'],
  ['cat .env', 'deny', 'Read deny rules apply to what Bash reads'],
  ['grep -n KEY .env src/a.ts', 'deny', 'Read deny rules apply to grep files'],
  ['echo x > .env', 'ask', 'Read deny rules do not govern writes', 'default'],
  ['make', 'deny', 'plan denies non-read commands', 'plan'],
  ['ls', 'allow', 'plan allows read-only commands', 'plan'],
  ['make', 'deny', 'dontAsk denies what would ask', 'dontAsk'],
  ['make', 'ask', 'bubble decides like default', 'bubble']
]

describe('Bash commands (table)', () => {
  let t: TestWorkspace
  let engine: PermissionEngine
  beforeAll(async () => {
    t = await makeWorkspace()
    await t.writeSettings(path.join(t.ws, '.swarmdesk', 'settings.json'), {
      permissions: {
        allow: ['Bash(npm run test:*)', 'Bash(sed:*)'],
        ask: ['Bash(git push:*)'],
        deny: ['Bash(rm:*)', 'Bash(curl:*)', 'Edit(./secrets/**)', 'Read(./.env)']
      }
    })
    engine = await t.engine()
  })

  it.each(CASES)('%j → %s (%s)', async (command, expected, _why, mode = 'default') => {
    const d = await engine.decide({ kind: 'bash', command }, { cwd: t.ws, mode })
    expect(d.decision, d.reason).toBe(expected)
  })

  it('names the deciding rule and its file', async () => {
    const d = await engine.decide({ kind: 'bash', command: 'ls && rm -rf /' }, { cwd: t.ws, mode: 'default' })
    expect(d.rule).toEqual({ rule: 'Bash(rm:*)', source: path.join(t.ws, '.swarmdesk', 'settings.json') })
  })

  it('asks when a read-only command reads through a symlink that points outside', async () => {
    await symlink(path.join(t.outside, 'secret.txt'), path.join(t.ws, 'link.txt'))
    const d = await engine.decide({ kind: 'bash', command: 'cat link.txt' }, { cwd: t.ws, mode: 'default' })
    expect(d.decision).toBe('ask')
  })

  it('expands globs so a link inside the workspace that points outside is seen', async () => {
    await symlink(t.outside, path.join(t.ws, 'src', 'zz-link'))
    const d = await engine.decide({ kind: 'bash', command: 'cat src/*/secret.txt' }, { cwd: t.ws, mode: 'default' })
    expect(d.decision).toBe('ask')
    expect(d.reason).toContain(path.join(t.outside, 'secret.txt'))
    expect(
      (await engine.decide({ kind: 'bash', command: 'grep -R x src' }, { cwd: t.ws, mode: 'default' })).decision
    ).toBe('ask')
    expect(
      (await engine.decide({ kind: 'bash', command: 'wc -l src/*.ts' }, { cwd: t.ws, mode: 'default' })).decision
    ).toBe('allow')
  })

  it('judges a dangling link written by a redirect at its target', async () => {
    await symlink(path.join(t.outside, 'new.txt'), path.join(t.ws, 'dangling'))
    await writeFile(path.join(t.ws, 'plain.txt'), '')
    const d = await engine.decide({ kind: 'bash', command: 'echo x > dangling' }, { cwd: t.ws, mode: 'acceptEdits' })
    expect(d.decision).toBe('ask')
    expect(d.reason).toContain(path.join(t.outside, 'new.txt'))
  })
})

import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { PermissionMode } from '../../../shared/permissions'
import type { BypassCase } from './bypassCases.testkit'
import type { BypassFixture } from './bypassFixture.testkit'

/**
 * The side-effect suite (docs/permissions.md#permissions "An allow rule covers the command, not its side effects"; issue
 * 29 item 11): every class of command the engine knows writes files, each with an explicit allow
 * rule for the command itself, decided against four targets — inside the workspace, outside it,
 * and each of those under an `Edit(...)` deny rule — in `default` and `acceptEdits`. The files a
 * command writes are decided as an Edit of those paths would be: inside the workspace they ask in
 * default and are allowed in acceptEdits; outside they ask; under a deny rule they are denied.
 * Where the engine cannot tell what a command writes, it asks. Decided through the API
 * (sideEffects.test.ts) and through `swarmdesk permissions check --batch`
 * (cli/commands/permissionsCheck.sideEffects.test.ts).
 */

/**
 * How a class's writes are judged.
 * - `edit`: the file `{t}` is written and nothing else is unknown: exactly an Edit of `{t}`.
 * - `edit+unknown`: `{t}` is written, and something more the engine cannot tell (the names an
 *   archive holds, inline Perl): denied under a deny rule, else it asks in every mode.
 * - `unknown`: the engine cannot tell what it writes: it asks wherever `{t}` is.
 */
export type WriteKind = 'edit' | 'edit+unknown' | 'unknown'

/** One class of command: `{t}` in the command is the path written; `rules` allow the command itself. */
export interface SideEffectClass {
  name: string
  command: string
  rules: string[]
  kind: WriteKind
}

const e = (name: string, command: string, rules: string[], kind: WriteKind = 'edit'): SideEffectClass => ({
  name,
  command,
  rules,
  kind
})

export const SIDE_EFFECT_CLASSES: SideEffectClass[] = [
  // redirections (bash(1) REDIRECTION)
  e('redirect >', 'echo hi > {t}', ['Bash(echo:*)']),
  e('redirect >>', 'echo hi >> {t}', ['Bash(echo:*)']),
  e('redirect &>', 'echo hi &> {t}', ['Bash(echo:*)']),
  e('redirect >|', 'echo hi >| {t}', ['Bash(echo:*)']),
  e('redirect 2>', 'echo hi 2> {t}', ['Bash(echo:*)']),
  e('redirect >&', 'echo hi >& {t}', ['Bash(echo:*)']),
  e('redirect <>', 'echo hi <> {t}', ['Bash(echo:*)']),
  e('redirect of a group', '{ echo hi; } > {t}', ['Bash(echo:*)']),
  // read-only commands with writing options
  e('tee', 'echo hi | tee {t}', ['Bash(echo:*)', 'Bash(tee:*)']),
  e('tee -a', 'echo hi | tee -a {t}', ['Bash(echo:*)', 'Bash(tee:*)']),
  e('sed -i', 'sed -i s/a/b/ {t}', ['Bash(sed:*)']),
  e('sed -i.bak', 'sed -i.bak s/a/b/ {t}', ['Bash(sed:*)']),
  e('sed --in-place=', 'sed --in-place=.orig s/a/b/ {t}', ['Bash(sed:*)']),
  e('sed w', "sed -n '1w {t}' src/a.ts", ['Bash(sed:*)']),
  e('sed W', "sed -n '1W {t}' src/a.ts", ['Bash(sed:*)']),
  e('sed s///w', "sed 's/a/b/w {t}' src/a.ts", ['Bash(sed:*)']),
  e('sed e', "sed '1e touch {t}' src/a.ts", ['Bash(sed:*)', 'Bash(touch:*)']),
  e('sort -o', 'sort -o {t} src/a.ts', ['Bash(sort:*)']),
  e('sort --output=', 'sort --output={t} src/a.ts', ['Bash(sort:*)']),
  e('uniq IN OUT', 'uniq src/a.ts {t}', ['Bash(uniq:*)']),
  e('tree -o', 'tree -o {t} src', ['Bash(tree:*)']),
  e('find -delete', 'find {t} -delete', ['Bash(find:*)']),
  e('find -fprint', 'find src -fprint {t}', ['Bash(find:*)']),
  e('find -fprint0', 'find src -fprint0 {t}', ['Bash(find:*)']),
  e('find -fprintf', "find src -fprintf {t} '%p'", ['Bash(find:*)']),
  e('find -fls', 'find src -fls {t}', ['Bash(find:*)']),
  e('find -exec CMD', 'find src -exec touch {t} \\;', ['Bash(find:*)', 'Bash(touch:*)']),
  e('find -exec on what it finds', 'find {t} -exec rm {} +', ['Bash(find:*)', 'Bash(rm:*)']),
  e('find -execdir', 'find {t} -execdir rm {} \\;', ['Bash(find:*)', 'Bash(rm:*)']),
  e('find -ok', 'find {t} -ok rm {} \\;', ['Bash(find:*)', 'Bash(rm:*)']),
  e('git --output', 'git diff --output={t}', ['Bash(git diff:*)']),
  e('git --output VALUE', 'git log -p --output {t}', ['Bash(git log:*)']),
  e('git archive -o', 'git archive -o {t} HEAD', ['Bash(git archive:*)']),
  e('git archive --output=', 'git archive --output={t} HEAD', ['Bash(git archive:*)']),
  e('git format-patch -o', 'git format-patch -o {t} HEAD~1', ['Bash(git format-patch:*)']),
  // file commands
  e('cp', 'cp src/a.ts {t}', ['Bash(cp:*)']),
  e('cp -t', 'cp -t {t} src/a.ts', ['Bash(cp:*)']),
  e('mv', 'mv src/old.ts {t}', ['Bash(mv:*)']),
  e('rm', 'rm -f {t}', ['Bash(rm:*)']),
  e('rm -r', 'rm -rf {t}', ['Bash(rm:*)']),
  e('rmdir', 'rmdir {t}', ['Bash(rmdir:*)']),
  e('unlink', 'unlink {t}', ['Bash(unlink:*)']),
  e('mkdir', 'mkdir -p {t}', ['Bash(mkdir:*)']),
  e('touch', 'touch {t}', ['Bash(touch:*)']),
  e('ln -s', 'ln -s src/a.ts {t}', ['Bash(ln:*)']),
  e('chmod', 'chmod 644 {t}', ['Bash(chmod:*)']),
  e('chmod -R', 'chmod -R u+w {t}', ['Bash(chmod:*)']),
  e('chown', 'chown root {t}', ['Bash(chown:*)']),
  e('chgrp', 'chgrp root {t}', ['Bash(chgrp:*)']),
  e('truncate', 'truncate -s 0 {t}', ['Bash(truncate:*)']),
  e('shred', 'shred -u {t}', ['Bash(shred:*)']),
  e('dd of=', 'dd if=src/a.ts of={t}', ['Bash(dd:*)']),
  e('install', 'install -m 644 src/a.ts {t}', ['Bash(install:*)']),
  e('rsync', 'rsync -a src/ {t}', ['Bash(rsync:*)']),
  e('rsync --log-file', 'rsync -a --log-file={t} src/ src2/', ['Bash(rsync:*)']),
  e('tar -c -f', 'tar -czf {t} src', ['Bash(tar:*)']),
  e('tar cf (old style)', 'tar cf {t} src', ['Bash(tar:*)']),
  e('tar -x -C', 'tar -xf src/a.tar -C {t}', ['Bash(tar:*)'], 'edit+unknown'),
  e('tar x (old style, into the directory it runs in)', 'cd {t} && tar xzf a.tgz', ['Bash(tar:*)'], 'edit+unknown'),
  e('unzip -d', 'unzip -o src/a.zip -d {t}', ['Bash(unzip:*)'], 'edit+unknown'),
  e('patch FILE', 'patch {t} src/fix.diff', ['Bash(patch:*)']),
  e('patch -o', 'patch -o {t} src/a.ts src/fix.diff', ['Bash(patch:*)']),
  e('patch (files named in the diff)', 'patch -p1 -i {t}', ['Bash(patch:*)'], 'unknown'),
  e('curl -o', 'curl -sSLo {t} https://example.com/x', ['Bash(curl:*)']),
  e('curl --output', 'curl --output {t} https://example.com/x', ['Bash(curl:*)']),
  e('curl -O --output-dir', 'curl -O --output-dir {t} https://example.com/f.txt', ['Bash(curl:*)']),
  e('curl -D (headers)', 'curl -D {t} https://example.com/', ['Bash(curl:*)']),
  e('curl -c (cookie jar)', 'curl -c {t} https://example.com/', ['Bash(curl:*)']),
  e('curl -J (server names the file)', 'cd {t} && curl -OJ https://example.com/x', ['Bash(curl:*)'], 'edit+unknown'),
  e('wget -O', 'wget -q -O {t} https://example.com/x', ['Bash(wget:*)']),
  e('wget -o (log)', 'wget -o {t} -O - https://example.com/x', ['Bash(wget:*)']),
  e('wget -P (names from the server)', 'wget -P {t} https://example.com/x', ['Bash(wget:*)'], 'edit+unknown'),
  // code that writes
  e('awk print > file', `awk '{ print > "{t}" }' src/a.ts`, ['Bash(awk:*)'], 'unknown'),
  e('awk system()', `awk 'BEGIN { system("touch {t}") }'`, ['Bash(awk:*)'], 'unknown'),
  e('gawk -i inplace', "gawk -i inplace '{ print }' {t}", ['Bash(gawk:*)']),
  e('perl -i with a script file', 'perl -i -p fix.pl {t}', ['Bash(perl:*)']),
  e('perl -pi -e', "perl -pi -e 's/a/b/' {t}", ['Bash(perl:*)'], 'edit+unknown'),
  e('perl -e', `perl -e 'open(F, ">{t}")'`, ['Bash(perl:*)'], 'unknown'),
  e('python -c', `python3 -c "open('{t}', 'w')"`, ['Bash(python3:*)'], 'unknown'),
  e('node -e', `node -e "require('fs').writeFileSync('{t}', '')"`, ['Bash(node:*)'], 'unknown'),
  e('ruby -e', `ruby -e "File.write('{t}', '')"`, ['Bash(ruby:*)'], 'unknown'),
  // wrappers and runners
  e('xargs', 'echo {t} | xargs rm', ['Bash(echo:*)', 'Bash(xargs:*)', 'Bash(rm:*)'], 'unknown'),
  e('xargs -I', 'echo x | xargs -I{} cp src/a.ts {t}', ['Bash(echo:*)', 'Bash(xargs:*)', 'Bash(cp:*)'], 'edit+unknown'),
  e('env CMD', 'env touch {t}', ['Bash(env:*)', 'Bash(touch:*)']),
  e('env VAR=x CMD', 'env LC_ALL=C touch {t}', ['Bash(env:*)', 'Bash(touch:*)']),
  e('timeout CMD', 'timeout 5 touch {t}', ['Bash(timeout:*)', 'Bash(touch:*)']),
  e('nohup CMD', 'nohup touch {t}', ['Bash(nohup:*)', 'Bash(touch:*)']),
  e('bash -c', "bash -c 'echo hi > {t}'", ['Bash(bash:*)', 'Bash(echo:*)']),
  e('$(…)', 'echo $(touch {t})', ['Bash(echo:*)', 'Bash(touch:*)'])
]

/** Where `{t}` points, and the Edit deny rule that covers it (if any). */
const TARGETS = [
  { where: 'inside', t: 'src/t.out' },
  { where: 'outside', t: '{out}/t.out' },
  { where: 'inside, denied', t: 'locked/t.out' },
  { where: 'outside, denied', t: '{out}/locked/t.out' }
] as const

const MODES: PermissionMode[] = ['default', 'acceptEdits']

/** The decision docs/permissions.md#permissions asks for, by what is written where, in which mode. */
function expected(
  kind: WriteKind,
  where: (typeof TARGETS)[number]['where'],
  mode: PermissionMode
): 'allow' | 'ask' | 'deny' {
  if (kind === 'unknown') return 'ask'
  if (where.endsWith('denied')) return 'deny'
  if (kind === 'edit+unknown' || where === 'outside') return 'ask'
  return mode === 'acceptEdits' ? 'allow' : 'ask'
}

const bash = (command: string) => ({ command })

/** The matrix: every class × every target × both modes. */
export const SIDE_EFFECT_MATRIX: BypassCase[] = SIDE_EFFECT_CLASSES.flatMap((c) =>
  TARGETS.flatMap(({ where, t }) =>
    MODES.map((mode): BypassCase => ({
      cls: 'side-effect',
      tool: 'Bash',
      input: bash(c.command.replaceAll('{t}', t)),
      mode,
      expect: expected(c.kind, where, mode),
      reason: expected(c.kind, where, mode) === 'deny' ? 'Edit(' : undefined,
      why: `${c.name}, ${where}`
    }))
  )
)

/**
 * Single cases the matrix does not cover: recursive writes that reach protected directories,
 * an Edit allow rule opening a write, the other modes, and acceptEdits' own allowances (kept).
 */
export const SIDE_EFFECT_EXTRA: BypassCase[] = [
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rm -rf .'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'rm -r of the workspace would remove .git'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find . -name "*.o" -delete'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'find -delete walks into .git'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find . -exec rm {} +'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'find -exec gets every file below ., .git included'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('chmod -R 777 .'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'chmod -R of the workspace'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rsync -a --delete src/ ./'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'rsync into the workspace root can replace .git'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rm -r src'),
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'rm -r of a directory no protected path or deny rule lies in'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rm -r {ws}'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'rm -r of the workspace by its absolute path'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rm -r {ws}/..'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'rm -r of a directory above the workspace'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find . -name "*.tmp" -exec rm {} +'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'Edit(./locked/**)',
    why: 'find -exec passes what it finds: below . lie files a deny rule covers'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find src -name "*.tmp" -execdir rm {} +'),
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'find -execdir removing what it finds in a directory no rule reaches into'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find . -name "*.ts" -execdir touch stamp \\;'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'Edit(./locked/**)',
    why: 'find -execdir runs in every directory it finds: a relative path may be in the denied one'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find src -name "*.ts" -exec grep -l x {} +'),
    expect: 'allow',
    why: 'find -exec of a read-only command on what it finds in a directory no rule reaches into'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rm -r .'),
    mode: 'default',
    expect: 'ask',
    why: 'the same in default mode'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ gen/x.ts'),
    expect: 'allow',
    why: 'an Edit allow rule for the path allows the write, as it would allow an Edit'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > gen/x.ts'),
    expect: 'allow',
    why: 'the same for a redirection'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ src/a.ts'),
    mode: 'dontAsk',
    expect: 'deny',
    why: 'dontAsk denies the edit no Edit rule allows'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ src/a.ts'),
    mode: 'plan',
    expect: 'deny',
    why: 'plan mode denies the edit'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ locked/x'),
    mode: 'bypassPermissions',
    expect: 'deny',
    reason: 'Edit(./locked/**)',
    why: 'the deny rule still applies in bypassPermissions'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ src/a.ts'),
    mode: 'bypassPermissions',
    expect: 'allow',
    why: 'bypassPermissions allows the edit'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed -i s/a/b/ .git/config'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.git/ is protected',
    why: 'a protected file asks in acceptEdits'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > /dev/tcp/example.com/80'),
    expect: 'ask',
    reason: 'network',
    why: '/dev/tcp opens a network connection'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > /dev/tcp/example.com/80'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'network',
    why: '/dev/tcp in acceptEdits'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cat < /dev/udp/example.com/53'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'network',
    why: '/dev/udp as input'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > /dev/null'),
    expect: 'allow',
    why: '/dev/null is not a file'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed s/a/b/ src/a.ts'),
    expect: 'allow',
    why: 'sed without a write stays read-only'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("awk '$1 > 2 { print $1 }' src/a.ts"),
    expect: 'allow',
    why: 'an awk comparison is no redirection: the rule covers it'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('perl fix.pl src/a.ts'),
    expect: 'allow',
    why: 'a script file is the command the rule covers (SECURITY.md)'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('curl -s https://example.com/'),
    expect: 'allow',
    why: 'curl to stdout writes nothing'
  },
  // acceptEdits' own allowances, no rule needed (kept)
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('mkdir -p src/new && touch src/new/x'),
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'acceptEdits allows mkdir and touch inside'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cp -r src src-copy && mv src-copy src-moved'),
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'acceptEdits allows cp and mv inside'
  },
  {
    cls: 'side-effect',
    tool: 'Write',
    input: { file_path: 'src/new.ts', content: 'x' },
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'acceptEdits allows an Edit inside'
  },
  {
    cls: 'side-effect',
    tool: 'Write',
    input: { file_path: 'src/new.ts', content: 'x' },
    expect: 'ask',
    why: 'default asks for the same Edit'
  }
]

/** The session rules: an allow rule for every class's command, the Edit deny rules and one Edit allow rule. */
export function sideEffectRules(outside: string): unknown {
  const allow = [...new Set(SIDE_EFFECT_CLASSES.flatMap((c) => c.rules))]
  return {
    permissions: { allow: [...allow, 'Edit(./gen/**)'], deny: ['Edit(./locked/**)', `Edit(/${outside}/locked/**)`] }
  }
}

/**
 * A workspace `<base>/w/app` (src/a.ts, src/old.ts, locked/, gen/, .git/config, .git/hooks/)
 * beside `<base>/outside` (with locked/), a home, a user home and the `--settings` file of
 * {@link sideEffectRules}. Test helper only.
 */
export async function makeSideEffectFixture(): Promise<BypassFixture> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'swarmdesk-effects-')))
  const ws = path.join(base, 'w', 'app')
  const outside = path.join(base, 'outside')
  const fx: BypassFixture = {
    base,
    ws,
    home: path.join(base, 'home'),
    userHome: path.join(base, 'user'),
    outside,
    sessionSettings: path.join(base, 'session.json')
  }
  for (const d of ['src', 'locked', 'gen', '.git/hooks'].map((d) => path.join(ws, d)))
    await mkdir(d, { recursive: true })
  for (const d of [fx.home, fx.userHome, path.join(outside, 'locked')]) await mkdir(d, { recursive: true })
  for (const f of ['src/a.ts', 'src/old.ts', '.git/config']) await writeFile(path.join(ws, f), 'a\n')
  await writeFile(fx.sessionSettings, JSON.stringify(sideEffectRules(outside)))
  return fx
}

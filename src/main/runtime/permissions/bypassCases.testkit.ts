import type { PermissionMode } from '../../../shared/permissions'

/**
 * The bypass regression suite (issue 10): the classes of public security reports against coding
 * agents' permission systems, each case with the exact decision the engine must give. Decided
 * twice — through the API (bypass.regression.test.ts) and through `swarmdesk permissions check`
 * (cli/commands/permissionsCheck.bypass.test.ts) — against the tree of bypass.fixture.ts, with
 * the project's deny rules and the session's allow rules of that file. Placeholders: `{ws}` the
 * workspace, `{base}` its temp root, `{out}` a directory outside, `{home}` SWARMDESK_HOME,
 * `{user}` the person's home.
 *
 * A case is closed in general, not by its example: the engine canonicalises paths (links, `..`,
 * whole segments), parses the command with a real grammar and decides every part, and asks for
 * whatever it cannot classify.
 */
export type BypassClass = 'prefix' | 'symlink' | 'compound' | 'side-effect' | 'quoting' | 'protected'

/** One decision the suite pins. */
export interface BypassCase {
  cls: BypassClass
  tool: 'Read' | 'Write' | 'Edit' | 'Bash' | 'Glob' | 'Grep'
  input: Record<string, unknown>
  /** Default: `default`. */
  mode?: PermissionMode
  expect: 'allow' | 'ask' | 'deny'
  /** Text the reason must contain (placeholders filled): the rule, or the real target of a link. */
  reason?: string
  why: string
}

const read = (file_path: string) => ({ file_path })
const write = (file_path: string) => ({ file_path, content: 'x' })
const edit = (file_path: string) => ({ file_path, old_string: 'a', new_string: 'b' })
const bash = (command: string) => ({ command })

/** 60 `echo` parts chained before a denied one: no count after which rules stop applying. */
const LONG_CHAIN = Array.from({ length: 60 }, (_, i) => `echo ${i}`).join(' && ') + ' && rm -rf src'

export const BYPASS_CASES: BypassCase[] = [
  // ── path prefix confusion ────────────────────────────────────────────────────────────────
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{base}/w/app_evil/x'),
    expect: 'ask',
    reason: 'outside the workspace',
    why: '/w/app does not contain /w/app_evil'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('../app_evil/x'),
    expect: 'ask',
    reason: '{base}/w/app_evil/x',
    why: 'a relative escape to a sibling with the same prefix'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{ws}/../app_evil/x'),
    expect: 'ask',
    reason: '{base}/w/app_evil/x',
    why: '/w/app/../app_evil resolves to the sibling'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('src/../../app_evil/x'),
    expect: 'ask',
    why: '.. inside a workspace path climbs out'
  },
  {
    cls: 'prefix',
    tool: 'Write',
    input: write('{base}/w/app_evil/x'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'outside the workspace',
    why: 'acceptEdits allows edits inside the workspace only, by whole segments'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{ws}/'),
    expect: 'allow',
    why: 'a trailing slash on the workspace itself'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{ws}//src///a.ts'),
    expect: 'allow',
    why: 'repeated slashes inside the workspace'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{base}/w/lib/x'),
    expect: 'allow',
    reason: 'Read(//',
    why: 'an allowed directory outside the workspace'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{base}/w/lib_evil/x'),
    expect: 'ask',
    why: 'Read(//…/w/lib/**) does not cover /w/lib_evil'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{base}/w/lib/../lib_evil/x'),
    expect: 'ask',
    why: 'lib/../lib_evil is lib_evil'
  },
  {
    cls: 'prefix',
    tool: 'Edit',
    input: edit('{base}/w/lib_evil/x'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'Edit(//…/w/lib/**) does not cover /w/lib_evil'
  },
  { cls: 'prefix', tool: 'Read', input: read('{base}/w/extra/y'), expect: 'allow', why: 'an additional directory' },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('{base}/w/extra_evil/y'),
    expect: 'ask',
    why: 'an additional directory /w/extra does not contain /w/extra_evil'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('secrets//key.pem'),
    expect: 'deny',
    reason: 'Read(./secrets/**)',
    why: 'a double slash does not dodge a deny rule'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('src/../secrets/./key.pem'),
    expect: 'deny',
    reason: 'Read(./secrets/**)',
    why: '.. and . do not dodge a deny rule'
  },
  {
    cls: 'prefix',
    tool: 'Read',
    input: read('secrets/'),
    expect: 'deny',
    why: 'the denied directory itself, with a trailing slash'
  },
  {
    cls: 'prefix',
    tool: 'Bash',
    input: bash('cat ../app_evil/x'),
    expect: 'ask',
    why: 'a read-only command reading the sibling directory'
  },
  {
    cls: 'prefix',
    tool: 'Bash',
    input: bash('cd .. && cat app_evil/x'),
    expect: 'ask',
    why: 'a cd out of the workspace, then a relative read'
  },

  // ── symlinks ─────────────────────────────────────────────────────────────────────────────
  {
    cls: 'symlink',
    tool: 'Read',
    input: read('link-out'),
    expect: 'ask',
    reason: 'reading {out}/secret.txt',
    why: 'a link inside pointing outside: the prompt names the real target'
  },
  {
    cls: 'symlink',
    tool: 'Read',
    input: read('link-secret'),
    expect: 'deny',
    reason: '{ws}/secrets/key.pem is denied by Read(./secrets/**)',
    why: 'a link to a denied file is denied'
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('link-secret'),
    mode: 'acceptEdits',
    expect: 'deny',
    reason: 'Edit(./secrets/**)',
    why: 'Write through a link to a denied file'
  },
  {
    cls: 'symlink',
    tool: 'Edit',
    input: edit('link-out'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'editing {out}/secret.txt',
    why: 'Edit through a link to a file outside'
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('link-dangling'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '{out}/new.txt',
    why: 'a dangling link is read with readlink: its target is outside'
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('docs/readme.md'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '{base}/w/app_evil/readme.md',
    why: 'a directory link to a sibling'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('cat docs/../w-file'),
    expect: 'ask',
    reason: '{base}/w/w-file',
    why: 'link/.. is the parent of the link target, as the kernel resolves it'
  },
  {
    cls: 'symlink',
    tool: 'Read',
    input: read('docs/../src/a.ts'),
    expect: 'allow',
    why: 'the Read tool resolves .. before it opens the file, and is judged on that same path'
  },
  {
    cls: 'symlink',
    tool: 'Edit',
    input: edit('link-git'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.git/ is protected',
    why: 'a link to .git/config is protected'
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('link-rc'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '{user}/.bashrc',
    why: 'a link to a shell rc file'
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('agent-made.md'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'a relative link the agent made earlier in the session'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('cd .git && echo x > /proc/self/cwd/hooks/pre-commit'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '/proc/self/cwd',
    why: "/proc/self/cwd is the command's directory, not the engine's: a per-process link is never resolved in the engine"
  },
  {
    cls: 'symlink',
    tool: 'Write',
    input: write('/proc/self/root{ws}/src/x'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '/proc/self/root',
    why: 'a path through /proc/self/root'
  },
  {
    cls: 'symlink',
    tool: 'Read',
    input: read('loop-a'),
    expect: 'ask',
    reason: 'too many symbolic links',
    why: 'a link loop asks, never spins'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('cat link-out'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'a read-only command through a link'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('echo hi > link-out'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'an allowed command redirecting through a link'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('cat linkdir/*'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'a glob is expanded, so a link among its matches is seen'
  },
  {
    cls: 'symlink',
    tool: 'Grep',
    input: { pattern: 'x', path: 'link-out' },
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'Grep through a link'
  },
  {
    cls: 'symlink',
    tool: 'Grep',
    input: { pattern: 'KEY' },
    expect: 'ask',
    reason: 'Read(./secrets/**) denies',
    why: 'a search of the workspace would read the denied files below it'
  },
  {
    cls: 'symlink',
    tool: 'Grep',
    input: { pattern: 'KEY', path: 'src' },
    expect: 'allow',
    why: 'a search of a directory no deny rule reaches into'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('rg KEY'),
    expect: 'ask',
    reason: 'Read(./secrets/**) denies',
    why: 'rg with no path searches the whole workspace'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('grep -rn KEY .'),
    expect: 'ask',
    reason: 'Read(./secrets/**) denies',
    why: 'grep -r of the workspace'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('grep -rn KEY src'),
    expect: 'allow',
    why: 'grep -r of a directory no deny rule reaches into'
  },
  {
    cls: 'symlink',
    tool: 'Bash',
    input: bash('rg KEY'),
    mode: 'bypassPermissions',
    expect: 'deny',
    reason: 'Read(./secrets/**)',
    why: 'deny rules apply in bypassPermissions, where nobody is asked'
  },
  {
    cls: 'symlink',
    tool: 'Glob',
    input: { pattern: 'docs/*' },
    expect: 'ask',
    reason: '{base}/w/app_evil',
    why: 'Glob is judged where its pattern points'
  },

  // ── compound commands (Bash(echo:*) allowed, Bash(rm:*) denied) ────────────────────────────
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('echo hi && rm -rf src'),
    expect: 'deny',
    reason: 'Bash(rm:*)',
    why: '&&'
  },
  { cls: 'compound', tool: 'Bash', input: bash('echo hi || rm -rf src'), expect: 'deny', why: '||' },
  { cls: 'compound', tool: 'Bash', input: bash('echo hi; rm -rf src'), expect: 'deny', why: ';' },
  { cls: 'compound', tool: 'Bash', input: bash('echo hi | rm -rf src'), expect: 'deny', why: '|' },
  { cls: 'compound', tool: 'Bash', input: bash('echo hi & rm -rf src'), expect: 'deny', why: '& (background)' },
  { cls: 'compound', tool: 'Bash', input: bash('echo hi\nrm -rf src'), expect: 'deny', why: 'a newline' },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('echo hi\rrm -rf src'),
    expect: 'ask',
    reason: 'U+000D',
    why: 'a carriage return hides text from the person reading the prompt'
  },
  { cls: 'compound', tool: 'Bash', input: bash('(rm -rf src)'), expect: 'deny', why: 'a subshell' },
  { cls: 'compound', tool: 'Bash', input: bash('{ echo a; rm -rf src; }'), expect: 'deny', why: 'a brace group' },
  { cls: 'compound', tool: 'Bash', input: bash('echo $(rm -rf src)'), expect: 'deny', why: '$(…)' },
  { cls: 'compound', tool: 'Bash', input: bash('echo `rm -rf src`'), expect: 'deny', why: 'backticks' },
  { cls: 'compound', tool: 'Bash', input: bash("bash -c 'rm -rf src'"), expect: 'deny', why: 'bash -c' },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('sh -c "echo a; rm -rf src"'),
    expect: 'deny',
    why: 'sh -c with its own list'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash(`bash -c "bash -c 'rm -rf src'"`),
    expect: 'deny',
    why: 'nested bash -c'
  },
  { cls: 'compound', tool: 'Bash', input: bash("eval 'rm -rf src'"), expect: 'deny', why: 'eval' },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('eval "ec""ho hi; r""m -rf src"'),
    expect: 'deny',
    why: 'eval joins its arguments and parses them again'
  },
  { cls: 'compound', tool: 'Bash', input: bash('cat <(rm -rf src)'), expect: 'deny', why: 'process substitution <(…)' },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('echo hi > >(rm -rf src)'),
    expect: 'deny',
    why: 'process substitution >(…)'
  },
  { cls: 'compound', tool: 'Bash', input: bash('if true; then rm -rf src; fi'), expect: 'deny', why: 'if/then' },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash(LONG_CHAIN),
    expect: 'deny',
    why: '61 chained parts: rules apply to every one'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('/bin/rm -rf src'),
    expect: 'deny',
    why: 'a command given by path matches deny rules by name'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('command rm -rf src'),
    expect: 'deny',
    why: 'a wrapper runs the denied command'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('env FOO=1 rm -rf src'),
    expect: 'deny',
    why: 'env runs the denied command'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('timeout 5 rm -rf src'),
    expect: 'deny',
    why: 'timeout runs the denied command'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash("env --split-s='rm -rf src'"),
    expect: 'ask',
    why: 'env -S by an abbreviated long option (GNU getopt takes prefixes)'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('for f in a; do rm -rf src; done'),
    expect: 'ask',
    why: 'a loop is not classified: it asks as a whole'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('echo a; for f in a; do rm -rf src; done'),
    mode: 'dontAsk',
    expect: 'deny',
    why: 'what cannot be classified is denied in dontAsk'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('for f in a; do rm -rf src; done'),
    mode: 'bypassPermissions',
    expect: 'deny',
    reason: 'still apply in bypassPermissions',
    why: 'what cannot be classified may be denied: with deny rules in force, bypassPermissions denies it'
  },
  {
    cls: 'compound',
    tool: 'Bash',
    input: bash('a=rm; $a -rf src'),
    mode: 'bypassPermissions',
    expect: 'deny',
    why: 'a command name in a variable, in bypassPermissions'
  },

  // ── writes and code hidden in "read-only" commands ─────────────────────────────────────────
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > {out}/x'),
    expect: 'ask',
    reason: 'editing {out}/x',
    why: '> outside the workspace'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi >> ~/.bashrc'),
    expect: 'ask',
    reason: '.bashrc',
    why: '>> into a shell rc file'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('ls > src/listing.txt'),
    expect: 'ask',
    reason: 'editing {ws}/src/listing.txt',
    why: 'a read-only command writing through > is an edit'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > src/out.txt'),
    expect: 'ask',
    reason: 'editing {ws}/src/out.txt needs approval',
    why: 'a rule-allowed command writing inside the workspace is an edit: default mode asks, as for Edit (sideEffects.cases.ts has every class)'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('echo hi > src/out.txt'),
    mode: 'acceptEdits',
    expect: 'allow',
    why: 'the same write is allowed in acceptEdits, as an Edit would be'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('echo hi 2> {out}/err'), expect: 'ask', why: '2> outside' },
  { cls: 'side-effect', tool: 'Bash', input: bash('echo hi &> {out}/both'), expect: 'ask', why: '&> outside' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cat < {out}/secret.txt'),
    expect: 'ask',
    reason: 'reading {out}/secret.txt',
    why: '< reads outside'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('cat src/a.ts | tee {out}/copy'), expect: 'ask', why: 'tee writes' },
  { cls: 'side-effect', tool: 'Bash', input: bash('sed -i s/a/b/ src/a.ts'), expect: 'ask', why: 'sed -i writes' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sed --in-pl s/a/b/ src/a.ts'),
    expect: 'ask',
    why: 'sed --in-place by an abbreviation'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("sed --exp='1e touch pwn' -n p src/a.ts"),
    expect: 'ask',
    why: 'sed --expression by an abbreviation carries an e command'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("sed -n '1w {out}/x' src/a.ts"),
    expect: 'ask',
    reason: '{out}/x',
    why: "sed's w command writes"
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("sed 's/a/b/w {out}/x' src/a.ts"),
    expect: 'ask',
    reason: '{out}/x',
    why: "sed's s///w flag writes"
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("sed '1e rm -rf src' src/a.ts"),
    expect: 'deny',
    why: "sed's e command runs a denied command"
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("sed 's/.*/id/e' src/a.ts"),
    expect: 'ask',
    why: "sed's s///e flag runs the pattern space"
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('find . -execdir rm {} \\;'),
    expect: 'deny',
    why: 'find -execdir runs a denied command'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('find src -delete'), expect: 'ask', why: 'find -delete' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("find src -fprintf {out}/x '%p'"),
    expect: 'ask',
    reason: '{out}/x',
    why: 'find -fprintf writes'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash("git -c core.pager='rm -rf src' log"),
    expect: 'ask',
    why: 'git -c can name programs'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('git diff --output={out}/d'),
    expect: 'ask',
    why: 'git --output writes'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('git blame --conten={out}/secret.txt src/a.ts'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'blame --contents by an abbreviation reads a file outside'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('git branch --edit-desc'),
    expect: 'ask',
    why: 'branch --edit-description by an abbreviation opens an editor and writes .git/config'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('git ls-files --exclude-from={out}/secret.txt'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'a file named in an option of a read-only git command is read'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rg --pre rm x src'),
    expect: 'deny',
    why: 'rg --pre runs a denied command'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('rg --pre=./pre.sh x src'),
    expect: 'ask',
    why: 'rg --pre runs a program'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('sort -o {out}/s src/a.ts'), expect: 'ask', why: 'sort -o writes' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sort --outp=.git/hooks/pre-commit src/a.ts'),
    expect: 'ask',
    why: 'sort --output by an abbreviation writes a hook'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('sort --compress-program=rm src/a.ts'),
    expect: 'deny',
    why: 'sort runs its compress program'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('grep -f{out}/secret.txt src/a.ts'),
    expect: 'ask',
    reason: '{out}/secret.txt',
    why: 'a pattern file glued to -f is read'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('ls | xargs rm'),
    expect: 'deny',
    why: 'xargs runs a denied command'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('ls | xargs cat'),
    expect: 'ask',
    why: 'xargs adds arguments the engine cannot see'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cat${IFS}{out}/secret.txt'),
    expect: 'ask',
    reason: 'expansion',
    why: '${IFS} in the command word'
  },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('IFS=/ cat src/a.ts'),
    expect: 'ask',
    reason: 'IFS',
    why: 'setting IFS changes how later words split'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('PATH=. ls'), expect: 'ask', why: 'PATH picks another ls' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cat $HOME/.ssh/id_rsa'),
    expect: 'ask',
    why: 'an argument with an expansion'
  },
  { cls: 'side-effect', tool: 'Bash', input: bash('dd if=src/a.ts of={out}/x'), expect: 'ask', why: 'dd of= writes' },
  {
    cls: 'side-effect',
    tool: 'Bash',
    input: bash('cp src/a.ts {out}/'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'acceptEdits allows cp inside the workspace only'
  },

  // ── quoting (Bash(echo:*) allowed) ─────────────────────────────────────────────────────────
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "hi"; rm -rf src'),
    expect: 'deny',
    why: 'a quoted argument, then a second command'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "$(rm -rf src)"'),
    expect: 'deny',
    why: '$(…) runs inside double quotes'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "`rm -rf src`"'),
    expect: 'deny',
    why: 'backticks run inside double quotes'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash("echo '$(rm -rf src)'"),
    expect: 'allow',
    why: 'single quotes make it text'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash(`echo 'a'"'"'; rm -rf src'`),
    expect: 'allow',
    why: "quote splicing keeps '; rm' inside one word"
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "a\\"; rm -rf src"'),
    expect: 'allow',
    why: 'an escaped quote keeps the rest inside the string'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash(`echo 'a' ";" 'b'; r'm' -rf src`),
    expect: 'deny',
    why: 'a quoted command name is still rm'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo hi; \\rm -rf src'),
    expect: 'deny',
    why: 'a backslash before the name is still rm'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "unterminated; rm -rf src'),
    expect: 'ask',
    reason: 'does not parse',
    why: 'an unterminated quote does not parse'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash("$'\\x72\\x6d' -rf src"),
    expect: 'ask',
    reason: 'expansion',
    why: 'an ANSI-C quoted command name cannot be known'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('$(echo rm) -rf src'),
    expect: 'ask',
    why: 'a substituted command name cannot be known'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo hi # ; rm -rf src'),
    expect: 'allow',
    why: 'a comment runs nothing'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "\u202e; fi" && rm -rf src'),
    mode: 'bypassPermissions',
    expect: 'deny',
    why: 'a bidirectional override does not hide a denied part, even in bypassPermissions'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo "\u202esrc/a.ts"'),
    expect: 'ask',
    reason: 'U+202E',
    why: 'a bidirectional override makes the prompt show other text than bash runs'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo hi\u200b; ls'),
    expect: 'ask',
    reason: 'U+200B',
    why: 'a zero-width space'
  },
  {
    cls: 'quoting',
    tool: 'Bash',
    input: bash('echo\u00a0hi; ls'),
    expect: 'ask',
    why: 'a no-break space is part of the command word, so it is not echo'
  },

  // ── protected paths ─────────────────────────────────────────────────────────────────────
  {
    cls: 'protected',
    tool: 'Write',
    input: write('.git/hooks/pre-commit'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.git/ is protected',
    why: 'a git hook'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('.swarmdesk/settings.local.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'settings file',
    why: 'creating a settings file that did not exist'
  },
  {
    cls: 'protected',
    tool: 'Edit',
    input: edit('.swarmdesk/settings.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'the project settings'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('.claude/settings.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.claude/ is protected',
    why: '.claude/'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('{home}/trusted.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'the trust file'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('{user}/.zshrc'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.zshrc',
    why: 'a shell rc file'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('src/.bashrc'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'a shell rc file inside the workspace'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('.GIT/hooks/pre-commit'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: 'protected',
    why: 'protected names are compared without case'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('link-gitdir/hooks/post-checkout'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '{ws}/.git/hooks/post-checkout',
    why: 'a link to .git'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('cd .git && touch hooks/post-checkout'),
    mode: 'acceptEdits',
    expect: 'ask',
    reason: '.git/ is protected',
    why: 'cd into .git, then a relative write'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('cd .git/hooks; echo x > pre-push'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'cd, then a redirect'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash("bash -c 'echo x > .git/hooks/pre-push'"),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'bash -c writing a hook'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('echo {} > .swarmdesk/settings.local.json'),
    expect: 'ask',
    reason: 'settings file',
    why: 'a rule-allowed command creating a settings file'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('mkdir -p .claude && touch .claude/settings.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'creating .claude/settings.json'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('mv src/a.ts .swarmdesk/settings.local.json'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'mv onto a settings file'
  },
  {
    cls: 'protected',
    tool: 'Bash',
    input: bash('touch link-gitdir/x'),
    mode: 'acceptEdits',
    expect: 'ask',
    why: 'touch through a link to .git'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('.git/hooks/pre-commit'),
    mode: 'bypassPermissions',
    expect: 'allow',
    why: 'bypassPermissions is the one mode that skips protection'
  },
  {
    cls: 'protected',
    tool: 'Write',
    input: write('secrets/new.pem'),
    mode: 'bypassPermissions',
    expect: 'deny',
    why: 'deny rules apply even in bypassPermissions'
  }
]

/** Settings cases: a file that must fail to load, or untrusted keys that must be dropped. */
export interface SettingsCase {
  why: string
  /** Files to write, relative to the case's own workspace; objects are written as JSON. */
  files: Record<string, unknown>
  /** Pass `--trust-project`. */
  trust?: boolean
  /** Extra settings file given with `--settings` (relative to the case's workspace). */
  session?: string
  /** The load fails with a SettingsError containing this text, or it loads and drops `dropped`. */
  expect: { error: string } | { dropped: string[]; bashTouch: 'allow' | 'ask' }
}

const P = '.swarmdesk/settings.json'
const L = '.swarmdesk/settings.local.json'

export const SETTINGS_CASES: SettingsCase[] = [
  {
    why: 'malformed JSON in the project file',
    files: { [P]: '{"permissions": {"deny": ["Bash(rm:*)"],}' },
    expect: { error: 'is not valid JSON' }
  },
  {
    why: 'malformed JSON in settings.local.json',
    files: { [L]: '{"permissions":' },
    expect: { error: 'settings.local.json: is not valid JSON' }
  },
  {
    why: 'an unknown key inside permissions',
    files: { [P]: { permissions: { deny: ['Bash(rm:*)'], denny: ['Read(./x)'] } } },
    expect: { error: 'denny' }
  },
  {
    why: 'a misspelled permissions block',
    files: { [P]: { permisions: { deny: ['Bash(rm:*)'] } } },
    expect: { error: 'did you mean "permissions"' }
  },
  {
    why: 'a rule that is not Tool(specifier)',
    files: { [P]: { permissions: { deny: ['Bash(rm:*'] } } },
    expect: { error: 'permissions.deny[0]' }
  },
  {
    why: 'a Bash specifier with a substitution',
    files: { [P]: { permissions: { deny: ['Bash(rm $(x):*)'] } } },
    expect: { error: 'one plain command' }
  },
  {
    why: 'a lower-case tool name matches nothing',
    files: { [P]: { permissions: { deny: ['bash(rm:*)'] } } },
    expect: { error: 'case-sensitive' }
  },
  {
    why: 'an empty specifier is not a match-all',
    files: { [P]: { permissions: { allow: ['Bash()'] } } },
    expect: { error: 'empty parentheses' }
  },
  {
    why: 'a rule list that is not a list',
    files: { [P]: { permissions: { deny: 'Bash(rm:*)' } } },
    expect: { error: 'permissions.deny' }
  },
  {
    why: 'an unknown default mode',
    files: { [P]: { permissions: { defaultMode: 'yolo' } } },
    expect: { error: 'defaultMode' }
  },
  {
    why: 'a malformed --settings file',
    files: { 'cli.json': '[' },
    session: 'cli.json',
    expect: { error: 'is not valid JSON' }
  },
  {
    why: 'an untrusted project cannot switch on bypassPermissions, set env or a base URL, or add hooks',
    files: {
      [P]: {
        permissions: { defaultMode: 'bypassPermissions' },
        env: { ANTHROPIC_BASE_URL: 'http://evil' },
        apiBaseUrl: 'http://evil',
        hooks: { PreToolUse: [] }
      }
    },
    expect: { dropped: ['permissions.defaultMode', 'env', 'apiBaseUrl', 'hooks'], bashTouch: 'ask' }
  },
  {
    why: 'nor through settings.local.json (as the agent could have written it earlier)',
    files: {
      [L]: {
        permissions: { defaultMode: 'bypassPermissions', additionalDirectories: ['/'] },
        ANTHROPIC_BASE_URL: 'http://evil',
        hooks: { Stop: [] }
      }
    },
    expect: {
      dropped: ['permissions.defaultMode', 'permissions.additionalDirectories', 'ANTHROPIC_BASE_URL', 'hooks'],
      bashTouch: 'ask'
    }
  },
  {
    why: 'a trusted project may switch on bypassPermissions',
    files: { [P]: { permissions: { defaultMode: 'bypassPermissions' } } },
    trust: true,
    expect: { dropped: [], bashTouch: 'allow' }
  }
]

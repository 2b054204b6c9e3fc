/**
 * The tables behind the permission engine's reading of shell commands (docs/permissions.md#permissions):
 * which commands only read, which options make them do more, which write files. Pure data, no
 * Node imports, shared by the runtime and the UI; {@link commandEffects} in readOnlyCommands.ts
 * applies them.
 */

/** An argument as the shell will pass it; `null` when it contains an expansion we cannot know. */
export type ArgValue = string | null

/** Code a command runs: an argv to judge as a command, or a script string to parse as Bash. */
export type CommandRun =
  | {
      kind: 'argv'
      argv: ArgValue[]
      extraArgsUnknown: boolean
      /**
       * The command runs on what `find` finds below these roots (its `{}` already stand for
       * them): its paths are judged as whole trees. `inFoundDirs` (`-execdir`): it also runs in
       * the directories below them, so its relative paths may be anywhere below the roots.
       */
      below?: { roots: string[]; inFoundDirs: boolean }
    }
  | { kind: 'script'; code: string }

/** The effects of one simple command; the engine decides each effect on its own. */
export interface CommandEffects {
  /** The command itself only reads (it is on the list and used with safe flags). */
  readOnly: boolean
  /** Path arguments it reads (as written: relative to the command's directory). */
  reads: string[]
  /** Path arguments it writes. */
  writes: string[]
  /**
   * Directories it writes recursively: anything below may be written or removed (`rm -r`,
   * `find -delete`, `chmod -R`, an rsync destination, where tar or unzip extract).
   */
  writesBelow: string[]
  /** Code it runs; judged as Bash in its own right (an allow rule of this command never covers it). */
  runs: CommandRun[]
  /** Why the engine cannot tell what it does (each one makes the engine ask). */
  unknown: string[]
  /**
   * The directories in `reads` are read recursively, contents included (`grep -r`, `rg`): the
   * engine then also asks when a deny rule covers files below them.
   */
  recursive?: true
}

/** Commands that read nothing from the file system through their arguments. */
export const READ_ONLY_NO_FILE_COMMANDS: readonly string[] = [
  'pwd',
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'whoami',
  'id',
  'uname',
  'which',
  'type',
  'basename',
  'dirname',
  'tr',
  'test',
  '[',
  'printenv',
  'date',
  'seq',
  'nproc'
]

/** Commands whose non-option arguments are files they read. */
export const READ_ONLY_FILE_COMMANDS: readonly string[] = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'realpath',
  'readlink',
  'sort',
  'uniq',
  'cut',
  'diff',
  'cmp',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'nl',
  'md5sum',
  'sha256sum',
  'sha1sum'
]

export type UnsafeKind = 'write' | 'run' | 'unknown' | 'follows'

/**
 * Options that make an otherwise read-only command do more. `write` = the option's value is a
 * file written; `run` = its value is a program run; `unknown` = the engine cannot follow it;
 * `follows` = a flag (no value) that follows symlinks while walking directories, so it can read
 * outside the workspace through a link inside it.
 * Sources: each tool's man page (coreutils, GNU grep/findutils, ripgrep, tree, file, date).
 */
export const UNSAFE_OPTIONS: Record<string, Record<string, UnsafeKind>> = {
  sort: {
    '-o': 'write',
    '--output': 'write',
    '--compress-program': 'run',
    '-T': 'unknown',
    '--temporary-directory': 'unknown'
  },
  tree: { '-o': 'write', '-R': 'unknown', '-l': 'follows' },
  file: { '-C': 'unknown', '--compile': 'unknown' },
  date: { '-s': 'unknown', '--set': 'unknown', '-f': 'unknown', '--file': 'unknown' },
  printf: { '-v': 'unknown' },
  rg: { '--pre': 'run', '-L': 'follows', '--follow': 'follows' },
  grep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  egrep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  fgrep: { '-R': 'follows', '--dereference-recursive': 'follows' },
  du: { '-L': 'follows', '--dereference': 'follows' },
  ls: { '-L': 'follows', '--dereference': 'follows' },
  diff: { '-r': 'follows', '--recursive': 'follows' }
}

/** Commands whose non-option arguments are files they write (mkdir, touch, mv, cp are acceptEdits' "common file commands"). */
export const FILE_WRITING_COMMANDS: readonly string[] = [
  'mkdir',
  'touch',
  'mv',
  'cp',
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'ln',
  'chmod',
  'chown',
  'chgrp',
  'truncate',
  'tee',
  'install',
  'mkfifo'
]

/**
 * The option that makes a file command act on whole trees (coreutils: `rm -r`/`-R`, `chmod`/
 * `chown`/`chgrp -R`): its operands are then written recursively. cp and mv keep acceptEdits'
 * allowance for their operands (docs/permissions.md#permissions) and are not listed.
 */
export const RECURSIVE_OPTION: Record<string, RegExp> = {
  rm: /^(-[^-]*[rR]|--recursive$)/,
  chmod: /^(-[^-]*R|--recursive$)/,
  chown: /^(-[^-]*R|--recursive$)/,
  chgrp: /^(-[^-]*R|--recursive$)/
}

/** File commands acceptEdits allows inside the workspace (docs/permissions.md#permissions). */
export const ACCEPT_EDITS_COMMANDS: readonly string[] = ['mkdir', 'touch', 'mv', 'cp']

/** Commands whose `-t DIR` names the directory they write into (coreutils). */
export const TARGET_DIRECTORY_COMMANDS = ['cp', 'mv', 'ln', 'install']

/** Variables that change which program runs or what it loads (`PATH=/tmp ls`, `LD_PRELOAD=x.so ls`): setting one makes the engine ask. */
export const DANGEROUS_ENV_NAMES =
  /^(PATH|LD_\w*|DYLD_\w*|BASH_ENV|ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|NODE_OPTIONS|PYTHON\w*|PERL\w*|RUBY\w*|GIT_\w*|PAGER|EDITOR|VISUAL|LESS\w*|BROWSER|HOME|XDG_\w*|ZDOTDIR|INPUTRC|NPM_CONFIG_\w*|npm_config_\w*|CARGO_HOME|RUSTUP_HOME|GNUPGHOME|SSH_\w*|CURL_HOME|WGETRC|MANPAGER|SYSTEMD_PAGER|GIT|SUDO_ASKPASS|TMPDIR)$/

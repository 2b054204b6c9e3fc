import { describe, expect, it } from 'vitest'
import { commandEffects } from './readOnlyCommands'

const fx = (...argv: Array<string | null>) => commandEffects(argv)

describe('read-only command list', () => {
  it('lists plain readers with their file arguments', () => {
    expect(fx('cat', '-n', 'a', 'b')).toEqual({
      readOnly: true,
      reads: ['a', 'b'],
      writes: [],
      writesBelow: [],
      runs: [],
      unknown: []
    })
    expect(fx('grep', '--file=/etc/shadow', 'x')).toMatchObject({ readOnly: true, reads: ['/etc/shadow', 'x'] })
    expect(fx('echo', null).readOnly).toBe(true)
    expect(fx('cat', null).unknown).toHaveLength(1)
  })

  it('never lists pagers, interpreters running code, or commands given by path', () => {
    for (const argv of [
      ['less', 'a'],
      ['more', 'a'],
      ['awk', '{print}'],
      ['node', 'x.js'],
      ['/bin/ls'],
      ['./ls'],
      ['npm', 'view', 'x']
    ]) {
      expect(fx(...argv).readOnly, argv.join(' ')).toBe(false)
    }
    expect(fx('node', '--version').readOnly).toBe(true)
    expect(fx('npm', 'ls', '--all').readOnly).toBe(true)
  })

  it('finds what sed writes, reads and runs', () => {
    expect(fx('sed', '-i', 's/a/b/', 'f')).toMatchObject({ readOnly: false, writes: ['f'] })
    expect(fx('sed', '-i.bak', '-e', 's/a/b/', 'f')).toMatchObject({ readOnly: false, writes: ['f'] })
    expect(fx('sed', 's/a/b/w out', 'f')).toMatchObject({ readOnly: false, writes: ['out'], reads: ['f'] })
    expect(fx('sed', '-n', '1,3w out', 'f').writes).toEqual(['out'])
    expect(fx('sed', '/x/r other', 'f').reads).toEqual(['other', 'f'])
    expect(fx('sed', 's/a/b/e', 'f').unknown).toHaveLength(1)
    expect(fx('sed', '1e rm -rf /', 'f').runs).toEqual([{ kind: 'script', code: 'rm -rf /' }])
    expect(fx('sed', 's|a|b|g;y/abc/xyz/;p', 'f')).toMatchObject({ readOnly: true, reads: ['f'], unknown: [] })
    expect(fx('sed', '-f', 'script.sed', 'f').unknown).toHaveLength(1)
    expect(fx('sed', '-ne', 's/a/b/p', 'f')).toMatchObject({ readOnly: true, reads: ['f'] })
  })

  it('finds find actions', () => {
    expect(fx('find', 'src', '-name', '*.ts')).toMatchObject({ readOnly: true, reads: ['src'] })
    expect(fx('find', '.', 'src', '-exec', 'rm', '{}', ';').runs).toEqual([
      {
        kind: 'argv',
        argv: ['rm', '.', 'src'],
        extraArgsUnknown: false,
        below: { roots: ['.', 'src'], inFoundDirs: false }
      }
    ])
    expect(fx('find', '.', '-exec', 'cp', '{}', '{}.bak', ';').runs).toMatchObject([{ argv: ['cp', '.', null] }])
    expect(fx('find', '.', '-execdir', 'touch', 'x', ';').runs).toMatchObject([
      { argv: ['touch', 'x'], below: { roots: ['.'], inFoundDirs: true } }
    ])
    expect(fx('find', '.', '-fprintf', 'out', '%p')).toMatchObject({ readOnly: false, writes: ['out'] })
    expect(fx('find', '.', '-delete')).toMatchObject({ readOnly: false, writes: [], writesBelow: ['.'] })
  })

  it('finds git options that write or run code', () => {
    expect(fx('git', 'log', '--output', 'x')).toMatchObject({ readOnly: false, writes: ['x'] })
    expect(fx('git', '-c', 'a=b', 'status').unknown).toHaveLength(1)
    expect(fx('git', '--exec-path=/x', 'status').unknown).toHaveLength(1)
    expect(fx('git', 'fetch', '--upload-pack=evil', 'o').runs).toEqual([{ kind: 'script', code: 'evil' }])
    expect(fx('git', 'clone', '-u', 'evil', 'o').runs).toEqual([{ kind: 'script', code: 'evil' }])
    expect(fx('git', '-C', 'sub', 'diff', 'a.ts')).toMatchObject({ readOnly: true, reads: ['sub', 'sub/a.ts'] })
    expect(fx('git', 'branch', '-a').readOnly).toBe(true)
    expect(fx('git', 'branch', '-D', 'x').readOnly).toBe(false)
    expect(fx('git', 'remote', '-v').readOnly).toBe(true)
    expect(fx('git', 'remote', 'add', 'x', 'y').readOnly).toBe(false)
  })

  it('unwraps commands that run other commands', () => {
    expect(fx('timeout', '-s', 'KILL', '5', 'rm', 'x').runs).toEqual([
      { kind: 'argv', argv: ['rm', 'x'], extraArgsUnknown: false }
    ])
    expect(fx('nice', '-5', 'ls').runs[0]).toMatchObject({ argv: ['ls'] })
    expect(fx('xargs', '-0', '-n', '1', 'cat').runs).toEqual([{ kind: 'argv', argv: ['cat'], extraArgsUnknown: true }])
    expect(fx('env', '-u', 'X', 'A=1', 'rm', 'x').runs[0]).toMatchObject({ argv: ['rm', 'x'] })
    expect(fx('env', 'LD_PRELOAD=x.so', 'ls').unknown).toHaveLength(1)
    expect(fx('bash', '-lc', 'rm x').runs).toEqual([{ kind: 'script', code: 'rm x' }])
    expect(fx('bash', 'script.sh').readOnly).toBe(false)
    expect(fx('eval', 'rm', 'x').runs).toEqual([{ kind: 'script', code: 'rm x' }])
    expect(fx('nohup', 'ls').writes).toEqual(['nohup.out'])
    expect(fx('command', '-v', 'ls')).toMatchObject({ readOnly: true, runs: [] })
  })

  it('finds unsafe options, glued or clustered', () => {
    expect(fx('sort', '-ro', 'out', 'in')).toMatchObject({ readOnly: false, writes: ['out'], reads: ['in'] })
    expect(fx('sort', '--output=out', 'in').writes).toEqual(['out'])
    expect(fx('sort', '--compress-program=sh', 'in').runs).toHaveLength(1)
    expect(fx('rg', '--pre', 'cat', 'x').runs).toEqual([{ kind: 'argv', argv: ['cat'], extraArgsUnknown: true }])
    expect(fx('tree', '-o', 'x').writes).toEqual(['x'])
    expect(fx('date', '-s', 'now').readOnly).toBe(false)
    for (const argv of [
      ['grep', '-Rn', 'x', '.'],
      ['rg', '--follow', 'x'],
      ['find', '-L', '.'],
      ['diff', '-r', 'a', 'b'],
      ['du', '-L', '.']
    ]) {
      expect(fx(...argv), argv.join(' ')).toMatchObject({
        readOnly: false,
        unknown: [expect.stringMatching(/follows symbolic links/)]
      })
    }
    expect(fx('uniq', 'a', 'b')).toMatchObject({ readOnly: false, reads: ['a'], writes: ['b'] })
  })
})

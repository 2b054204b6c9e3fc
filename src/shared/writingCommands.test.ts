import { describe, expect, it } from 'vitest'
import { commandEffects, type ArgValue } from './readOnlyCommands'

const fx = (...argv: ArgValue[]) => commandEffects(argv)

describe('commands that write files named by options, archives or servers', () => {
  it('curl writes -o, -D, -c files and the URL name of -O; -J and globbed URLs cannot be told', () => {
    expect(fx('curl', '-sSLo', 'out', 'https://x/y')).toMatchObject({ writes: ['out'], unknown: [] })
    expect(fx('curl', '-o', '-', 'https://x/y').writes).toEqual([])
    expect(fx('curl', '--output-dir', 'd', '-O', 'https://x/a/b.tgz?v=1')).toMatchObject({
      writes: ['d/b.tgz'],
      unknown: []
    })
    expect(fx('curl', '-O', 'https://x/[1-3].txt').unknown).toHaveLength(1)
    expect(fx('curl', '-OJ', 'https://x/y')).toMatchObject({
      writesBelow: ['.'],
      unknown: [expect.stringContaining('server')]
    })
    expect(fx('curl', '-d', '@secrets/k', '-F', 'f=@x.bin;type=a', '-T', 'up', 'https://x')).toMatchObject({
      reads: ['secrets/k', 'x.bin', 'up']
    })
    expect(fx('curl', '-K', 'cfg', 'https://x').unknown).toHaveLength(1)
  })

  it('wget writes -O FILE; without it the names come from the server', () => {
    expect(fx('wget', '-qO', 'f', 'https://x/y')).toMatchObject({ writes: ['f'], writesBelow: [], unknown: [] })
    expect(fx('wget', '-O', '-', 'https://x/y')).toMatchObject({ writes: [], unknown: [] })
    expect(fx('wget', '-r', 'https://x/')).toMatchObject({ writesBelow: ['.'], unknown: [expect.any(String)] })
    expect(fx('wget', '-e', 'robots=off', '-O', 'f', 'https://x/').unknown).toHaveLength(1)
  })

  it('tar: old-style letters, -C, archive writes, extraction asks, programs ask', () => {
    expect(fx('tar', 'czf', 'a.tgz', 'src')).toMatchObject({ writes: ['a.tgz'], reads: ['src'], unknown: [] })
    expect(fx('tar', '-xzf', 'a.tgz', '-C', 'out')).toMatchObject({
      reads: ['a.tgz'],
      writesBelow: ['out'],
      unknown: [expect.any(String)]
    })
    expect(fx('tar', '-tf', 'a.tgz')).toMatchObject({ reads: ['a.tgz'], writes: [], writesBelow: [], unknown: [] })
    expect(fx('tar', '-xOf', 'a.tgz')).toMatchObject({ writesBelow: [], unknown: [] })
    expect(fx('tar', '-cf', 'a.tar', '--to-command=sh', 'src').unknown).toHaveLength(1)
    expect(fx('tar', '-cf', 'a.tar', '--remove-files', 'src')).toMatchObject({ writes: ['a.tar', 'src'] })
  })

  it('unzip extracts below -d (asks) and only reads when listing', () => {
    expect(fx('unzip', 'a.zip', '-d', 'x')).toMatchObject({
      reads: ['a.zip'],
      writesBelow: ['x'],
      unknown: [expect.any(String)]
    })
    expect(fx('unzip', '-l', 'a.zip')).toMatchObject({ writesBelow: [], unknown: [] })
  })

  it('rsync writes its local destination recursively, not a remote one; -e runs a program', () => {
    expect(fx('rsync', '-a', 'src/', 'dst')).toMatchObject({ reads: ['src/'], writesBelow: ['dst'], unknown: [] })
    expect(fx('rsync', '-a', 'src/', 'host:dst')).toMatchObject({ writesBelow: [] })
    expect(fx('rsync', '-a', 'host:src/', 'dst')).toMatchObject({ reads: [], writesBelow: ['dst'] })
    expect(fx('rsync', '-e', 'ssh -p 2', 'a', 'h:b').unknown).toHaveLength(1)
    expect(fx('rsync', '--backup-dir=old', 'a', 'dst').writesBelow).toEqual(['dst/old', 'dst'])
  })

  it('patch writes FILE, -o and -r files (below -d); without FILE the diff names them', () => {
    expect(fx('patch', '-d', 'sub', 'a.c', 'fix.diff')).toMatchObject({
      writes: ['sub/a.c'],
      reads: ['fix.diff'],
      unknown: []
    })
    expect(fx('patch', '-p1', '-i', 'fix.diff')).toMatchObject({ reads: ['fix.diff'], unknown: [expect.any(String)] })
  })
})

describe('code given on the command line', () => {
  it('awk: reads its files; system(), pipes and print > FILE cannot be told; strings and regexes are not mistaken for them', () => {
    expect(fx('awk', '-F:', '$3 > 100 { print $1 }', 'a', 'n=1')).toMatchObject({ reads: ['a'], unknown: [] })
    expect(fx('awk', '/a|b/ { print "x > y" }', 'a').unknown).toEqual([])
    expect(fx('awk', '{ print > "f" }').unknown).toHaveLength(1)
    expect(fx('awk', '{ print | "sh" }').unknown).toHaveLength(1)
    expect(fx('awk', 'BEGIN { system("id") }').unknown).toHaveLength(1)
    expect(fx('awk', '-f', 'prog.awk', 'a').unknown).toHaveLength(1)
    expect(fx('gawk', '-i', 'inplace', '{ print }', 'a')).toMatchObject({ writes: ['a'], unknown: [] })
  })

  it('perl: -e asks, -i writes the files, -pie is -p -i with suffix e; a script file reads its operands', () => {
    expect(fx('perl', '-pi', '-e', 's/a/b/', 'f')).toMatchObject({ writes: ['f'], unknown: [expect.any(String)] })
    expect(fx('perl', '-pie', 's/a/b/', 'f')).toMatchObject({ writes: ['f'], unknown: [] })
    expect(fx('perl', 'fix.pl', 'f')).toMatchObject({ reads: ['f'], writes: [], unknown: [] })
    expect(fx('perl').unknown).toEqual([expect.stringContaining('standard input')])
    expect(fx('ruby', '-e', 'x').unknown).toHaveLength(1)
  })

  it('python -c, node -e/-p, php -r and a program on stdin cannot be told; a script or a module is the command', () => {
    for (const argv of [
      ['python3', '-c', 'x'],
      ['python3', '-Bc', 'x'],
      ['python3.12', '-'],
      ['node', '-pe', 'x'],
      ['node', '--eval=x'],
      ['php', '-r', 'x'],
      ['python3']
    ]) {
      expect(fx(...argv).unknown, argv.join(' ')).toHaveLength(1)
    }
    for (const argv of [
      ['python3', 'build.py'],
      ['python3', '-m', 'pytest'],
      ['node', '-r', 'ts-node/register', 'x.ts'],
      ['node', '--version']
    ]) {
      expect(fx(...argv).unknown, argv.join(' ')).toEqual([])
    }
  })

  it('git archive and format-patch -o write their output', () => {
    expect(fx('git', 'archive', '-o', 'a.zip', 'HEAD').writes).toEqual(['a.zip'])
    expect(fx('git', 'format-patch', '-opatches', 'HEAD~1').writes).toEqual(['patches'])
    expect(fx('git', '-C', 'sub', 'diff', '--output=/tmp/x').writes).toEqual(['/tmp/x'])
  })
})

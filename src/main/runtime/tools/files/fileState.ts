/**
 * One file an agent has read: what it looked like then, so Write/Edit can refuse to overwrite a
 * file the agent has not read, or that changed on disk since (docs/tools.md#tools).
 */
export interface FileStateEntry {
  /** Modification time when read, in ms since the epoch. */
  mtimeMs: number
  /** Size in bytes when read. */
  size: number
  /** True when only part of the file was read (offset/limit). */
  partial: boolean
  /** When it was read, ms since the epoch. */
  readAt: number
}

/**
 * The agent's file-state cache (docs/tools.md#tools, docs/agents.md#context-isolation): canonical absolute path → {@link FileStateEntry}.
 * A subagent starts from a clone of its parent's; changes never flow back.
 */
export class FileStateCache {
  private readonly entries: Map<string, FileStateEntry>

  constructor(entries?: Iterable<[string, FileStateEntry]>) {
    this.entries = new Map(entries)
  }

  get(path: string): FileStateEntry | undefined {
    return this.entries.get(path)
  }

  set(path: string, entry: FileStateEntry): void {
    this.entries.set(path, entry)
  }

  delete(path: string): void {
    this.entries.delete(path)
  }

  /** An independent copy (for a subagent's context). */
  clone(): FileStateCache {
    return new FileStateCache(this.entries)
  }

  /** Releases every entry (agent cleanup, docs/agents.md#cleanup). */
  clear(): void {
    this.entries.clear()
  }

  get size(): number {
    return this.entries.size
  }
}

import { createHash } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import { createFileExclusiveSync } from '../locks'

/** One text cut to fit the context window: where its whole text is kept, and its sizes in characters (UTF-16 units). */
export interface CutText {
  /** The file holding the whole text (UTF-8). */
  file: string
  /** Characters of the whole text. */
  chars: number
  /** Characters kept in the history, before the marker. */
  keptChars: number
}

/**
 * The folder where an agent's cut texts are kept whole: `<transcript without .jsonl>.full-texts/`
 * beside its transcript, so they live and go with the session's other files (docs/storage.md#layout).
 */
export function fullTextDir(transcriptPath: string): string {
  return join(dirname(transcriptPath), `${basename(transcriptPath, '.jsonl')}.full-texts`)
}

/** Estimated tokens of a string as the history carries it: its JSON's UTF-8 bytes / 4. */
function stringTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(JSON.stringify(text)) / 4)
}

/** The longest start of `text` whose estimate is at most `tokens`, never splitting a character. */
function headOf(text: string, tokens: number): string {
  const encoder = new TextEncoder()
  let bytes = tokens * 4
  for (;;) {
    const { read } = encoder.encodeInto(text, new Uint8Array(Math.max(0, bytes)))
    const head = text.slice(0, read)
    // escapes (quotes, newlines, control characters) make the JSON longer than the raw bytes
    if (stringTokens(head) <= tokens || bytes <= 0) return head
    bytes = Math.floor(bytes * 0.75)
  }
}

/**
 * The line that ends a cut text: how long the whole text is, how much is kept, and where the
 * whole text is (the file, and the transcript line it was recorded on before it was cut).
 */
export function cutMarker(cut: CutText, transcriptPath: string): string {
  const n = (value: number) => value.toLocaleString('en-US')
  return (
    `\n\n[Cut by Swarmdesk to fit the model's context window: this text is ${n(cut.chars)} characters and only its first ${n(cut.keptChars)} are above. ` +
    `The whole text is in ${cut.file} (read it in parts with the Read tool's offset and limit); the transcript ${transcriptPath} also records it as it arrived.]`
  )
}

/**
 * Keeps `text` whole in `dir` (named by its SHA-256, so a text cut again after a resume is not
 * written twice) and returns its start, at most `headTokens` estimated tokens, with the
 * {@link cutMarker}.
 * @throws Error from the file system when the whole text cannot be written: nothing is cut then.
 */
function cutOne(text: string, headTokens: number, dir: string, transcriptPath: string, cuts: CutText[]): string {
  const file = join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.txt`)
  mkdirSync(dir, { recursive: true })
  // false when the same text was kept before: the file is never overwritten
  createFileExclusiveSync(file, text)
  const head = headOf(text, headTokens)
  const cut: CutText = { file, chars: text.length, keptChars: head.length }
  cuts.push(cut)
  return head + cutMarker(cut, transcriptPath)
}

/**
 * Cuts every text of `block` (a text block, the texts of a tool_result, the string arguments of
 * a tool_use) whose estimate passes `capTokens` to its first `headTokens`, the whole text kept on
 * disk ({@link cutOne}). Other blocks (images, thinking) are returned unchanged.
 * @returns the block, a new object when something was cut.
 */
export function cutBlock(
  block: ContentBlockParam,
  capTokens: number,
  headTokens: number,
  dir: string,
  transcriptPath: string,
  cuts: CutText[]
): ContentBlockParam {
  const over = (text: string) => text.length * 0.25 > capTokens || stringTokens(text) > capTokens
  if (block.type === 'text' && over(block.text))
    return { ...block, text: cutOne(block.text, headTokens, dir, transcriptPath, cuts) }
  if (block.type === 'tool_use') {
    // a call the model made with a huge argument (a Write of megabytes): the call ran; its history copy is cut
    const before = cuts.length
    const input = cutLeaves(block.input, over, (text) => cutOne(text, headTokens, dir, transcriptPath, cuts))
    return cuts.length === before ? block : { ...block, input }
  }
  if (block.type !== 'tool_result') return block
  const content = block.content
  if (typeof content === 'string')
    return over(content) ? { ...block, content: cutOne(content, headTokens, dir, transcriptPath, cuts) } : block
  if (!Array.isArray(content) || !content.some((part) => part.type === 'text' && over(part.text))) return block
  return {
    ...block,
    content: content.map((part) =>
      part.type === 'text' && over(part.text)
        ? { ...part, text: cutOne(part.text, headTokens, dir, transcriptPath, cuts) }
        : part
    )
  }
}

/** `value` with every string leaf that is `over` replaced by `cut(leaf)`; the same object when none is. */
function cutLeaves(value: unknown, over: (text: string) => boolean, cut: (text: string) => string): unknown {
  if (typeof value === 'string') return over(value) ? cut(value) : value
  if (Array.isArray(value)) return value.map((item) => cutLeaves(item, over, cut))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutLeaves(item, over, cut)]))
}

/** A message's content as blocks (a string content is one text block). */
export function blocksOf(message: MessageParam): ContentBlockParam[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : (message.content as ContentBlockParam[])
}

/**
 * Cuts every oversized text of `messages` ({@link cutBlock}); messages with nothing to cut are
 * returned as they are (the same objects, so their bytes do not change).
 */
export function cutOversized(
  messages: readonly MessageParam[],
  capTokens: number,
  headTokens: number,
  transcriptPath: string,
  cuts: CutText[]
): MessageParam[] {
  const dir = fullTextDir(transcriptPath)
  return messages.map((message) => {
    if (typeof message.content === 'string' && !(stringTokens(message.content) > capTokens)) return message
    const before = cuts.length
    const blocks = blocksOf(message).map((block) => cutBlock(block, capTokens, headTokens, dir, transcriptPath, cuts))
    return cuts.length === before ? message : ({ ...message, content: blocks } as MessageParam)
  })
}

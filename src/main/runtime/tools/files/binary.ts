import { open } from 'node:fs/promises'
import { extname } from 'node:path'

/**
 * Extensions whose files are never text, so Read refuses them and Grep skips them without
 * opening them. Images and PDFs are here too: Read does not render them (docs/tools.md#tools leaves
 * non-text reading out of scope).
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif bmp ico webp tif tiff psd heic avif icns ' +
    'pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'zip gz tgz bz2 xz zst 7z rar tar jar war ear apk dmg iso ' +
    'exe dll so dylib a o obj lib bin class pyc pyo wasm node ' +
    'mp3 mp4 m4a wav ogg flac avi mov mkv webm ' +
    'ttf otf woff woff2 eot sqlite sqlite3 db'
  ).split(' ')
)

/** How many leading bytes are inspected for NUL, like git and ripgrep (8 KB). */
export const BINARY_SNIFF_BYTES = 8192

/** True when the file's extension (case-insensitive) is a known binary one. */
export function hasBinaryExtension(path: string): boolean {
  return BINARY_EXTENSIONS.has(extname(path).slice(1).toLowerCase())
}

/** True when a NUL byte occurs within the first {@link BINARY_SNIFF_BYTES} bytes of `data`. */
export function looksBinary(data: Uint8Array): boolean {
  const end = Math.min(data.length, BINARY_SNIFF_BYTES)
  for (let i = 0; i < end; i++) if (data[i] === 0) return true
  return false
}

/**
 * Reads the first {@link BINARY_SNIFF_BYTES} bytes of a file and applies {@link looksBinary}.
 * @throws the fs error when the file cannot be opened.
 */
export async function sniffBinaryFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0)
    return looksBinary(buffer.subarray(0, bytesRead))
  } finally {
    await handle.close()
  }
}

/**
 * Validation problems in words, per form field (issue 19 item 7: no raw validation JSON is ever
 * shown). zod's `ZodError.message` is the JSON of its issues; a form shows instead each issue's
 * own message beside the field its `path` names, every field's problems at once.
 */

/** The parts of a zod issue (zod 4 `$ZodIssue`) these helpers read. */
export interface IssueLike {
  path: readonly PropertyKey[]
  message: string
}

/** Problems per field: the field's key → its problems in words, in the order found. */
export type FieldIssues = Record<string, string[]>

/** True for a zod validation error (or anything carrying an `issues` list of the same shape). */
export function hasIssues(err: unknown): err is { issues: IssueLike[] } {
  const issues = (err as { issues?: unknown } | null)?.issues
  return (
    Array.isArray(issues) &&
    issues.every(
      (i) =>
        typeof i === 'object' &&
        i !== null &&
        Array.isArray((i as IssueLike).path) &&
        typeof (i as IssueLike).message === 'string'
    )
  )
}

/**
 * Groups `issues` by the form field each is about: `fieldOf` turns an issue's path into a field
 * key (undefined: about the whole form, kept under `''`). A message found twice for one field is
 * kept once.
 */
export function issuesByField(
  issues: readonly IssueLike[],
  fieldOf: (path: readonly PropertyKey[]) => string | undefined = (p) => (p.length ? String(p[0]) : undefined)
): FieldIssues {
  const out: FieldIssues = {}
  for (const issue of issues) {
    const key = fieldOf(issue.path) ?? ''
    const list = (out[key] ??= [])
    if (!list.includes(issue.message)) list.push(issue.message)
  }
  return out
}

/** `subject: give the task a subject; blockedBy.0: …` — issues as one sentence for a place that has no fields to put them beside. */
export function issuesSentence(issues: readonly IssueLike[]): string {
  return issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ')
}

/** Merges problem lists field by field (`a`'s first). */
export function mergeFieldIssues(a: FieldIssues, b: FieldIssues): FieldIssues {
  const out: FieldIssues = { ...a }
  for (const [key, list] of Object.entries(b))
    out[key] = [...(out[key] ?? []), ...list.filter((m) => !out[key]?.includes(m))]
  return out
}

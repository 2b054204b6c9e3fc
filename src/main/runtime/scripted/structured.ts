import { z } from 'zod'

/**
 * Structured output (docs/scenarios.md#structured-output): a request whose `output_config.format`
 * is a JSON schema gets an answer whose text is JSON valid for it, as the API guarantees.
 */

/**
 * Why `text` is not an answer to `schema`, or undefined when it is: it must parse as JSON and
 * validate against the schema (read with zod's `fromJSONSchema`).
 */
export function structuredOutputProblem(text: string, schema: Record<string, unknown>): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return `the scripted text is not JSON: ${JSON.stringify(text.slice(0, 200))}`
  }
  let validator: z.ZodType
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0])
  } catch (error) {
    return `the request's JSON schema cannot be read: ${(error as Error).message}`
  }
  const result = validator.safeParse(value)
  if (result.success) return undefined
  const issue = result.error.issues[0]
  return `the scripted JSON does not match the request's schema at '${issue.path.map(String).join('.') || '(root)'}': ${issue.message}`
}

/**
 * A small value valid for a JSON schema: every required property, the first of an `enum`, a
 * `const`, the first branch of `anyOf`/`oneOf`, the minimum of a number, `minItems` items, and
 * `text` (else "Scripted") for a string. Used where no script answers (Claude Code's title call).
 */
export function exampleForSchema(schema: unknown, text = 'Scripted'): unknown {
  if (schema === null || typeof schema !== 'object') return null
  const s = schema as Record<string, unknown>
  if ('const' in s) return s.const
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0]
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[key]) && s[key].length > 0) return exampleForSchema(s[key][0], text)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>
      const required = Array.isArray(s.required) ? (s.required as string[]) : []
      return Object.fromEntries(required.map((key) => [key, exampleForSchema(properties[key] ?? {}, text)]))
    }
    case 'array': {
      const count = typeof s.minItems === 'number' ? s.minItems : 0
      return Array.from({ length: count }, () => exampleForSchema(s.items ?? {}, text))
    }
    case 'string': {
      const min = typeof s.minLength === 'number' ? s.minLength : 0
      const max = typeof s.maxLength === 'number' ? s.maxLength : Infinity
      return text.padEnd(min, '.').slice(0, max)
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number'
        ? s.minimum
        : typeof s.exclusiveMinimum === 'number'
          ? s.exclusiveMinimum + 1
          : 0
    case 'boolean':
      return false
    case 'null':
      return null
    default:
      return text
  }
}

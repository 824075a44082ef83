/**
 * The JSON Schema keywords every client library checks on a field before sending, so that a value
 * the contract refuses is refused in the caller's own language, naming the field and its bound,
 * with nothing sent. A keyword outside this list is left to the service.
 */
export const checkedKeywords: ReadonlySet<string> = new Set([
  'const',
  'enum',
  'oneOf',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
]);

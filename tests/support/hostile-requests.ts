/**
 * Hostile requests for the property-based tests: bodies nested to 100,000 levels, huge numbers and
 * strings, bytes that are not UTF-8, odd media types, methods and paths. A request is generated as
 * a small recipe and built from it only when sent, so that fast-check prints a counterexample as
 * `{ kind: 'nested', depth: 100000, … }` rather than as a megabyte of brackets.
 */
import fc from 'fast-check';

/** A JSON fragment put where a value goes: described, then written out by `fragmentText`. */
export type Fragment =
  | { kind: 'nested'; depth: number; shape: 'array' | 'object'; closed: boolean }
  | { kind: 'digits'; count: number; sign: '' | '-'; quoted: boolean }
  | { kind: 'exponent'; exponent: number }
  | { kind: 'repeated'; unit: string; times: number }
  | { kind: 'literal'; text: string }
  | { kind: 'json'; value: fc.JsonValue };

/** A whole body: a fragment on its own, a fragment as one member of an otherwise valid request, raw bytes or text. */
export type BodyRecipe =
  | { kind: 'fragment'; fragment: Fragment }
  | { kind: 'member'; name: string; fragment: Fragment }
  | { kind: 'bytes'; bytes: number[] }
  | { kind: 'text'; text: string }
  | { kind: 'none' };

const maximumDepth = 100_000;

export const fragment: fc.Arbitrary<Fragment> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('nested' as const),
      // Most past PHP's 512 levels: where a recursive reader overflows the stack (a few thousand
      // levels, within a 64 KiB body), beyond, and the very deep end.
      depth: fc.oneof(fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1_000, max: 10_000 }), fc.integer({ min: 10_000, max: maximumDepth }), fc.constant(maximumDepth)),
      shape: fc.constantFrom('array' as const, 'object' as const),
      closed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    }),
  },
  fc.record({ kind: fc.constant('digits' as const), count: fc.integer({ min: 1, max: 100_000 }), sign: fc.constantFrom('' as const, '-' as const), quoted: fc.boolean() }),
  fc.record({ kind: fc.constant('exponent' as const), exponent: fc.integer({ min: -100_000, max: 100_000 }) }),
  fc.record({
    kind: fc.constant('repeated' as const),
    unit: fc.constantFrom('a', 'é', '😀', '\\u0000', '\\ud800', '\\"', '%', '<'),
    times: fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 1_000, max: 600_000 })),
  }),
  fc.record({
    kind: fc.constant('literal' as const),
    text: fc.constantFrom('null', 'true', 'false', '0', '-0', '0.5', '1e400', '-1e400', '9007199254740993', '""', '" 1 "', '[]', '{}', '[1]', '{"":1}', 'NaN', '01', '1.', '"\\ud800"', '"\\udc00\\ud800"'),
  }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
);

export function fragmentText(recipe: Fragment): string {
  switch (recipe.kind) {
    case 'nested': {
      const [open, close] = recipe.shape === 'array' ? ['[', ']'] : ['{"a":', '}'];
      const inner = recipe.shape === 'array' ? '' : '1';
      return `${open.repeat(recipe.depth)}${inner}${recipe.closed ? close.repeat(recipe.depth) : ''}`;
    }
    case 'digits': {
      const digits = `${recipe.sign}9${'0'.repeat(recipe.count - 1)}`;
      return recipe.quoted ? `"${digits}"` : digits;
    }
    case 'exponent':
      return `1e${recipe.exponent}`;
    case 'repeated':
      return `"${recipe.unit.repeat(recipe.times)}"`;
    case 'literal':
      return recipe.text;
    case 'json':
      return JSON.stringify(recipe.value) ?? 'null';
  }
}

/** A recipe for a body, given an otherwise valid body and the names of its members (and others) to put a fragment in. */
export function bodyRecipe(memberNames: readonly string[]): fc.Arbitrary<BodyRecipe> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('fragment' as const), fragment }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('member' as const), name: fc.oneof(fc.constantFrom(...memberNames), fc.string({ maxLength: 8 })), fragment }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('text' as const), text: fc.string({ unit: 'binary', maxLength: 64 }) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  );
}

/** The body's bytes: `validBody` is the JSON of a request that would pass, for the `member` recipes. */
export function bodyBytes(recipe: BodyRecipe, validBody: Record<string, unknown>): Buffer {
  switch (recipe.kind) {
    case 'fragment':
      return Buffer.from(fragmentText(recipe.fragment));
    case 'member': {
      const { [recipe.name]: _replaced, ...rest } = validBody;
      const text = JSON.stringify(rest);
      const member = `${JSON.stringify(recipe.name)}:${fragmentText(recipe.fragment)}`;
      return Buffer.from(text === '{}' ? `{${member}}` : `${text.slice(0, -1)},${member}}`);
    }
    case 'bytes':
      return Buffer.from(recipe.bytes);
    case 'text':
      return Buffer.from(recipe.text);
    case 'none':
      return Buffer.alloc(0);
  }
}

/** Media types a client may send, right, odd or wrong; undefined sends none. */
export const mediaType: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/merge-patch+json',
    'application/vnd.api+json',
    'application/json-seq',
    'text/json',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    '',
    ';',
    'application/',
    '/json',
    'application/json; charset=latin1',
    'application/json;;;',
  ),
  fc.string({ maxLength: 30 }),
  fc.constant(undefined),
);

/** Request methods, the usual and the odd. */
export const method: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('POST') },
  { weight: 3, arbitrary: fc.constantFrom('GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'post', 'Post', 'PROPFIND', 'BREW') },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,12}$/) },
);

/** A header value as a client may send it: ASCII without line breaks, or nothing. */
export const headerValue: fc.Arbitrary<string | undefined> = fc.option(fc.stringMatching(/^[\x20-\x7e]{0,40}$/), { nil: undefined });

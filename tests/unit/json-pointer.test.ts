/**
 * The one JSON-pointer codec (RFC 6901) and what reads a document through it: escapes in the
 * order the RFC gives, a `%` that is not an escape kept as written, and a `$ref` cycle named
 * rather than followed until the stack overflows.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { childPointer, decodePointerSegment, encodePointerSegment, pointerFrom, pointerSegments } from '../../src/lib/contract/json-pointer.ts';
import { ContractError, resolvePointer, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { resolveSchema } from '../../src/lib/contract/schemas.ts';

describe('the JSON-pointer codec', () => {
  test('escapes ~ before / and unescapes ~1 before ~0, so that each key comes back as it was', () => {
    assert.equal(encodePointerSegment('/action'), '~1action');
    assert.equal(encodePointerSegment('a~b'), 'a~0b');
    assert.equal(encodePointerSegment('~1'), '~01');
    assert.equal(decodePointerSegment('~01'), '~1');
    assert.equal(decodePointerSegment('~10'), '/0');
    for (const key of ['/action', 'application/json', '~', '~1', '~0~1/', 'plain', '', '100%', 'a%zz', '%E0%A4%A']) {
      assert.equal(decodePointerSegment(encodePointerSegment(key)), key, JSON.stringify(key));
    }
  });

  test('reads the percent-escapes of the URI-fragment form, and a lone % as written instead of throwing', () => {
    assert.equal(decodePointerSegment('application~1json'), 'application/json');
    assert.equal(decodePointerSegment('with%20space'), 'with space');
    assert.equal(decodePointerSegment('caf%C3%A9'), 'café');
    assert.equal(decodePointerSegment('100%'), '100%');
    assert.equal(decodePointerSegment('50%off'), '50%off');
    assert.equal(decodePointerSegment('%E0%A4%A'), '%E0%A4%A', 'an escape that is not UTF-8 stays as written');
  });

  test('splits and builds whole pointers', () => {
    assert.deepEqual(pointerSegments('#/paths/~1action/post'), ['paths', '/action', 'post']);
    assert.deepEqual(pointerSegments('#'), []);
    assert.deepEqual(pointerSegments('#/'), []);
    assert.equal(pointerFrom(['paths', '/action', 'post']), '#/paths/~1action/post');
    assert.equal(pointerFrom(['components', 'schemas', 0]), '#/components/schemas/0');
    assert.equal(childPointer('#/components', 'examples', 'a/b~c'), '#/components/examples/a~1b~0c');
  });
});

function documentWith(schemas: Record<string, unknown>): OpenApiDocument {
  return { openapi: '3.1.0', info: { title: 'test', version: '1.0.0' }, components: { schemas } } as OpenApiDocument;
}

describe('reading a document through pointers', () => {
  test('resolvePointer finds a key with a % in it', () => {
    const document = documentWith({ '100%': { type: 'string' } });
    assert.deepEqual(resolvePointer(document, '#/components/schemas/100%'), { type: 'string' });
  });

  test('resolveSchema names a $ref cycle instead of overflowing the stack', () => {
    const document = documentWith({
      A: { $ref: '#/components/schemas/B' },
      B: { $ref: '#/components/schemas/A' },
    });
    assert.throws(
      () => resolveSchema(document, { $ref: '#/components/schemas/A' }, '#/paths/~1action'),
      (error: unknown) =>
        error instanceof ContractError && /circular reference: #\/components\/schemas\/A → #\/components\/schemas\/B → #\/components\/schemas\/A/.test(error.message),
    );
  });

  test('resolveSchema still follows a chain of references and lays siblings on top', () => {
    const document = documentWith({
      Status: { $ref: '#/components/schemas/Base', description: 'The status.' },
      Base: { type: 'string', description: 'Any string.' },
    });
    const resolved = resolveSchema(document, { $ref: '#/components/schemas/Status', deprecated: true }, '#/x');
    assert.deepEqual(resolved.schema, { type: 'string', description: 'The status.', deprecated: true });
    assert.equal(resolved.pointer, '#/components/schemas/Base');
  });
});

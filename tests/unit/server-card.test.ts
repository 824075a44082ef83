import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { siteConfig } from '../../src/site-config.ts';

// ajv and ajv-formats are CommonJS; `createRequire` gives their constructors without interop guesswork.
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020').default as typeof import('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default as typeof import('ajv-formats').default;

const projectDirectory = path.resolve(import.meta.dirname, '../..');
const cardPath = path.join(projectDirectory, 'public/.well-known/mcp/server-card.json');
const schemaPath = path.join(projectDirectory, 'schemas/mcp-server-card.schema.json');

const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

interface Remote {
  type: string;
  url: string;
  headers?: unknown[];
}
interface Card {
  $schema: string;
  name: string;
  version: string;
  description: string;
  title: string;
  websiteUrl: string;
  remotes: Remote[];
}

function readCard(): Card {
  return JSON.parse(readFileSync(cardPath, 'utf8')) as Card;
}

function problems(card: unknown): string {
  return validate(card) ? '' : ajv.errorsText(validate.errors, { separator: '\n' });
}

describe('the published server card', () => {
  it('follows the MCP Server Card draft and this project’s rules', () => {
    assert.equal(problems(readCard()), '');
  });

  it('points at the product-information server configured in src/site-config.ts, with no headers', () => {
    const card = readCard();
    assert.equal(card.remotes.length, 1);
    const [remote] = card.remotes;
    assert.equal(remote?.type, 'streamable-http');
    assert.equal(remote?.url, siteConfig.mcpUrl);
    assert.equal(remote?.headers, undefined);
  });

  it('sends readers to a page of the configured documentation site', () => {
    const website = new URL(readCard().websiteUrl);
    assert.equal(website.origin, new URL(siteConfig.docsUrl).origin);
    assert.ok(website.pathname.endsWith('/'), 'page URLs end with a slash (trailingSlash: always)');
    const page = path.join(projectDirectory, 'src/content/docs', website.pathname.replace(/\/$/, ''));
    assert.ok(existsSync(`${page}.mdx`) || existsSync(`${page}.md`), `no page at ${website.pathname}`);
  });

  it('is named in the namespace of the publisher’s domain', () => {
    const [namespace = ''] = readCard().name.split('/');
    const publisherDomain = namespace.split('.').reverse().join('.');
    assert.ok(
      new URL(siteConfig.docsUrl).hostname.endsWith(publisherDomain),
      `${namespace} is not the reversed domain of ${siteConfig.docsUrl}`,
    );
  });
});

describe('the server card schema refuses', () => {
  const cases: [string, (card: Card) => void, RegExp][] = [
    ['a description over 100 characters', (card) => (card.description = 'x'.repeat(101)), /description/],
    ['a name without a namespace', (card) => (card.name = 'product-information'), /name/],
    ['a name with two slashes', (card) => (card.name = 'example.shop/product/info'), /name/],
    [
      'a remote with headers',
      (card) => (card.remotes[0] = { ...card.remotes[0]!, headers: [{ name: 'Authorization', isSecret: true }] }),
      /remotes/,
    ],
    ['a remote of an unknown transport', (card) => (card.remotes[0]!.type = 'websocket'), /remotes/],
    ['a dated schema URL', (card) => (card.$schema = 'https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json'), /\$schema/],
    ['a version range', (card) => (card.version = '^1.0.0'), /version/],
    ['a missing version', (card) => delete (card as Partial<Card>).version, /version/],
    ['an unknown top-level field', (card) => Object.assign(card, { tools: [] }), /additional/],
  ];
  for (const [what, change, expected] of cases) {
    it(what, () => {
      const card = readCard();
      change(card);
      assert.match(problems(card), expected);
    });
  }
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { isRecord, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import { readFacts } from '../../src/lib/contract/facts.ts';
import { siteConfig } from '../../src/site-config.ts';
import { bundledDocument, projectDirectory } from '../support/contract-copy.ts';

/**
 * Guides name the API's facts through `<Fact>` and the generated components; they never type
 * them. This test reads the vocabulary of the document (action identifiers, states, field names,
 * error codes, status codes, header names) and fails, naming file and line, wherever a guide
 * types one by hand. Distinctive terms (with `_` or `-`, and status codes) count anywhere;
 * terms that are also English words (`active`, `status`) count only inside code, where they
 * can only mean the identifier.
 */

const docsDirectory = path.join(projectDirectory, 'src/content/docs');

interface Vocabulary {
  /** Term to what it is, e.g. `api_key` to "field name". */
  terms: Map<string, string>;
}

function fieldNames(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) {
    node.forEach((item) => fieldNames(item, names));
    return;
  }
  if (!isRecord(node)) return;
  if (isRecord(node.properties) && (node.type === 'object' || Array.isArray(node.required))) {
    Object.keys(node.properties).forEach((name) => names.add(name));
  }
  Object.values(node).forEach((value) => fieldNames(value, names));
}

function vocabularyOf(document: OpenApiDocument): Vocabulary {
  const facts = readFacts(document);
  const terms = new Map<string, string>();
  const add = (values: Iterable<string>, kind: string) => {
    for (const value of values) if (!terms.has(value)) terms.set(value, kind);
  };
  add(facts.actions, 'action identifier');
  add(facts.states, 'state');
  add(facts.errorCodes, 'error code');
  add([facts.successStatus, ...facts.errorStatuses], 'status code');
  add([facts.retryAfterHeader], 'header name');
  const names = new Set<string>();
  fieldNames(document, names);
  add(names, 'field name');
  return { terms };
}

const hostKind = 'configured host';

function isDistinctive(term: string): boolean {
  return /[_-]/.test(term) || /^\d{3}$/.test(term);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The parts of a line that are code: inside a fence, between backticks, or in `<code>`. */
function codeParts(line: string, inFence: boolean): string[] {
  if (inFence) return [line];
  return [...line.matchAll(/`([^`]+)`|<code>(.*?)<\/code>/g)].map((match) => match[1] ?? match[2] ?? '');
}

interface HandTypedFact {
  line: number;
  term: string;
  kind: string;
}

function findHandTypedFacts(text: string, vocabulary: Vocabulary, hosts: string[] = []): HandTypedFact[] {
  const found: HandTypedFact[] = [];
  let inFence = false;
  text.split('\n').forEach((line, index) => {
    const fence = /^\s*(```|~~~)/.test(line);
    const code = codeParts(line, inFence || fence).join('\n');
    if (fence) inFence = !inFence;
    for (const [term, kind] of vocabulary.terms) {
      const where = isDistinctive(term) ? line : code;
      if (new RegExp(`(?<![A-Za-z0-9_-])${escape(term)}(?![A-Za-z0-9_-])`).test(where)) {
        found.push({ line: index + 1, term, kind });
      }
    }
    for (const host of hosts) {
      if (line.includes(host)) found.push({ line: index + 1, term: host, kind: hostKind });
    }
  });
  return found;
}

function guideFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return guideFiles(full);
    return /\.mdx?$/.test(entry.name) ? [full] : [];
  });
}

let vocabulary: Vocabulary;
const configuredHosts = [new URL(siteConfig.docsUrl).host, new URL(siteConfig.mcpUrl).host];

before(() => {
  vocabulary = vocabularyOf(bundledDocument());
});

describe('hand-written pages', () => {
  it('type no fact of the API and no configured host by hand', () => {
    const problems = guideFiles(docsDirectory).flatMap((file) =>
      findHandTypedFacts(readFileSync(file, 'utf8'), vocabulary, configuredHosts).map(
        ({ line, term, kind }) =>
          `${path.relative(projectDirectory, file)}:${line}: ${kind} "${term}" typed by hand; ${
            kind === hostKind ? 'read it from siteConfig' : 'use <Fact> or a generated component'
          }`,
      ),
    );
    assert.deepEqual(problems, []);
  });
});

describe('the hand-typed fact finder', () => {
  it('knows the document’s vocabulary', () => {
    for (const term of ['api_key', 'pause_subscription', 'on-hold', 'active', '409', 'Retry-After', 'service_invalid_api_key']) {
      assert.ok(vocabulary.terms.has(term), `${term} is missing from the vocabulary`);
    }
  });

  it('finds facts typed into prose and code, with their line', () => {
    const text = [
      '---',
      'title: Example',
      '---',
      'Put the key in `api_key`.',
      'A refused move answers 409.',
      'Then the subscription is on-hold.',
      'Send `active` as the status.',
      '```json',
      '{ "status": "trial" }',
      '```',
      `See ${configuredHosts[1]} for product questions.`,
    ].join('\n');
    const found = findHandTypedFacts(text, vocabulary, configuredHosts).map(({ line, term }) => `${line}:${term}`);
    for (const expected of ['4:api_key', '5:409', '6:on-hold', '7:active', '9:status', '9:trial', `11:${configuredHosts[1]}`]) {
      assert.ok(found.includes(expected), `expected ${expected} in ${found.join(', ')}`);
    }
  });

  it('leaves English words in prose and <Fact> references alone', () => {
    const text = [
      'Pausing keeps an active subscription from renewing; its status changes.',
      'Send the key as <Fact name="credentialField" />, then read <Fact name="changedField" />.',
      'Version 2026 of the calendar, RFC 9110 and a 4040 port are not status codes.',
    ].join('\n');
    assert.deepEqual(findHandTypedFacts(text, vocabulary, configuredHosts), []);
  });
});

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { withInlineHashes } from '../../src/lib/site/content-security-policy.ts';

function hashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

const inlineScript = '\n\tStarlightThemeProvider.updatePickers();\n';
const moduleScript = 'console.log(1)';
const style = '.a{color:red}';

function page(policy: string): string {
  return `<!doctype html><html><head><meta http-equiv="content-security-policy" content="${policy}"><script is:inline>${inlineScript}</script><script type="module" src="/_astro/a.js"></script><script type="module">${moduleScript}</script><style>${style}</style></head><body></body></html>`;
}

function policyOf(html: string): string {
  return /content-security-policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
}

describe('withInlineHashes', () => {
  it('lists the hash of every inline script in script-src and of every style element in style-src-elem, and no other', () => {
    const elsewhere = hashOf('a script of another page');
    const policy = policyOf(
      withInlineHashes(page(`default-src 'none'; script-src 'self' ${hashOf(moduleScript)} ${elsewhere}; style-src 'self'; style-src-elem 'self' ${hashOf('.b{}')}; style-src-attr 'unsafe-inline';`)),
    );
    const directives = new Map(policy.split(';').map((entry) => entry.trim().split(/\s+/)).filter((parts) => parts[0]).map(([name = '', ...sources]) => [name, sources]));
    assert.deepEqual(directives.get('script-src'), ["'self'", hashOf(inlineScript), hashOf(moduleScript)]);
    assert.deepEqual(directives.get('style-src-elem'), ["'self'", hashOf(style)]);
    assert.deepEqual(directives.get('style-src'), ["'self'"]);
    assert.deepEqual(directives.get('style-src-attr'), ["'unsafe-inline'"]);
    assert.ok(!policy.includes('a.js'), 'an external script needs no hash');
  });

  it('leaves a page whose policy already allows everything, or that has no policy, as it is', () => {
    const complete = page(`script-src 'self' ${hashOf(inlineScript)} ${hashOf(moduleScript)}; style-src 'self' ${hashOf(style)};`);
    assert.equal(withInlineHashes(complete), complete);
    const withoutPolicy = '<html><head><script>alert(1)</script></head></html>';
    assert.equal(withInlineHashes(withoutPolicy), withoutPolicy);
  });
});

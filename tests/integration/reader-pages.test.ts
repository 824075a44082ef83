/**
 * What a reader new to the site meets on the built pages: each statement a page owes them, read
 * from dist/ as the host serves it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { toolsDownloadDirectory, toolsTarballName } from '../../src/contract-tools/tools-package.ts';
import { ensureBuiltSite } from '../../src/host/built-site.ts';
import { defaultRetryAfterSeconds } from '../../src/sandbox/host.ts';
import { draftLabel, loadChangelog, versionStatus, versionTitle } from '../../src/lib/releases/changelog.ts';
import { phpFloor, phpFloorPhrase } from '../../src/lib/samples/php-floor.ts';
import { projectDirectory } from '../support/contract-copy.ts';

before(() => ensureBuiltSite(projectDirectory));

function builtPage(page: string): string {
  return readFileSync(path.join(projectDirectory, 'dist', page), 'utf8');
}

/** The page's text without its tags, spaces collapsed. */
function pageText(page: string): string {
  return builtPage(page)
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .replaceAll('&#39;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

test('the errors guide says which PHP the PHP samples and the client run on', () => {
  const text = pageText('errors-and-rate-limits/index.html');
  assert.ok(text.includes(`runs on ${phpFloorPhrase} (${phpFloor.reason})`), `the errors guide names ${phpFloorPhrase}`);
});

test('the not-found page carries no notice that it is a draft', () => {
  const text = pageText('404.html');
  assert.match(text, /Page not found/);
  assert.doesNotMatch(text, /draft/i);
});

test('every page that offers the contract tools links their download, named with its version and, for a draft, as a draft', () => {
  const { described } = versionStatus(loadChangelog());
  const tarball = toolsTarballName(described.version);
  assert.ok(existsSync(path.join(projectDirectory, 'dist', toolsDownloadDirectory, tarball)), `dist/ holds ${tarball}`);
  for (const page of ['sandbox/index.html', 'conformance/index.html', 'errors-and-rate-limits/index.html']) {
    const html = builtPage(page);
    assert.ok(html.includes(`<a href="/${toolsDownloadDirectory}/${tarball}" download>${tarball}</a>`), `${page} links ${tarball}`);
    const text = pageText(page);
    assert.ok(text.includes(`The package: ${tarball}, version ${versionTitle(described)} of the contract it carries.`), `${page} names the package's version as the changelog does`);
    if (!described.released) assert.ok(text.includes(`${described.version} (${draftLabel})`), `${page} says ${described.version} is a draft where it offers it`);
  }
});

test("the sandbox guide and the errors guide give the throttle's default Retry-After that the command and the panel use", () => {
  assert.ok(pageText('sandbox/index.html').includes(`sets the wait they give (${defaultRetryAfterSeconds} s unless told`));
  assert.match(pageText('errors-and-rate-limits/index.html'), new RegExp(`each with Retry-After: ${defaultRetryAfterSeconds};`));
});

/**
 * Version 1 may add actions (rule 9.4): a copy of the project with 50 actions (past the twelve
 * that lists show item by item, src/lib/site/long-lists.ts) is built by the real `astro build`,
 * with its page-elements guard. Every page keeps under the bound, and the pages that list every
 * action still reach each one by a link and still give each lifecycle fact. `npm run bench:scale`
 * measures 200.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { copyBuildableProject, type ProjectCopy } from '../../src/bench/project-copy.ts';
import { addActions, spreadCopies } from '../../src/bench/scaled-contract.ts';
import { builtPageElements, overBoundMessage, pageElementBound } from '../../src/lib/site/page-elements.ts';
import { actionPagePath, endpointPagePath, referenceIndexPath } from '../../src/lib/site/navigation.ts';
import { projectDirectory } from '../support/contract-copy.ts';

const actionCount = 50;

describe(`the site of a contract grown to ${actionCount} actions`, { timeout: 900_000 }, () => {
  let copy: ProjectCopy;
  let actions: string[];
  const page = (urlPath: string): string => readFileSync(path.join(copy.directory, 'dist', urlPath, 'index.html'), 'utf8');
  const links = (html: string): Set<string> => new Set([...html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/g)].map((match) => match[1] ?? ''));
  /** The part of a page from the element that opens with `opening` to the close of its table or list. */
  const part = (html: string, opening: string, closing: string): string => {
    const start = html.indexOf(opening);
    assert.ok(start >= 0, `the page has ${opening}`);
    return html.slice(start, html.indexOf(closing, start));
  };

  before(() => {
    copy = copyBuildableProject(projectDirectory, 'scale-pages-');
    const added = spreadCopies(copy.directory, actionCount - 8);
    addActions(copy.directory, added);
    const original = ['cancel_subscription', 'pause_subscription', 'resume_subscription', 'reactivate_subscription', 'expire_subscription', 'change_status', 'trial_end', 'payment_failed'];
    actions = [...original, ...added.map((action) => action.identifier)];
    const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build'], {
      cwd: copy.directory,
      encoding: 'utf8',
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(build.status, 0, `astro build refused the copy:\n${build.stdout.slice(-4000)}\n${build.stderr.slice(-4000)}`);
  });

  after(() => copy?.remove());

  test(`every page has at most ${pageElementBound} elements`, () => {
    const pages = builtPageElements(path.join(copy.directory, 'dist'));
    assert.ok(pages.filter(({ page }) => page.startsWith('reference/actions/')).length >= actionCount, 'a page for each action was counted');
    assert.deepEqual(pages.filter(({ elements }) => elements > pageElementBound).map((over) => overBoundMessage(over)), []);
  });

  test('the endpoint page, the reference index and the home page link every action', () => {
    for (const urlPath of [endpointPagePath, referenceIndexPath, '/']) {
      const linked = links(page(urlPath));
      const missing = actions.filter((action) => !linked.has(actionPagePath(action)));
      assert.deepEqual(missing, [], `${urlPath} links every action`);
    }
  });

  test('the endpoint page gives every value of the action field', () => {
    const values = [...page(endpointPagePath).matchAll(/<samp class="values\b[^>]*>([^<]*)<\/samp>/g)].map((match) => (match[1] ?? '').split(', '));
    assert.ok(values.length > 0, 'a long enum is written as one run of values');
    assert.ok(values.some((list) => actions.every((action) => list.includes(action))), 'one list has every action');
  });

  test('the states guide links every action in its transition table, and its refusal table names each', () => {
    const html = page('/states-and-transitions/');
    const transitions = part(html, '<table class="transition-table"', '</table>');
    const linked = links(transitions);
    assert.deepEqual(actions.filter((action) => !linked.has(actionPagePath(action))), [], 'the transition table links every action');
    assert.ok(!transitions.includes('data-action="'), 'actions that move alike share a row');
    const refusals = part(html, '<table class="allowed-actions"', '</table>');
    const named = new Set([...refusals.matchAll(/<samp class="action-names\b[^>]*>([^<]*)<\/samp>/g)].flatMap((match) => (match[1] ?? '').split(', ')));
    // change_status and the copies of fixed actions each change some status, so each is in some row.
    assert.deepEqual(actions.filter((action) => !named.has(action)), [], 'the refusal table names every action under some status');
  });
});

/**
 * Version 1 may add actions (rule 9.4): a copy of the project with 200 more actions (far past the
 * twelve that lists show item by item, src/lib/site/long-lists.ts) is built by the real `astro
 * build`, with its page-elements guard. Every page of the built site keeps under the bound, each
 * page the sitemap lists among them, so a page added later is held to it without a line here; and
 * the pages that list every action, workflow or seeded subscription still give each one.
 * `npm run bench:scale` measures how the build grows.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { copyBuildableProject, type ProjectCopy } from '../../src/bench/project-copy.ts';
import { addActions, spreadCopies } from '../../src/bench/scaled-contract.ts';
import { loadBundledDocument } from '../../src/lib/contract/document.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { builtPageElements, overBoundMessage, pageElementBound } from '../../src/lib/site/page-elements.ts';
import { actionPagePath, endpointPagePath, referenceIndexPath } from '../../src/lib/site/navigation.ts';
import { planWorkflows, workflowSubscriptions } from '../../src/lib/workflows/workflow-plan.ts';
import { sandboxSeed } from '../../src/sandbox/seed.ts';
import { projectDirectory } from '../support/contract-copy.ts';

/** How many actions the copy gains: the number the page-elements bound is promised for. */
const addedCount = 200;

describe(`the site of a contract grown by ${addedCount} actions`, { timeout: 900_000 }, () => {
  let copy: ProjectCopy;
  let actions: string[];
  /** The copy's contract, as its build read it. */
  let grown: ExecutableContract;
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
    const added = spreadCopies(copy.directory, addedCount);
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
    grown = readExecutableContract(loadBundledDocument(path.join(copy.directory, '.generated', 'openapi', 'v1.json')));
  });

  after(() => copy?.remove());

  test(`every page of the built site has at most ${pageElementBound} elements`, () => {
    const distDirectory = path.join(copy.directory, 'dist');
    const pages = builtPageElements(distDirectory);
    assert.equal(grown.model.actions.length, actions.length, 'the build read the grown contract');
    assert.ok(pages.filter(({ page }) => page.startsWith('reference/actions/')).length >= actions.length, 'a page for each action was counted');
    // Every page the sitemap lists was counted: the count reads the built folder, not a list of pages.
    const counted = new Set(pages.map(({ page }) => `/${page.split(path.sep).join('/')}`));
    const sitemap = readFileSync(path.join(distDirectory, 'sitemap-0.xml'), 'utf8');
    const listed = [...sitemap.matchAll(/<loc>[a-z]+:\/\/[^/<]+(\/[^<]*)<\/loc>/g)].map((match) => `${match[1] ?? '/'}index.html`);
    assert.ok(listed.length > actions.length, 'the sitemap lists the pages');
    assert.deepEqual(listed.filter((page) => !counted.has(page)), [], 'every page of the sitemap was counted');
    assert.deepEqual(pages.filter(({ elements }) => elements > pageElementBound).map((over) => overBoundMessage(over)), []);
  });

  test('the workflows guide names every workflow, with the subscription a new sandbox holds for it', () => {
    const html = page('/workflows/').replace(/<wbr>/g, '');
    const textOf = (fragment: string): string => fragment.replace(/<[^>]+>/g, '');
    // A workflow is named in a run of names as `id (subscription…)`, or has an item of its own that ends with its subscription.
    const named = new Set([...html.matchAll(/<samp class="workflow-names"[^>]*>([^<]*)<\/samp>/g)].flatMap((match) => [...(match[1] ?? '').matchAll(/(?:^|, )(\w+) \((\d+)/g)].map((name) => `${name[1]} ${name[2]}`)));
    for (const item of html.matchAll(/<li\b[^>]*>([\s\S]*?)<\/li>/g)) {
      const found = /^\s*(\w+):[\s\S]*a new sandbox's is (\d+)\./.exec(textOf(item[1] ?? ''));
      if (found) named.add(`${found[1]} ${found[2]}`);
    }
    const workflows = planWorkflows(grown);
    assert.ok(workflows.length > actions.length, 'a workflow per action, and more');
    const missing = workflowSubscriptions(grown, workflows).filter(({ workflowId, id }) => !named.has(`${workflowId} ${id}`)).map(({ workflowId }) => workflowId);
    assert.deepEqual(missing, [], 'each workflow is named beside its subscription');
  });

  test('the sandbox guide gives every subscription a new sandbox holds, under its status', () => {
    const html = page('/sandbox/');
    const table = part(html, '<table class="subscriptions-by-status"', '</table>');
    const shown = new Map<string, Set<string>>();
    for (const row of table.matchAll(/<tr data-status="([^"]+)"[\s\S]*?<samp class="subscription-ids"[^>]*>([^<]*)<\/samp>/g)) {
      shown.set(row[1] ?? '', new Set((row[2] ?? '').split(', ')));
    }
    const missing = sandboxSeed(grown).filter(({ id, status }) => !shown.get(status)?.has(String(id)));
    assert.deepEqual(missing, [], 'every subscription of the seed is in the row of its status');
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

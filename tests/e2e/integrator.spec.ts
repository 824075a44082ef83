import { expect, test } from '@playwright/test';
import { dereference, isRecord } from '../../src/lib/contract/document.ts';
import { expectedDocument } from './support/contract.ts';

/**
 * What an integrator reads on the built site agrees with the document: the lifecycle table puts
 * each action's sources and targets in their own columns, the one truth about `Retry-After`, and
 * the endpoint page says what the API does not have.
 */

type JsonRecord = Record<string, unknown>;

function record(value: unknown, where: string): JsonRecord {
  const resolved = dereference<unknown>(expectedDocument, value);
  if (!isRecord(resolved)) throw new Error(`${where} is not an object in the bundled document`);
  return resolved;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Each action's sources and targets, straight from `x-transitions`. */
function transitionsByAction(): Map<string, { from: string[]; to: string[]; field?: string }> {
  const table = record((expectedDocument as unknown as JsonRecord)['x-transitions'], 'x-transitions');
  const result = new Map<string, { from: string[]; to: string[]; field?: string }>();
  for (const [action, raw] of Object.entries(record(table.actions, 'x-transitions/actions'))) {
    const entry = record(raw, action);
    if (isRecord(entry.moves) && typeof entry.toField === 'string') {
      result.set(action, { from: Object.keys(entry.moves), to: [...new Set(Object.values(entry.moves).flatMap(strings))], field: entry.toField });
    } else {
      result.set(action, { from: strings(entry.from), to: typeof entry.to === 'string' ? [entry.to] : [] });
    }
  }
  return result;
}

/** The `Retry-After` header of the throttled response, as the document declares it. */
function retryAfter(): JsonRecord {
  for (const pathItem of Object.values(expectedDocument.paths ?? {})) {
    for (const operation of Object.values(record(pathItem, 'path item'))) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue;
      for (const response of Object.values(operation.responses)) {
        const headers = record(response, 'response').headers;
        if (isRecord(headers) && headers['Retry-After'] !== undefined) return record(headers['Retry-After'], 'Retry-After');
      }
    }
  }
  throw new Error('No response declares Retry-After');
}

test('the states page lists where each action is accepted from and where it leads, each in its own column', async ({ page }) => {
  await page.goto('/states-and-transitions/');
  const table = page.locator('table.transition-table');
  const headers = await table.locator('thead th').allTextContents();
  const acceptedColumn = headers.indexOf('Accepted from');
  const leadsColumn = headers.indexOf('Leads to');
  expect(acceptedColumn).toBeGreaterThan(0);
  expect(leadsColumn).toBeGreaterThan(acceptedColumn);
  for (const [action, { from, to, field }] of transitionsByAction()) {
    const cells = table.locator(`tr[data-action="${action}"] > *`);
    await expect(cells, `${action} has a cell per column`).toHaveCount(headers.length);
    const codes = async (column: number): Promise<string[]> => cells.nth(column).locator('code').allTextContents();
    const accepted = await codes(acceptedColumn);
    const leads = await codes(leadsColumn);
    expect.soft(accepted.toSorted(), `${action}: Accepted from`).toEqual(from.toSorted());
    // An action whose target a request field chooses names that field before the targets.
    expect.soft(leads.filter((text) => text !== field).toSorted(), `${action}: Leads to`).toEqual(to.toSorted());
    if (field !== undefined) expect.soft(leads, `${action} names ${field}`).toContain(field);
  }
});

test('Retry-After: the endpoint page says it is always sent exactly when the document requires it', async ({ page }) => {
  const required = retryAfter().required === true;
  await page.goto('/reference/endpoint/');
  const row = page.locator('table.responses tr[data-status="429"]');
  await expect(row).toContainText('Retry-After');
  if (required) await expect(row).toContainText('always sent');
  else await expect(row).not.toContainText('always sent');
});

test('the endpoint page says what the API does not have', async ({ page }) => {
  await page.goto('/reference/endpoint/');
  const heading = page.locator('h2#not-in-this-api');
  await expect(heading).toHaveText('What this API does not have');
  const list = page.locator('ul.not-in-this-api');
  for (const missing of ['No read operation.', 'No list or search.', 'No events or webhooks.', 'No batch.']) {
    await expect.soft(list, missing).toContainText(missing);
  }
  // The table of contents reaches it, as it reaches every section of the page.
  await expect(page.locator('starlight-toc a[href="#not-in-this-api"]').first()).toBeAttached();
});

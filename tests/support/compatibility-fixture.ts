import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { writeClientSurfaceRecord } from '../../src/clients/surface/surfaces.ts';
import { checkCompatibility, type CompatibilityReport } from '../../src/gate/compatibility.ts';
import { bundleContract, contractRoot } from '../../src/lib/contract/bundle.ts';
import { asOpenApiDocument, isRecord } from '../../src/lib/contract/document.ts';
import { formatVersion, nextMinorVersion, parseVersion, readReleases, releasesDirectory, snapshotFile, type Version } from '../../src/lib/releases/releases.ts';
import type { ContractCopy } from './contract-copy.ts';

type YamlMap = Record<string, unknown>;

/** Sets `info.version` of a copy of the contract (the copy holds `openapi/releases/` too). */
export function setVersion(copy: ContractCopy, version: string): void {
  const text = copy.read(contractRoot);
  const pattern = /^ {2}version: .*$/m;
  if (!pattern.test(text)) throw new Error(`${contractRoot} has no info.version line`);
  copy.write(contractRoot, text.replace(pattern, `  version: ${version}`));
}

/** The versions a test of an additive edit speaks of: the copy's release, and the ones above it. */
export interface Baseline {
  released: string;
  nextPatch: string;
  nextMinor: string;
}

/**
 * Releases the copy as it is, the way `npm run release` would (its bundle becomes the newest
 * snapshot, beside the record of its client libraries), unless its version is released already. An edit made afterwards is then measured
 * against the contract of today, whatever the latest real release is.
 */
export function releaseAsIs(copy: ContractCopy): Baseline {
  const bundle = bundleContract(copy.directory, contractRoot, '.generated/release');
  const document = asOpenApiDocument(bundle.document, bundle.jsonPath);
  const version = document.info.version;
  if (!readReleases(copy.directory).some((release) => release.version === version)) {
    copyFileSync(bundle.jsonPath, path.join(copy.directory, snapshotFile(version)));
    writeClientSurfaceRecord(copy.directory, version, document, snapshotFile(version));
    const index = `${releasesDirectory}/releases.yaml`;
    copy.write(index, `${copy.read(index)}  - version: "${version}"\n    date: "2026-12-01"\n`);
  }
  const parsed = parseVersion(version) as Version;
  return {
    released: version,
    nextPatch: formatVersion({ ...parsed, patch: parsed.patch + 1 }),
    nextMinor: formatVersion(nextMinorVersion(parsed)),
  };
}

/** Bundles a copy with Redocly, as the gate does, and runs the compatibility step on it. */
export function checkCopy(copy: ContractCopy): CompatibilityReport {
  const bundle = bundleContract(copy.directory, contractRoot, '.generated/lint');
  return checkCompatibility({
    projectDirectory: copy.directory,
    root: contractRoot,
    document: asOpenApiDocument(bundle.document, bundle.jsonPath),
    bundlePath: bundle.jsonPath,
    format: 'stylish',
  });
}

function record(value: unknown, what: string): YamlMap {
  if (!isRecord(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

function strings(value: unknown, what: string): string[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value as string[];
}

const schemas = 'openapi/components/schemas';

/** An edit of the contract that must fail the step, and what its message must name. */
export interface BreakingEdit {
  name: string;
  apply(copy: ContractCopy): void;
  /** Every pattern must appear in one of the step's messages. */
  names: RegExp[];
}

export const breakingEdits: BreakingEdit[] = [
  {
    name: 'a new required request field',
    apply: (copy) =>
      copy.editYaml(`${schemas}/PauseSubscriptionRequest.yaml`, (schema) => {
        strings(schema.required, 'required').push('reason');
        record(schema.properties, 'properties').reason = { type: 'string', description: 'Why the subscription is paused.' };
      }),
    names: [/became required: `reason`/, /pause_subscription/],
  },
  {
    name: 'a removed request field',
    apply: (copy) =>
      copy.editYaml(`${schemas}/PauseSubscriptionRequest.yaml`, (schema) => {
        delete record(schema.properties, 'properties').note;
      }),
    names: [/Property `note` of `pause_subscription` was removed/],
  },
  {
    name: 'a removed action',
    apply: (copy) => {
      copy.editYaml('openapi/components/requestBodies/ActionRequest.yaml', (body) => {
        const media = record(record(body.content, 'content')['application/json'], 'media type');
        const schema = record(media.schema, 'schema');
        schema.oneOf = (schema.oneOf as { $ref: string }[]).filter((branch) => !branch.$ref.includes('TrialEndRequest'));
        delete record(record(schema.discriminator, 'discriminator').mapping, 'mapping').trial_end;
        delete record(media.examples, 'examples').trial_end;
      });
      copy.editYaml('openapi/components/responses/ActionSucceeded.yaml', (response) => {
        delete record(record(record(response.content, 'content')['application/json'], 'media type').examples, 'examples').trial_end;
      });
      copy.editYaml(`${schemas}/ActionName.yaml`, (schema) => {
        schema.examples = strings(schema.examples, 'examples').filter((value) => value !== 'trial_end');
      });
      copy.editYaml('openapi/components/transitions.yaml', (table) => {
        delete record(table.actions, 'actions').trial_end;
      });
    },
    names: [/Action `trial_end` was removed/],
  },
  {
    name: 'a changed type',
    apply: (copy) =>
      copy.editYaml(`${schemas}/SubscriptionId.yaml`, (schema) => {
        schema.type = 'string';
        delete schema.minimum;
      }),
    // Redocly names the schema; the message adds where a client meets it.
    names: [/Type of `subscription_id` .*'integer' to 'string' \(field `subscription_id` for `\w+`, field `subscription_id` for `\w+` and \d+ more\)/],
  },
  {
    name: 'a removed enum value',
    apply: (copy) =>
      copy.editYaml(`${schemas}/SubscriptionStatus.yaml`, (schema) => {
        schema.enum = strings(schema.enum, 'enum').filter((value) => value !== 'pending');
      }),
    names: [/`SubscriptionStatus` lost values: 'pending'/],
  },
  {
    name: 'a removed response field',
    apply: (copy) =>
      copy.editYaml(`${schemas}/ActionResult.yaml`, (schema) => {
        delete record(schema.properties, 'properties').previous_status;
        schema.required = strings(schema.required, 'required').filter((name) => name !== 'previous_status');
      }),
    names: [/Property `previous_status` of `ActionResult` was removed/],
  },
  {
    name: 'a changed path',
    apply: (copy) => copy.replace('openapi/openapi.yaml', '  /action:', '  /actions:'),
    names: [/Path `\/action` was renamed to `\/actions`/],
  },
  {
    name: 'a changed method',
    apply: (copy) => copy.replace('openapi/paths/action.yaml', 'post:\n  operationId:', 'put:\n  operationId:'),
    names: [/Operation `POST \/action` was removed/],
  },
  {
    name: 'a new value in a response enum that is not an action (a new subscription status)',
    apply: (copy) =>
      copy.editYaml(`${schemas}/SubscriptionStatus.yaml`, (schema) => {
        strings(schema.enum, 'enum').push('suspended');
      }),
    names: [/`SubscriptionStatus` gained values: 'suspended'/],
  },
  {
    name: 'a narrower lifecycle table (an action accepts fewer statuses)',
    apply: (copy) =>
      copy.editYaml('openapi/components/transitions.yaml', (table) => {
        const cancel = record(record(table.actions, 'actions').cancel_subscription, 'cancel_subscription');
        cancel.from = strings(cancel.from, 'from').filter((state) => state !== 'pending');
      }),
    names: [/`cancel_subscription` no longer applies to subscriptions that are `pending`/],
  },
];

/** An edit that only adds to the contract: it passes with a new minor version, and fails without. */
export interface AdditiveEdit {
  name: string;
  apply(copy: ContractCopy): void;
  /** How the version message must name the change. */
  named: RegExp;
}

/** A ninth action, written the way the eight are: schema, branch, mapping, identifier, table, examples. */
function addRenewAction(copy: ContractCopy): void {
  copy.write(
    `${schemas}/RenewSubscriptionRequest.yaml`,
    stringify({
      title: 'Renew a subscription now',
      description: 'Starts the next paid period of an active subscription at once.\n',
      type: 'object',
      additionalProperties: false,
      required: ['api_key', 'action', 'subscription_id'],
      properties: {
        api_key: { $ref: './ApiKey.yaml' },
        action: { type: 'string', const: 'renew_subscription', description: 'Selects this action.' },
        subscription_id: { $ref: './SubscriptionId.yaml' },
        note: { $ref: './Note.yaml' },
      },
    }),
  );
  copy.write(
    'openapi/components/examples/RenewSubscriptionRequest.yaml',
    stringify({ summary: 'Renew subscription 4711 now', value: { api_key: '<API_KEY>', action: 'renew_subscription', subscription_id: 4711 } }),
  );
  copy.write(
    'openapi/components/examples/RenewSubscriptionResult.yaml',
    stringify({
      summary: 'Subscription 4711 was renewed',
      value: { success: true, action: 'renew_subscription', subscription_id: 4711, previous_status: 'active', status: 'active', changed: false },
    }),
  );
  copy.editYaml('openapi/components/requestBodies/ActionRequest.yaml', (body) => {
    const media = record(record(body.content, 'content')['application/json'], 'media type');
    const schema = record(media.schema, 'schema');
    (schema.oneOf as unknown[]).push({ $ref: '../schemas/RenewSubscriptionRequest.yaml' });
    record(record(schema.discriminator, 'discriminator').mapping, 'mapping').renew_subscription = '../schemas/RenewSubscriptionRequest.yaml';
    record(media.examples, 'examples').renew_subscription = { $ref: '../examples/RenewSubscriptionRequest.yaml' };
  });
  copy.editYaml('openapi/components/responses/ActionSucceeded.yaml', (response) => {
    const examples = record(record(record(response.content, 'content')['application/json'], 'media type').examples, 'examples');
    examples.renew_subscription = { $ref: '../examples/RenewSubscriptionResult.yaml' };
  });
  copy.editYaml(`${schemas}/ActionName.yaml`, (schema) => {
    strings(schema.examples, 'examples').push('renew_subscription');
  });
  copy.editYaml('openapi/components/transitions.yaml', (table) => {
    record(table.actions, 'actions').renew_subscription = { from: ['active'], to: 'active' };
  });
}

export const additiveEdits: AdditiveEdit[] = [
  {
    name: 'a new optional request field',
    apply: (copy) =>
      copy.editYaml(`${schemas}/PauseSubscriptionRequest.yaml`, (schema) => {
        record(schema.properties, 'properties').resume_on = {
          type: 'string',
          format: 'date',
          description: 'Day on which the subscription resumes by itself.',
        };
      }),
    named: /New optional field `resume_on` for `pause_subscription`/,
  },
  {
    name: 'a new action',
    apply: addRenewAction,
    named: /New action `renew_subscription`: Renew a subscription now/,
  },
  {
    name: 'a new optional response field',
    apply: (copy) =>
      copy.editYaml(`${schemas}/ActionResult.yaml`, (schema) => {
        record(schema.properties, 'properties').next_payment_date = {
          type: 'string',
          format: 'date',
          description: 'Day of the next renewal payment, when one is scheduled.',
        };
      }),
    named: /New optional field `next_payment_date` in the `200` response/,
  },
  {
    name: 'a wider lifecycle table (an action accepts one more status), which Redocly does not compare',
    apply: (copy) =>
      copy.editYaml('openapi/components/transitions.yaml', (table) => {
        const reactivate = record(record(table.actions, 'actions').reactivate_subscription, 'reactivate_subscription');
        strings(reactivate.from, 'from').push('on-hold');
      }),
    named: /Action `reactivate_subscription` now also applies to subscriptions that are `on-hold`/,
  },
  {
    name: 'a looser limit in a request (a longer note), which Redocly rates a patch',
    apply: (copy) =>
      copy.editYaml(`${schemas}/Note.yaml`, (schema) => {
        schema.maxLength = Number(schema.maxLength) * 2;
      }),
    // One sentence for every action whose request takes a note.
    named: /`maxLength` of field `note` for (`\w+`, )+and `\w+` is now `\d+` \(was `\d+`\)/,
  },
  {
    name: 'a new example',
    apply: (copy) =>
      copy.editYaml('openapi/components/responses/TransitionNotAllowed.yaml', (response) => {
        record(record(record(response.content, 'content')['application/json'], 'media type').examples, 'examples').cancelled_cannot_be_paused = {
          summary: 'A cancelled subscription cannot be paused',
          value: {
            code: 'service_transition_not_allowed',
            message: 'pause_subscription does not apply to a subscription that is cancelled.',
            data: { status: 409, current_status: 'cancelled', allowed_actions: ['reactivate_subscription', 'change_status'] },
          },
        };
      }),
    named: /New example `cancelled_cannot_be_paused` of the `409` response/,
  },
];

import { buildChangelog } from '../../src/lib/releases/changelog.ts';
import { rateRevision } from '../../src/gate/compatibility.ts';
import { dereference, isRecord, type OpenApiDocument } from '../../src/lib/contract/document.ts';
import type { RuleCheck } from './rule-check.ts';

type Mapping = Record<string, unknown>;

function schemas(document: OpenApiDocument): Mapping {
  const found = document.components?.schemas;
  if (!isRecord(found)) throw new Error('the bundled contract has no component schemas');
  return found as Mapping;
}

function schema(document: OpenApiDocument, name: string): Mapping {
  const found = schemas(document)[name];
  if (!isRecord(found)) throw new Error(`the bundled contract has no schema ${name}`);
  return found;
}

/** The JSON request schema: the `oneOf` of the actions and its discriminator. */
function requestSchema(document: OpenApiDocument): Mapping {
  const body = dereference<unknown>(document, document.paths?.['/action']?.post?.requestBody);
  const content = isRecord(body) && isRecord(body.content) ? body.content['application/json'] : undefined;
  const schema = isRecord(content) ? content.schema : undefined;
  if (!isRecord(schema) || !Array.isArray(schema.oneOf)) throw new Error('the request body has no oneOf of actions');
  return schema;
}

function requestBranches(document: OpenApiDocument): Mapping[] {
  return (requestSchema(document).oneOf as unknown[]).map((branch) => dereference(document, branch) as Mapping);
}

/** A revision of the current contract, and the impact the gate must give it against the current one. */
interface Revision {
  what: string;
  edit(document: OpenApiDocument): void;
  /** `major` must be refused inside v1; `minor` must be let through as an addition. */
  expected: 'major' | 'minor';
}

/** The impact the gate's one judge of breaking changes (Redocly's diff, src/gate/compatibility.ts) gives the revision. */
function impactOf(projectDirectory: string, document: OpenApiDocument, revision: Revision): string {
  const revised = structuredClone(document);
  revision.edit(revised);
  return rateRevision(projectDirectory, document, revised) ?? 'none';
}

function revisionCheck(rule: RuleCheck['rule'], name: string, revisions: Revision[]): RuleCheck {
  return {
    rule,
    name,
    run({ projectDirectory, document }) {
      return revisions.flatMap((revision) => {
        const impact = impactOf(projectDirectory, document, revision);
        return impact === revision.expected ? [] : [`the compatibility check rates ${revision.what} as ${impact}, not ${revision.expected}`];
      });
    },
  };
}

const droppedAction: Revision = {
  what: 'a dropped action',
  expected: 'major',
  edit: (document) => {
    const request = requestSchema(document);
    const [dropped] = requestBranches(document);
    request.oneOf = (request.oneOf as unknown[]).slice(1);
    const discriminator = request.discriminator as Mapping | undefined;
    const identifier = String(((dropped?.properties as Mapping).action as Mapping).const);
    if (isRecord(discriminator?.mapping)) delete discriminator.mapping[identifier];
  },
};

const newRequiredField: Revision = {
  what: 'a new required request field',
  expected: 'major',
  edit: (document) => {
    const branch = requestBranches(document)[0] as Mapping;
    (branch.properties as Mapping).reason = { type: 'string' };
    branch.required = [...(branch.required as string[]), 'reason'];
  },
};

const retypedResponseField: Revision = {
  what: 'a response field whose type changes',
  expected: 'major',
  edit: (document) => {
    const result = schema(document, 'ActionResult');
    (result.properties as Mapping).subscription_id = { type: 'string' };
  },
};

const removedResponseField: Revision = {
  what: 'a response field removed',
  expected: 'major',
  edit: (document) => {
    const result = schema(document, 'ActionResult');
    delete (result.properties as Mapping).previous_status;
    result.required = (result.required as string[]).filter((field) => field !== 'previous_status');
  },
};

const newOptionalField: Revision = {
  what: 'a new optional request field',
  expected: 'minor',
  edit: (document) => {
    const branch = requestBranches(document)[0] as Mapping;
    (branch.properties as Mapping).reason = { type: 'string', maxLength: 200 };
  },
};

const newAction: Revision = {
  what: 'a new action',
  expected: 'minor',
  edit: (document) => {
    const added = structuredClone(requestBranches(document)[0] as Mapping);
    ((added.properties as Mapping).action as Mapping).const = 'extend_trial';
    schemas(document).ExtendTrialRequest = added;
    const request = requestSchema(document);
    request.oneOf = [...(request.oneOf as unknown[]), { $ref: '#/components/schemas/ExtendTrialRequest' }];
    const discriminator = request.discriminator as Mapping | undefined;
    if (isRecord(discriminator?.mapping)) discriminator.mapping.extend_trial = '#/components/schemas/ExtendTrialRequest';
  },
};

export const versioningRuleChecks: RuleCheck[] = [
  revisionCheck('9.2', 'the compatibility check refuses a breaking change inside v1 (a dropped action, a new required field)', [droppedAction, newRequiredField]),
  revisionCheck('9.3', 'the compatibility check refuses a change of a request or response shape inside v1', [retypedResponseField, removedResponseField, newRequiredField]),
  revisionCheck('9.4', 'the compatibility check lets additions through: a new action, a new optional field', [newAction, newOptionalField]),
  {
    rule: '9.5',
    name: 'the changelog lists a field or an action as soon as it is marked deprecated',
    run({ projectDirectory, document }) {
      const revised = structuredClone(document);
      const branch = requestBranches(revised)[0] as Mapping;
      const action = String(((branch.properties as Mapping).action as Mapping).const);
      branch.deprecated = true;
      ((requestBranches(revised)[1] as Mapping).properties as Mapping).note = { ...(((requestBranches(revised)[1] as Mapping).properties as Mapping).note as Mapping), deprecated: true };
      const [major = 1, minor = 0] = revised.info.version.split('.').map(Number);
      revised.info.version = `${major}.${minor + 50}.0`;
      const changelog = buildChangelog({ projectDirectory, current: revised });
      const listed = changelog.deprecated.filter((item) => item.since === revised.info.version);
      const newest = changelog.versions[0];
      const problems: string[] = [];
      if (!listed.some((item) => item.action === action && !/`note`/.test(item.sentence))) problems.push(`the changelog does not list the deprecated action ${action}`);
      if (!listed.some((item) => /`note`/.test(item.sentence))) problems.push('the changelog does not list the deprecated field note');
      if (newest?.version !== revised.info.version || !newest.entries.some((entry) => entry.category === 'deprecated')) {
        problems.push(`the changelog has no deprecation entry under version ${revised.info.version}, the version that announced it`);
      }
      return problems;
    },
  },
];

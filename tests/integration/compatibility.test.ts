import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compatibilityStep, rateRevision } from '../../src/gate/compatibility.ts';
import type { GateProblem } from '../../src/gate/gate.ts';
import { runGate } from '../../src/gate/run-gate.ts';
import { latestRelease, readReleases } from '../../src/lib/releases/releases.ts';
import { additiveEdits, breakingEdits, checkCopy, releaseAsIs, setVersion } from '../support/compatibility-fixture.ts';
import { bundledDocument, copyContract, projectDirectory, type ContractCopy } from '../support/contract-copy.ts';
import type { OpenApiDocument } from '../../src/lib/contract/document.ts';

/** Each case bundles a copy and runs Redocly's diff on it; two at a time suit a two-core machine. */
const concurrency = 2;

function messagesOf(copy: ContractCopy): string[] {
  return checkCopy(copy).problems.map((problem) => `${problem.file}: ${problem.message}`);
}

describe('the compatibility step on the contract as it is', () => {
  it('passes: the contract is its latest release or grows it additively', () => {
    const copy = copyContract();
    try {
      const report = checkCopy(copy);
      assert.deepEqual(report.problems, []);
      assert.equal(report.release?.version, latestRelease(readReleases(projectDirectory))?.version);
    } finally {
      copy.remove();
    }
  });
});

/** Runs the whole gate, as `npm run lint` does, and picks out what this step said. */
async function gateOver(copy: ContractCopy): Promise<{ all: string[]; compatibility: string[] }> {
  const result = await runGate({ projectDirectory: copy.directory });
  const step = result.steps.find((outcome) => outcome.name === compatibilityStep.name);
  const lines = (problems: GateProblem[]): string[] => problems.map((problem) => `${problem.file}: ${problem.message}${problem.rule === undefined ? "" : ` [${problem.rule}]`}`);
  return { all: lines(result.problems), compatibility: lines(step?.problems ?? []) };
}

describe('every breaking change fails `npm run lint` in this step, and the message names it', { concurrency }, () => {
  for (const edit of breakingEdits) {
    it(edit.name, async () => {
      const copy = copyContract();
      try {
        edit.apply(copy);
        // A new version number must not buy a breaking change its way in.
        setVersion(copy, '1.1.0');
        const { compatibility } = await gateOver(copy);
        assert.ok(compatibility.length > 0, 'the step passed a breaking change');
        for (const pattern of edit.names) {
          assert.ok(
            compatibility.some((message) => pattern.test(message) && message.includes('breaks release 1.0.0')),
            `no message matches ${String(pattern)}:\n${compatibility.join('\n')}`,
          );
        }
      } finally {
        copy.remove();
      }
    });
  }
});

describe('every additive change passes `npm run lint` with a new minor version, and fails without one', { concurrency }, () => {
  for (const edit of additiveEdits) {
    it(edit.name, async () => {
      const copy = copyContract();
      try {
        const baseline = releaseAsIs(copy);
        edit.apply(copy);
        const unbumped = await gateOver(copy);
        // The version is the only thing wrong: every other step of the gate takes the edit.
        assert.deepEqual(unbumped.all, unbumped.compatibility);
        assert.equal(unbumped.compatibility.length, 1, unbumped.compatibility.join('\n'));
        const [message = ''] = unbumped.compatibility;
        assert.match(message, /^openapi\/openapi\.yaml: /);
        assert.match(message, edit.named);
        assert.ok(
          message.includes(`is an additive change: raise info.version to ${baseline.nextMinor} or higher (it is ${baseline.released})`),
          message,
        );

        setVersion(copy, baseline.nextPatch);
        assert.ok(messagesOf(copy).join('\n').includes(`raise info.version to ${baseline.nextMinor} or higher (it is ${baseline.nextPatch})`));

        setVersion(copy, baseline.nextMinor);
        assert.deepEqual((await gateOver(copy)).all, []);
        assert.equal(checkCopy(copy).impact, 'minor');
      } finally {
        copy.remove();
      }
    });
  }
});

describe('versions and changes that neither break nor add', { concurrency }, () => {
  it('a description rewording needs no new version', () => {
    const copy = copyContract();
    try {
      releaseAsIs(copy);
      copy.replace('openapi/paths/action.yaml', 'Runs one lifecycle action', 'Performs one lifecycle action');
      const report = checkCopy(copy);
      assert.deepEqual(report.problems, []);
      assert.equal(report.impact, 'patch');
    } finally {
      copy.remove();
    }
  });

  it('a deprecation is announced with a new minor version', () => {
    const copy = copyContract();
    try {
      const baseline = releaseAsIs(copy);
      copy.replace('openapi/components/schemas/PauseSubscriptionRequest.yaml', '  note:\n    $ref: ./Note.yaml', '  note:\n    $ref: ./Note.yaml\n    deprecated: true');
      const message = messagesOf(copy).join('\n');
      assert.match(message, /Field `note` for `pause_subscription` is deprecated/);
      assert.ok(message.includes(`raise info.version to ${baseline.nextMinor} or higher`), message);
      setVersion(copy, baseline.nextMinor);
      assert.deepEqual(checkCopy(copy).problems, []);
    } finally {
      copy.remove();
    }
  });

  it('a version below the latest release fails', () => {
    const copy = copyContract();
    try {
      setVersion(copy, '0.9.0');
      assert.match(messagesOf(copy).join('\n'), /info\.version 0\.9\.0 is lower than the latest release, 1\.0\.0/);
    } finally {
      copy.remove();
    }
  });

  it('a new major version fails: v1 only takes additive changes', () => {
    const copy = copyContract();
    try {
      setVersion(copy, '2.0.0');
      assert.match(messagesOf(copy).join('\n'), /info\.version 2\.0\.0 leaves major version 1/);
    } finally {
      copy.remove();
    }
  });

  it('a release listed without its snapshot fails with the file to fix', () => {
    const copy = copyContract();
    try {
      copy.write('openapi/releases/releases.yaml', `${copy.read('openapi/releases/releases.yaml')}  - version: "1.99.0"\n    date: "2026-12-01"\n`);
      const [problem] = checkCopy(copy).problems;
      assert.equal(problem?.file, 'openapi/releases/releases.yaml');
      assert.match(problem?.message ?? '', /release 1\.99\.0 has no snapshot openapi\/releases\/1\.99\.0\.json/);
    } finally {
      copy.remove();
    }
  });
});

/**
 * Responses open, requests strict (the tolerant reader of the versioning page): a client ignores
 * the fields and values it does not know, so opening a response only writes down what version 1
 * promised, while opening a request would stop refusing unknown fields.
 */
describe('[9.4] responses may be opened to additions inside v1; requests stay strict', { concurrency }, () => {
  const resultSchema = 'openapi/components/schemas/ActionResult.yaml';
  const actionNameSchema = 'openapi/components/schemas/ActionName.yaml';

  it('opening a response is additive: `additionalProperties: false` dropped and a list of actions made an extensible enum', async () => {
    const copy = copyContract();
    try {
      const openResult = copy.read(resultSchema);
      const openNames = copy.read(actionNameSchema);
      // A release whose success body was closed and whose action identifiers were a closed enum.
      copy.editYaml(resultSchema, (schema) => {
        schema.additionalProperties = false;
      });
      copy.editYaml(actionNameSchema, (schema) => {
        schema.enum = schema.examples;
        delete schema.examples;
        schema.description = 'Identifier of a lifecycle action.';
      });
      const baseline = releaseAsIs(copy);
      copy.write(resultSchema, openResult);
      copy.write(actionNameSchema, openNames);

      const unbumped = await gateOver(copy);
      assert.deepEqual(unbumped.all, unbumped.compatibility, 'every other step takes the open responses');
      const message = unbumped.compatibility.join('\n');
      assert.doesNotMatch(message, /breaks release/);
      assert.match(message, /The body of the `200` response may now carry fields it does not list/);
      assert.match(message, /Field `action` in the `200` response is now an extensible enum/);
      assert.ok(message.includes(`raise info.version to ${baseline.nextMinor} or higher`), message);

      setVersion(copy, baseline.nextMinor);
      assert.deepEqual((await gateOver(copy)).all, []);
      assert.equal(checkCopy(copy).impact, 'minor');
    } finally {
      copy.remove();
    }
  });

  // Redocly rates these three `patch`: a request that accepts more, or a response that promises
  // less, breaks no client of today. They break the rule that keeps v1 growing, which the
  // contract check `tolerant-reader` holds, so the gate as a whole refuses them.
  const refusedByTheGate: { name: string; apply: (copy: ContractCopy) => void; named: RegExp }[] = [
    {
      name: 'a request that stops refusing unknown fields',
      apply: (copy) =>
        copy.editYaml('openapi/components/schemas/PauseSubscriptionRequest.yaml', (schema) => {
          delete schema.additionalProperties;
        }),
      named: /^openapi\/components\/schemas\/PauseSubscriptionRequest\.yaml: .*requests stay strict.*\[tolerant-reader: /,
    },
    {
      name: 'an object inside a request that does not refuse unknown fields',
      apply: (copy) =>
        copy.editYaml('openapi/components/schemas/PauseSubscriptionRequest.yaml', (schema) => {
          (schema.properties as Record<string, unknown>).resume = { type: 'object', properties: { on: { type: 'string', format: 'date' } } };
        }),
      named: /^openapi\/components\/schemas\/PauseSubscriptionRequest\.yaml: .*object inside the `?pause_subscription`? request.*nested objects included.*\[tolerant-reader: /,
    },
    {
      name: 'an object schema a request and a response share',
      apply: (copy) => {
        copy.write('openapi/components/schemas/Metadata.yaml', 'type: object\ndescription: Labels of this test only.\nproperties:\n  label:\n    type: string\n');
        copy.editYaml('openapi/components/schemas/PauseSubscriptionRequest.yaml', (schema) => {
          (schema.properties as Record<string, unknown>).metadata = { $ref: './Metadata.yaml' };
        });
        copy.editYaml(resultSchema, (schema) => {
          (schema.properties as Record<string, unknown>).metadata = { $ref: './Metadata.yaml' };
        });
      },
      named: /^openapi\/components\/schemas\/Metadata\.yaml: .*used by the .*request and by a response.*give each its own.*\[tolerant-reader: /,
    },
    {
      name: 'a response closed to additions again',
      apply: (copy) =>
        copy.editYaml(resultSchema, (schema) => {
          schema.additionalProperties = false;
        }),
      named: /^openapi\/components\/schemas\/ActionResult\.yaml: .*responses stay open.*\[tolerant-reader: /,
    },
    {
      name: 'the action identifiers of a response made a closed enum again',
      apply: (copy) =>
        copy.editYaml(actionNameSchema, (schema) => {
          schema.enum = schema.examples;
        }),
      named: /^openapi\/components\/schemas\/ActionName\.yaml: .*closed "enum".*\[tolerant-reader: /,
    },
  ];
  for (const edit of refusedByTheGate) {
    it(`${edit.name} fails \`npm run lint\`, whatever the version`, async () => {
      const copy = copyContract();
      try {
        const baseline = releaseAsIs(copy);
        edit.apply(copy);
        setVersion(copy, baseline.nextMinor);
        const { all } = await gateOver(copy);
        assert.ok(all.some((line) => edit.named.test(line)), all.join('\n'));
      } finally {
        copy.remove();
      }
    });
  }
});

describe('an edited oneOf branch, which Redocly reports as removed and added', () => {
  const retryAfter = 'openapi/components/schemas/RetryAfter.yaml';
  const dateBranch = '  - type: string\n    description: An HTTP date (IMF-fixdate) after which to retry.\n';

  it('passes when a response branch only gains a constraint (fewer values sent, all readable as before)', () => {
    const copy = copyContract();
    try {
      copy.replace(retryAfter, dateBranch, `${dateBranch}    maxLength: 29\n`);
      assert.deepEqual(messagesOf(copy), []);
    } finally {
      copy.remove();
    }
  });

  it('fails when a response branch changes its type', () => {
    const copy = copyContract();
    try {
      copy.replace(retryAfter, dateBranch, dateBranch.replace('type: string', 'type: number'));
      const messages = messagesOf(copy);
      assert.ok(messages.some((message) => /breaks release 1\.0\.0/.test(message)), messages.join('\n'));
    } finally {
      copy.remove();
    }
  });
});

describe('a request that accepts more is an addition, whatever Redocly rates it', () => {
  /** The rating of a revision of the bundled contract against a base made from the same bundle. */
  function rate(shape: (document: OpenApiDocument) => void, grow: (document: OpenApiDocument) => void): string {
    const base = bundledDocument();
    shape(base);
    const revision = structuredClone(base);
    grow(revision);
    return rateRevision(projectDirectory, base, revision) ?? 'none';
  }
  const note = (document: OpenApiDocument): Record<string, unknown> => {
    const schema = document.components?.schemas?.Note;
    assert.ok(schema !== undefined);
    return schema as Record<string, unknown>;
  };

  it('a new value of a list only requests use is minor (Redocly rates it a patch)', () => {
    const listed = (document: OpenApiDocument): void => {
      Object.assign(note(document), { enum: ['holiday', 'moving'] });
    };
    assert.equal(rate(listed, (document) => void (note(document).enum as string[]).push('illness')), 'minor');
  });

  it('a looser limit in a request is minor, and a tighter one breaks', () => {
    const limit = Number(note(bundledDocument()).maxLength);
    assert.equal(rate(() => {}, (document) => void (note(document).maxLength = limit * 2)), 'minor');
    assert.equal(rate(() => {}, (document) => void (note(document).maxLength = Math.floor(limit / 2))), 'major');
  });

  it('a new value of a list that responses share stays major, though Redocly met it in a request first', () => {
    const status = (document: OpenApiDocument): string[] => (document.components?.schemas?.SubscriptionStatus as { enum: string[] }).enum;
    assert.equal(rate(() => {}, (document) => void status(document).push('suspended')), 'major');
  });
});

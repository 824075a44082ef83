import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { additiveEdits, breakingEdits, ProjectCopy } from './compatibility-fixture.ts';

/** Each case bundles a copy and runs Redocly's diff on it; two at a time suit a two-core machine. */
const concurrency = 2;

function messagesOf(copy: ProjectCopy): string[] {
  return copy.check().problems.map((problem) => `${problem.file}: ${problem.message}`);
}

describe('the compatibility step on the contract as it is', () => {
  it('passes: the contract is release 1.0.0 or grows it additively', () => {
    const copy = new ProjectCopy();
    try {
      const report = copy.check();
      assert.deepEqual(report.problems, []);
      assert.equal(report.release?.version, '1.0.0');
    } finally {
      copy.remove();
    }
  });
});

describe('every breaking change fails the step, and the message names it', { concurrency }, () => {
  for (const edit of breakingEdits) {
    it(edit.name, () => {
      const copy = new ProjectCopy();
      try {
        edit.apply(copy);
        // A new version number must not buy a breaking change its way in.
        copy.setVersion('1.1.0');
        const messages = messagesOf(copy);
        assert.ok(messages.length > 0, 'the step passed a breaking change');
        for (const pattern of edit.names) {
          assert.ok(
            messages.some((message) => pattern.test(message) && message.includes('breaks release 1.0.0')),
            `no message matches ${String(pattern)}:\n${messages.join('\n')}`,
          );
        }
      } finally {
        copy.remove();
      }
    });
  }
});

describe('every additive change passes with a new minor version, and fails without one', { concurrency }, () => {
  for (const edit of additiveEdits) {
    it(edit.name, () => {
      const copy = new ProjectCopy();
      try {
        edit.apply(copy);
        const unbumped = messagesOf(copy);
        assert.equal(unbumped.length, 1, unbumped.join('\n'));
        const [message = ''] = unbumped;
        assert.match(message, /^openapi\/openapi\.yaml: /);
        assert.match(message, edit.named);
        assert.match(message, /is an additive change: raise info\.version to 1\.1\.0 or higher \(it is 1\.0\.0\)/);

        copy.setVersion('1.0.1');
        assert.match(messagesOf(copy).join('\n'), /raise info\.version to 1\.1\.0 or higher \(it is 1\.0\.1\)/);

        copy.setVersion('1.1.0');
        const report = copy.check();
        assert.deepEqual(report.problems, []);
        assert.equal(report.impact, 'minor');
      } finally {
        copy.remove();
      }
    });
  }
});

describe('versions and changes that neither break nor add', { concurrency }, () => {
  it('a description rewording needs no new version', () => {
    const copy = new ProjectCopy();
    try {
      copy.replace('openapi/paths/action.yaml', 'Runs one lifecycle action', 'Performs one lifecycle action');
      const report = copy.check();
      assert.deepEqual(report.problems, []);
      assert.equal(report.impact, 'patch');
    } finally {
      copy.remove();
    }
  });

  it('a deprecation is announced with a new minor version', () => {
    const copy = new ProjectCopy();
    try {
      copy.replace('openapi/components/schemas/PauseSubscriptionRequest.yaml', '  note:\n    $ref: ./Note.yaml', '  note:\n    $ref: ./Note.yaml\n    deprecated: true');
      assert.match(messagesOf(copy).join('\n'), /Field `note` for `pause_subscription` is deprecated.*raise info\.version to 1\.1\.0 or higher/);
      copy.setVersion('1.1.0');
      assert.deepEqual(copy.check().problems, []);
    } finally {
      copy.remove();
    }
  });

  it('a version below the latest release fails', () => {
    const copy = new ProjectCopy();
    try {
      copy.setVersion('0.9.0');
      assert.match(messagesOf(copy).join('\n'), /info\.version 0\.9\.0 is lower than the latest release, 1\.0\.0/);
    } finally {
      copy.remove();
    }
  });

  it('a new major version fails: v1 only takes additive changes', () => {
    const copy = new ProjectCopy();
    try {
      copy.setVersion('2.0.0');
      assert.match(messagesOf(copy).join('\n'), /info\.version 2\.0\.0 leaves major version 1/);
    } finally {
      copy.remove();
    }
  });

  it('a release listed without its snapshot fails with the file to fix', () => {
    const copy = new ProjectCopy();
    try {
      copy.replace('openapi/releases/releases.yaml', /\n*$/, '\n  - version: "1.1.0"\n    date: "2026-12-01"\n');
      const [problem] = copy.check().problems;
      assert.equal(problem?.file, 'openapi/releases/releases.yaml');
      assert.match(problem?.message ?? '', /release 1\.1\.0 has no snapshot openapi\/releases\/1\.1\.0\.json/);
    } finally {
      copy.remove();
    }
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readReferenceModel } from '../../src/lib/contract/actions.ts';
import type { OpenApiDocument } from '../../src/lib/contract/document.ts';
import { ContractError, isRecord, resolvePointer } from '../../src/lib/contract/document.ts';
import { bundledDocument } from '../support/reference-fixture.ts';

/** Breaks a fresh copy of the bundled contract and expects the model to refuse it, saying where and what. */
function assertRefused(breakIt: (document: OpenApiDocument) => void, where: RegExp, what: RegExp): void {
  const document = bundledDocument();
  breakIt(document);
  assert.throws(
    () => readReferenceModel(document),
    (error: unknown) => {
      assert.ok(error instanceof ContractError, `a ContractError, not ${String(error)}`);
      assert.match(error.message, where);
      assert.match(error.message, what);
      return true;
    },
  );
}

function node(document: OpenApiDocument, pointer: string): Record<string, unknown> {
  const found = resolvePointer(document, pointer);
  assert.ok(isRecord(found), `${pointer} is an object`);
  return found;
}

const requestSchema = '#/components/requestBodies/ActionRequest/content/application~1json/schema';

test('the unbroken contract is accepted, with one action per branch of the request body', () => {
  const document = bundledDocument();
  const branches = node(document, requestSchema).oneOf;
  assert.ok(Array.isArray(branches));
  assert.equal(readReferenceModel(document).actions.length, branches.length);
});

test('an action schema that the discriminator does not map is refused', () => {
  assertRefused(
    (document) => {
      const mapping = node(document, `${requestSchema}/discriminator/mapping`);
      delete mapping.trial_end;
    },
    /ActionRequest\/content\/application~1json\/schema\/oneOf\/6 \(openapi\/components\/requestBodies\/ActionRequest\.yaml\)/,
    /not named by the discriminator mapping/,
  );
});

test('a mapping whose schema pins another identifier is refused', () => {
  assertRefused(
    (document) => {
      node(document, '#/components/schemas/TrialEndRequest/properties/action').const = 'end_trial';
    },
    /#\/components\/schemas\/TrialEndRequest\/properties\/action \(openapi\/components\/schemas\/TrialEndRequest\.yaml\)/,
    /const: trial_end/,
  );
});

test('a transition table that names an unknown status is refused', () => {
  assertRefused(
    (document) => {
      node(document, '#/x-transitions/actions/pause_subscription').to = 'paused';
    },
    /#\/x-transitions\/actions\/pause_subscription\/to \(openapi\/components\/transitions\.yaml\)/,
    /"paused", which is not a state of SubscriptionStatus/,
  );
});

test('an action without transitions is refused', () => {
  assertRefused(
    (document) => {
      delete node(document, '#/x-transitions/actions').payment_failed;
    },
    /#\/x-transitions\/actions\/payment_failed/,
    /every action needs its transitions/,
  );
});

test('a transition out of a final status is refused', () => {
  assertRefused(
    (document) => {
      node(document, '#/x-transitions/actions/resume_subscription').from = ['on-hold', 'expired'];
    },
    /#\/x-transitions\/actions\/resume_subscription/,
    /expired is a final state, yet resume_subscription accepts it and leads out of it/,
  );
});

test('an error code without a description is refused, since it is the "when" of the table', () => {
  assertRefused(
    (document) => {
      delete node(document, '#/components/schemas/NotFoundError/properties/code/oneOf/1').description;
    },
    /NotFoundError\/properties\/code\/oneOf\/1 \(openapi\/components\/schemas\/NotFoundError\.yaml\)/,
    /`rest_no_route` needs a description/,
  );
});

test('an action without its request example is refused', () => {
  assertRefused(
    (document) => {
      delete node(document, '#/components/requestBodies/ActionRequest/content/application~1json/examples').change_status;
    },
    /examples\/change_status/,
    /every action needs a request example/,
  );
});

test('a request example with a field the action does not accept is refused', () => {
  assertRefused(
    (document) => {
      node(document, '#/components/examples/PauseSubscriptionRequest/value').order_id = 1;
    },
    /#\/components\/examples\/PauseSubscriptionRequest \(openapi\/components\/examples\/PauseSubscriptionRequest\.yaml\)/,
    /sends `order_id`, which pause_subscription does not accept/,
  );
});

test('an action without its success example is refused', () => {
  assertRefused(
    (document) => {
      delete node(document, '#/components/responses/ActionSucceeded/content/application~1json/examples').trial_end;
    },
    /examples\/trial_end/,
    /needs an example named after every action/,
  );
});

test('a field without a type is refused', () => {
  assertRefused(
    (document) => {
      delete node(document, '#/components/schemas/Note').type;
    },
    /#\/components\/schemas\/Note \(openapi\/components\/schemas\/Note\.yaml\)/,
    /has no `type`/,
  );
});

test('a reference to a missing component is refused', () => {
  assertRefused(
    (document) => {
      node(document, '#/components/schemas/PaymentFailedRequest/properties/order_id').$ref = '#/components/schemas/OrderNumber';
    },
    /PaymentFailedRequest\/properties\/order_id/,
    /refers to #\/components\/schemas\/OrderNumber, which does not exist/,
  );
});

test('a server URL with an undefined variable is refused', () => {
  assertRefused(
    (document) => {
      const [server] = document.servers ?? [];
      assert.ok(server);
      server.url = 'https://{site}:{port}/wp-json/service/v1';
    },
    /#\/servers\/0\/variables\/port/,
    /uses \{port\} but does not define it/,
  );
});

test('a second endpoint is refused, since the service has exactly one', () => {
  assertRefused(
    (document) => {
      const paths = document.paths;
      assert.ok(paths);
      paths['/status'] = { get: { responses: {} } };
    },
    /#\/paths/,
    /exactly one endpoint, but the contract describes: POST \/action, GET \/status/,
  );
});

/**
 * Every generator claims its methods through the one shared check (src/clients/shared/method-names.ts):
 * an action whose method would be one of the client's own members, or the same as another
 * action's, is refused with the action's place in the document, which the gate turns into the
 * contract's line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { phpPackageFiles } from '../../src/clients/php/generate.ts';
import { generatePythonSources } from '../../src/clients/python/generate.ts';
import { claimMethodNames, UnnamableActionError } from '../../src/clients/shared/method-names.ts';
import { generateClientSources } from '../../src/clients/typescript/generate.ts';
import { readExecutableContract, type ExecutableContract } from '../../src/lib/contract/executable-contract.ts';
import { bundledDocument } from '../support/contract-copy.ts';

const contract = readExecutableContract(bundledDocument());
const [first, second, ...rest] = contract.model.actions;
assert.ok(first !== undefined && second !== undefined);

/** The contract with its first two actions renamed, as the generators read it. */
function renamed(firstIdentifier: string, secondIdentifier = second?.identifier ?? ''): ExecutableContract {
  return { ...contract, model: { ...contract.model, actions: [{ ...first!, identifier: firstIdentifier }, { ...second!, identifier: secondIdentifier }, ...rest] } };
}

/** Each generator, and the client's own method through which any action is sent. */
const generators: [string, (contract: ExecutableContract) => unknown, string][] = [
  ['PHP', phpPackageFiles, 'send'],
  ['TypeScript', generateClientSources, 'action'],
  ['Python', generatePythonSources, 'send'],
];

describe('each generator refuses an action it cannot name, at the action\'s place', () => {
  for (const [language, generate, own] of generators) {
    test(`${language}: an action named as the client's own ${own}() method`, () => {
      assert.throws(() => generate(renamed(own)), (error: unknown) => {
        assert.ok(error instanceof UnnamableActionError, String(error));
        assert.equal(error.pointer, first.pointer);
        assert.match(error.message, new RegExp(`^The action ${own} would be the (PHP |Python )?method ${own}\\(\\), which the client cannot have`));
        return true;
      });
    });

    test(`${language}: two actions that would be one method`, () => {
      assert.throws(() => generate(renamed('hold_subscription', 'hold-subscription')), (error: unknown) => {
        assert.ok(error instanceof UnnamableActionError, String(error));
        assert.equal(error.pointer, second.pointer);
        assert.match(error.message, /^The actions hold_subscription and hold-subscription would both be the /);
        return true;
      });
    });
  }
});

test('the shared claim gives each action its method when every name is allowed and free', () => {
  const claimed = claimMethodNames(contract.model.actions, { methodName: (identifier) => identifier.toUpperCase(), allowed: () => true, shown: (name) => name });
  assert.deepEqual([...claimed.values()], contract.model.actions.map((action) => action.identifier));
});

import { follow, isSchemaObject, isStringArray } from '../../lib/contract/located.ts';
import type { ContractRule } from './contract-rule.ts';

export const apiKeyInBodyRule: ContractRule = {
  name: 'api-key-in-body',
  rule: 'Every request carries api_key, a required string field of the JSON body.',
  rules: ['2.1', '5.1'],
  check({ document, actionBranches }, report) {
    for (const branch of actionBranches) {
      if (!isStringArray(branch.node.required) || !branch.node.required.includes('api_key')) {
        report({ location: branch.pointer, message: `The ${branch.label} branch does not list "api_key" under required; every request must carry the site's API key.` });
      }
      const property = follow(document, branch.node.properties?.api_key, `${branch.pointer}/properties/api_key`);
      if (!isSchemaObject(property.node)) {
        report({ location: branch.pointer, message: `The ${branch.label} branch has no "api_key" property; the key travels in the body field api_key.` });
      } else if (property.node.type !== 'string') {
        report({
          location: property.pointer,
          message: `"api_key" of the ${branch.label} branch has type ${JSON.stringify(property.node.type ?? 'unset')}; the key is a string.`,
        });
      }
    }
  },
};

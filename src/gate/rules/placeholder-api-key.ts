import { isRecord } from '../../lib/contract/document.ts';
import type { ContractRule } from './contract-rule.ts';

/** The placeholder the specification writes for a key in its table of body fields (section 4.1). */
export const apiKeyPlaceholder = '<API_KEY>';

export const placeholderApiKeyRule: ContractRule = {
  name: 'placeholder-api-key',
  rule: `The key is written ${apiKeyPlaceholder} in examples; nothing published looks like a real key.`,
  rules: ['5.1'],
  check({ requestExamples }, report) {
    for (const example of requestExamples) {
      if (isRecord(example.value) && 'api_key' in example.value && example.value.api_key !== apiKeyPlaceholder) {
        report({
          location: example.pointer,
          message: `Request example "${example.name}" does not use the placeholder ${apiKeyPlaceholder} as its api_key; a published example must never look like a real key.`,
        });
      }
    }
  },
};

import { reachableSchemas, responseBodySchemas } from '../../lib/contract/located.ts';
import { isStringArray } from '../../lib/contract/located.ts';
import type { ContractRule } from './contract-rule.ts';

export const tolerantReaderRule: ContractRule = {
  name: 'tolerant-reader',
  rule: 'Inside v1 only additive changes land, new actions and new optional fields; so requests refuse fields they do not list, and responses stay open to the fields and action identifiers later releases add.',
  rules: ['9.3', '9.4'],
  check(parts, report) {
    const responseSchemas = new Set(responseBodySchemas(parts.document, parts.operation).flatMap((body) => reachableSchemas(parts.document, body).map((schema) => schema.pointer)));
    const checkedInRequests = new Set<string>();
    for (const branch of parts.actionBranches) {
      if (branch.node.additionalProperties !== false) {
        report({
          location: branch.pointer,
          message: `The ${branch.label} branch does not set "additionalProperties: false"; requests stay strict, so a field the action does not know must be refused.`,
        });
      }
      // An object inside a request (a field that holds fields) is as strict as the request.
      for (const schema of reachableSchemas(parts.document, branch)) {
        const isObject = schema.node.type === 'object' || schema.node.properties !== undefined;
        if (!isObject || schema.pointer === branch.pointer || checkedInRequests.has(schema.pointer)) continue;
        checkedInRequests.add(schema.pointer);
        if (responseSchemas.has(schema.pointer)) {
          report({
            location: schema.pointer,
            message: `An object schema is used by the ${branch.label} request and by a response; requests refuse fields they do not list and responses stay open, so one schema cannot serve both: give each its own.`,
          });
        } else if (schema.node.additionalProperties !== false) {
          report({
            location: schema.pointer,
            message: `An object inside the ${branch.label} request does not set "additionalProperties: false"; requests stay strict, nested objects included.`,
          });
        }
      }
    }
    const actions = new Set(parts.branchActions);
    const reported = new Set<string>();
    for (const body of responseBodySchemas(parts.document, parts.operation)) {
      for (const schema of reachableSchemas(parts.document, body)) {
        if (reported.has(schema.pointer)) continue;
        reported.add(schema.pointer);
        if (schema.node.additionalProperties === false) {
          report({
            location: schema.pointer,
            message: 'A response schema sets "additionalProperties: false"; responses stay open, or a client generated from this document refuses the optional fields version 1 may add.',
          });
        }
        const values = schema.node.enum;
        if (isStringArray(values) && values.length > 0 && values.every((value) => actions.has(value))) {
          report({
            location: schema.pointer,
            message: 'A response schema lists action identifiers as a closed "enum"; version 1 may add actions, so mark the list as an extensible enum ("Extensible enum." and the known values under "examples").',
          });
        }
      }
    }
  },
};

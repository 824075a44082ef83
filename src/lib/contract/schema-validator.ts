import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './document.ts';
import { isRecord, resolvePointer } from './document.ts';
import { contractError } from './schemas.ts';

export type { ErrorObject, ValidateFunction };

/** A JSON Schema 2020-12 validator for any schema of the bundled document, compiled once each. */
export interface ContractValidator {
  /** The validator of the schema at a pointer such as `#/components/schemas/ActionResult`. */
  schemaAt(pointer: string): ValidateFunction;
}

const componentsId = 'https://contract.invalid/components.json';
const componentsPrefix = '#/components/schemas/';

/** Points every `$ref` to a component at the copy of the components Ajv holds. */
function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item));
  if (!isRecord(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === '$ref' && typeof member === 'string' && member.startsWith(componentsPrefix)) {
      result[key] = `${componentsId}#/$defs/${member.slice(componentsPrefix.length)}`;
    } else if (key === 'properties' && isRecord(member)) {
      // Property names are not schemas: only their values are rewritten.
      result[key] = Object.fromEntries(Object.entries(member).map(([name, schema]) => [name, rewrite(schema)]));
    } else {
      result[key] = rewrite(member);
    }
  }
  return result;
}

/** Compiles the document's schemas with Ajv's JSON Schema 2020-12 dialect, as OpenAPI 3.1 asks. */
export function createContractValidator(document: OpenApiDocument): ContractValidator {
  // OpenAPI adds keywords (discriminator, example, x-*) that strict JSON Schema would refuse.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: componentsId, $defs: rewrite(document.components?.schemas ?? {}) });
  const compiled = new Map<string, ValidateFunction>();
  return {
    schemaAt(pointer) {
      let validate = compiled.get(pointer);
      if (validate === undefined) {
        if (pointer.startsWith(componentsPrefix)) {
          validate = ajv.getSchema(`${componentsId}#/$defs/${pointer.slice(componentsPrefix.length)}`);
          if (validate === undefined) throw contractError(pointer, 'is not a schema of the bundled document');
        } else {
          const node = resolvePointer(document, pointer);
          if (!isRecord(node)) throw contractError(pointer, 'is expected to be a schema object');
          validate = ajv.compile(rewrite(node) as object);
        }
        compiled.set(pointer, validate);
      }
      return validate;
    },
  };
}

/** Ajv's findings in one line each: where in the value, and what is wrong there. */
export function describeSchemaErrors(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    const where = error.instancePath === '' ? 'the body' : `\`${error.instancePath.slice(1).replaceAll('/', '.')}\``;
    if (error.keyword === 'additionalProperties') {
      return `${where} has the member \`${String(error.params.additionalProperty)}\`, which the document does not name`;
    }
    if (error.keyword === 'const') return `${where} must be ${JSON.stringify(error.params.allowedValue)}`;
    if (error.keyword === 'enum') return `${where} must be one of ${JSON.stringify(error.params.allowedValues)}`;
    return `${where} ${error.message ?? 'is invalid'}`;
  });
}

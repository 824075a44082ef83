/**
 * Writes the Python package from the executable contract: the runtime's own `.py` files copied
 * from `runtime/`, and two generated modules, `_contract.py` (the fields of every action as typed
 * dictionaries, the result, one error class per documented error status, the facts the runtime
 * acts on) and `__init__.py` (the client with one method per action). Nothing here names an
 * action, a field, a status or a code: each comes from the model.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Action, Field } from '../../lib/contract/model.ts';
import type { ExecutableContract } from '../../lib/contract/executable-contract.ts';
import { errorDataField } from '../../lib/contract/response-names.ts';
import { successResponse } from '../../lib/contract/response-lookups.ts';
import { alternatives, childPointer, resolveSchema, type ResolvedSchema } from '../../lib/contract/schemas.ts';
import { nameWords, pascalCaseName, pythonDistributionName, pythonImportName, pythonMethodName, clientClassName } from '../../lib/samples/client-libraries.ts';
import { pythonLiteral } from '../../lib/samples/literals.ts';
import { retryPolicy } from '../../lib/samples/retry-policy.ts';
import { fixedErrorClassName, fixedErrorKinds, statusErrorClassName, type FixedErrorKindId } from '../shared/error-kinds.ts';
import { contractFacts, errorDetailMembers } from '../shared/contract-facts.ts';
import { callerFields, fieldSchema } from '../shared/field-rules.ts';
import { claimMethodNames } from '../shared/method-names.ts';

// The distribution's name on PyPI, the import package it installs and each action's method, shared with the action pages' samples.
export { pythonDistributionName, pythonImportName, pythonMethodName };
/** The class a reader constructs: the same name as in every library that has one. */
export const pythonClientClassName = clientClassName;
/** The oldest Python the package runs on, as `(major, minor)`. */
export const pythonFloor = [3, 9] as const;

/** The folder of the hand-written runtime, copied into the package as it is. */
export const pythonRuntimeDirectory = path.resolve(import.meta.dirname, 'runtime');

/** Members of the client that an action's method must not take the name of. */
const clientMembers = ['send', 'settings'];

const pythonKeywords = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);

const generatedNotice = (version: string) => `# Generated from version ${version} of the contract by src/clients/python/generate.ts. Do not edit.`;

/** The class a service error of `status` is raised as in Python: `409` → `ConflictError`. */
export function pythonErrorClassName(status: number | string): string {
  return statusErrorClassName(status, 'python');
}

/** The error classes of the kinds every call can end with, as the runtime's `_errors.py` defines them. */
export const pythonFixedErrorClassNames: readonly string[] = (Object.keys(fixedErrorKinds) as FixedErrorKindId[]).map((kind) => fixedErrorClassName(kind, 'python'));

function isPythonName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !pythonKeywords.has(name);
}

/** A docstring's text, safe between triple quotes, indented. */
function docstring(text: string, indent: string): string {
  const lines = text.trim().replaceAll('\\', '\\\\').replaceAll('"""', '\\"\\"\\"').split('\n');
  if (lines.length === 1) return `${indent}"""${lines[0]}"""`;
  return [`${indent}"""${lines[0]}`, ...lines.slice(1).map((line) => (line.trim() === '' ? '' : `${indent}${line}`)), `${indent}"""`].join('\n');
}

function unionOf(types: string[]): string {
  const unique = [...new Set(types)];
  const withoutNone = unique.filter((type) => type !== 'None');
  if (withoutNone.length === 0) return 'None';
  const joined = withoutNone.length === 1 ? (withoutNone[0] as string) : `Union[${withoutNone.join(', ')}]`;
  return unique.includes('None') ? `Optional[${joined}]` : joined;
}

/**
 * The Python type of a schema. A request is typed strictly (the values listed as a `Literal`); an
 * answer tolerantly, as `str`, since a later release may add a value.
 */
export function pythonType(contract: ExecutableContract, resolved: ResolvedSchema, reading: 'request' | 'answer'): string {
  const { schema } = resolved;
  const listed: unknown[] | undefined = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (listed !== undefined && reading === 'request' && listed.every((value) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null)) {
    const values = listed.filter((value) => value !== null).map((value) => pythonLiteral(value));
    const literal = values.length > 0 ? `Literal[${values.join(', ')}]` : 'None';
    return listed.includes(null) && values.length > 0 ? `Optional[${literal}]` : literal;
  }
  const variants = alternatives(contract.document, resolved);
  if (variants.length > 0) return unionOf(variants.map((variant) => pythonType(contract, variant, reading)));
  const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : listed !== undefined ? [...new Set(listed.map((value) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value)))] : [];
  if (types.length === 0) return 'Any';
  return unionOf(types.map((type) => {
    switch (type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array': {
        const items = 'items' in schema && schema.items !== undefined ? pythonType(contract, resolveSchema(contract.document, schema.items, childPointer(resolved.pointer, 'items')), reading) : 'Any';
        return reading === 'request' ? `Sequence[${items}]` : `List[${items}]`;
      }
      case 'object':
        return reading === 'request' ? 'Mapping[str, Any]' : 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }));
}

function fieldsClassName(action: Action): string {
  return `${pascalCaseName(action.identifier)}Fields`;
}

function fieldLine(contract: ExecutableContract, field: Field): string {
  if (!isPythonName(field.name)) throw new Error(`The field ${field.name} is not a Python name; the Python generator writes fields as a TypedDict's keys and needs one.`);
  const bounds = field.constraints.map((constraint) => `${constraint.label}${constraint.values === undefined ? '' : ` ${constraint.values.map((value) => JSON.stringify(value)).join(', ')}`}`);
  const said = `${field.description.trim().replaceAll('\n', ' ')}${bounds.length > 0 ? ` (${bounds.join('; ')})` : ''}`;
  return `    ${field.name}: ${pythonType(contract, fieldSchema(contract, field), 'request')}\n${docstring(said === '' ? field.name : said, '    ')}`;
}

/** The typed dictionaries of one action's fields: the required ones in a base, the optional ones in the class callers name. */
function fieldsClasses(contract: ExecutableContract, action: Action): string {
  const name = fieldsClassName(action);
  const fields = callerFields(contract, action.fields);
  const required = fields.filter((field) => field.required);
  const optional = fields.filter((field) => !field.required);
  const { selector, credential } = contract.model.envelope;
  return `class _${name}Required(TypedDict):
${required.length === 0 ? '    pass' : required.map((field) => fieldLine(contract, field)).join('\n')}


class ${name}(_${name}Required, total=False):
${docstring(`The fields of \`\`${action.identifier}\`\` (${action.title}); the client adds \`\`${selector}\`\` and \`\`${credential}\`\`.`, '    ')}

${optional.length === 0 ? '    pass' : optional.map((field) => fieldLine(contract, field)).join('\n')}`;
}

interface ErrorClassSource {
  status: number;
  className: string;
  text: string;
}

function errorClassOf(contract: ExecutableContract, response: ExecutableContract['model']['responses'][number]): ErrorClassSource | undefined {
  if (response.body === undefined || !response.isError) return undefined;
  const status = Number(response.status);
  const className = pythonErrorClassName(status);
  if (pythonFixedErrorClassNames.includes(className)) throw new Error(`HTTP ${status} documents an error body, and its class would be ${className}, a kind every call can end with (src/clients/shared/error-kinds.ts).`);
  const members = errorDetailMembers(response);
  const codes = response.errorCodes.map((error) => `- \`\`${error.code}\`\`: ${error.when.trim().replaceAll('\n', ' ')}`);
  const properties = members.map((member) => {
    const name = nameWords(member.name).map((word) => word.toLowerCase()).join('_');
    if (!isPythonName(name) || ['status', 'code', 'data', 'body', 'member', 'service_message', 'args'].includes(name)) throw new Error(`The error member ${member.name} would be the property ${name}, which a Python error cannot have.`);
    const type = pythonType(contract, fieldSchema(contract, member), 'answer');
    const said = `\`\`${errorDataField}.${member.name}\`\`${member.description.trim() === '' ? '' : `: ${member.description.trim().replace(/\.$/, '').replaceAll('\n', ' ')}`}; None when the answer does not carry it.`;
    return `    @property\n    def ${name}(self) -> Optional[${type.replace(/^Optional\[(.*)\]$/, '$1')}]:\n${docstring(said, '        ')}\n        return self.data.get(${JSON.stringify(member.name)})`;
  });
  const text = `class ${className}(ServiceError):
${docstring(`${response.description.trim()}\n\nThe service's answer with HTTP ${status}. Its code:\n\n${codes.join('\n')}`, '    ')}
${properties.length === 0 ? '' : `\n${properties.join('\n\n')}\n`}`;
  return { status, className, text };
}

/** The runtime's description in Python's units (seconds), from the facts every library's runtime reads. */
function pythonDescription(contract: ExecutableContract): Record<string, unknown> {
  return {
    ...contractFacts(contract),
    packageName: pythonDistributionName,
    policy: {
      attemptTimeoutSeconds: retryPolicy.attemptTimeoutSeconds,
      maxAttempts: retryPolicy.maxAttempts,
      backoffBaseSeconds: retryPolicy.backoffBaseSeconds,
      backoffMaxSeconds: retryPolicy.backoffMaxSeconds,
      backoffFixedShare: retryPolicy.backoffFixedShare,
      retryAfterCapSeconds: retryPolicy.retryAfterCapSeconds,
      paceSeconds: retryPolicy.courtesyIntervalSeconds,
    },
  };
}

/** The generated modules, by file name in the package. */
export function generatePythonSources(contract: ExecutableContract): Map<string, string> {
  const { model } = contract;
  const version = model.documentVersion;
  claimMethodNames(model.actions, { methodName: pythonMethodName, allowed: (name) => !clientMembers.includes(name) && isPythonName(name), shown: (name) => `the Python method ${name}()` });
  const errorClasses = model.responses.map((response) => errorClassOf(contract, response)).filter((source): source is ErrorClassSource => source !== undefined);
  const success = successResponse(model.responses);
  const resultLine = (field: Field) => {
    if (!isPythonName(field.name)) throw new Error(`The result member ${field.name} is not a Python name.`);
    return `    ${field.name}: ${pythonType(contract, fieldSchema(contract, field), 'answer')}\n${docstring(field.description.trim() === '' ? field.name : field.description.trim().replaceAll('\n', ' '), '    ')}`;
  };
  const resultMembers = success.bodyFields.filter((field) => !field.name.includes('.'));
  const requiredResultLines = resultMembers.filter((field) => field.required).map(resultLine);
  const optionalResultLines = resultMembers.filter((field) => !field.required).map(resultLine);
  const fieldsNames = model.actions.map(fieldsClassName);

  const typingCandidates = ['Any', 'Dict', 'List', 'Literal', 'Mapping', 'Optional', 'Sequence', 'Type', 'TypedDict', 'Union'];
  const contractBody = () => contractSource.slice(contractSource.indexOf('from ._errors'));
  let contractSource = `${generatedNotice(version)}
"""The contract's facts the client acts on: each action's fields, the result, and the documented errors."""

from typing import \${typingNames}

from ._errors import ServiceError

__all__ = [
    "CONTRACT_VERSION",
    "KNOWN_ACTIONS",
    "DESCRIPTION",
    "ERROR_CLASSES",
    "ActionResult",
${[...fieldsNames, ...errorClasses.map((source) => source.className)].map((name) => `    ${JSON.stringify(name)},`).join('\n')}
]

#: The version of the contract this package was generated from, and the package's own version.
CONTRACT_VERSION = ${JSON.stringify(version)}

#: Every action this release knows, in the contract's order.
KNOWN_ACTIONS: List[str] = ${pythonLiteral(model.actions.map((action) => action.identifier))}


${model.actions.map((action) => fieldsClasses(contract, action)).join('\n\n\n')}


class _ActionResultRequired(TypedDict):
${requiredResultLines.length === 0 ? '    pass' : requiredResultLines.join('\n')}


class ActionResult(_ActionResultRequired, total=False):
${docstring(`${success.description.trim()}\n\nEvery member the answer carries is kept, those the contract does not name yet too.`, '    ')}
${optionalResultLines.length === 0 ? '' : `\n${optionalResultLines.join('\n')}\n`}

${errorClasses.map((source) => source.text.trimEnd()).join('\n\n\n')}


#: The class each documented error status is raised as.
ERROR_CLASSES: Mapping[int, Type[ServiceError]] = {
${errorClasses.map((source) => `    ${source.status}: ${source.className},`).join('\n')}
}

#: The contract's facts the runtime acts on.
DESCRIPTION: Dict[str, Any] = ${pythonLiteral(pythonDescription(contract))}
`;
  // Only the typing names the module uses are imported, so that a linter finds none unused.
  contractSource = contractSource.replace('${typingNames}', typingCandidates.filter((name) => new RegExp(`\\b${name}\\b`).test(contractBody())).join(', '));

  const methodSources = model.actions.map((action) => {
    const name = pythonMethodName(action.identifier);
    const raises = errorClasses.filter((source) => action.errors.some((error) => error.status === String(source.status))).map((source) => `    ${source.className}: HTTP ${source.status}.`);
    const text = [
      action.title,
      '',
      action.description.trim(),
      '',
      'The fields are checked before anything is sent: an InvalidFieldError names the field and its bound.',
      'The answer keeps every member it carries.',
      ...(raises.length > 0 ? ['', 'Raises:', ...raises] : []),
      ...(action.deprecated ? ['', 'Deprecated: the contract deprecates this action.'] : []),
    ].join('\n');
    return `    def ${name}(self, fields: ${fieldsClassName(action)}, *, timeout: Optional[float] = None) -> ActionResult:\n${docstring(text, '        ')}\n        return self.send(${JSON.stringify(action.identifier)}, fields, timeout=timeout)`;
  });

  const exported = ['__version__', pythonClientClassName, 'AttemptReport', 'Settings', 'ActionResult', 'CONTRACT_VERSION', 'KNOWN_ACTIONS', ...fieldsNames, ...pythonFixedErrorClassNames, ...errorClasses.map((source) => source.className)];
  const initSource = `${generatedNotice(version)}
"""A client of one site's Subscription Lifecycle Action Service: one method per action.

Made from the site's base URL with its scheme (\`\`https://shop.example\`\`, a subdirectory install
\`\`https://example.com/shop\`\`, or \`\`https://shop.example/?rest_route=/\`\` for a site without pretty
permalinks) and the site's API key. A throttled request (HTTP ${contract.throttled.status}) is sent again after its
\`\`${contract.retryAfterHeader}\`\` up to a bound; requests to one site keep a courtesy pace of about one a second.
The key is never printed: not by \`\`repr\`\`, an error's message, a log record or a traceback.
"""

from typing import Any, Mapping, Optional, cast

from ._contract import (
    CONTRACT_VERSION,
    DESCRIPTION,
    ERROR_CLASSES,
    KNOWN_ACTIONS,
    ActionResult,
${[...fieldsNames, ...errorClasses.map((source) => source.className)].map((name) => `    ${name},`).join('\n')}
)
from ._core import AttemptHook, AttemptReport, ClientCore, Settings
from ._errors import (
${[...pythonFixedErrorClassNames].sort().map((name) => `    ${name},`).join('\n')}
)

__version__ = CONTRACT_VERSION

__all__ = [
${exported.map((name) => `    ${JSON.stringify(name)},`).join('\n')}
]


class ${pythonClientClassName}:
${docstring(`Sends actions to one site.\n\nOptions, each defaulting to the errors guide's retry policy: \`\`timeout\`\` (seconds one attempt may take),\n\`\`pace\`\` (seconds between two requests to the same site, across every client in the process; 0 switches it off),\n\`\`max_attempts\`\` (1 sends each request once), \`\`max_retry_wait\`\` (the longest \`\`${contract.retryAfterHeader}\`\` waited for, in seconds),\n\`\`user_agent\`\`, and \`\`on_attempt\`\`, called with an AttemptReport after each attempt.`, '    ')}

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: Optional[float] = None,
        pace: Optional[float] = None,
        max_attempts: Optional[int] = None,
        max_retry_wait: Optional[float] = None,
        user_agent: Optional[str] = None,
        on_attempt: Optional[AttemptHook] = None,
    ) -> None:
        self._core = ClientCore(
            DESCRIPTION,
            ERROR_CLASSES,
            base_url,
            api_key,
            timeout=timeout,
            pace=pace,
            max_attempts=max_attempts,
            max_retry_wait=max_retry_wait,
            user_agent=user_agent,
            on_attempt=on_attempt,
        )

    @property
    def settings(self) -> Settings:
        """The settings this client applies, defaults filled in: the endpoint's URL, the timeout, the pace, the bounds."""
        return self._core.settings

    def __repr__(self) -> str:
        return f"${pythonClientClassName}(endpoint={self._core.settings.endpoint!r})"

    def send(self, action: str, fields: Mapping[str, Any], *, timeout: Optional[float] = None) -> ActionResult:
        """Sends any action by its name: one this release knows, or one a later release adds, sent as given with its subscription checked."""
        return cast(ActionResult, self._core.send(action, fields, timeout))

${methodSources.join('\n\n')}
`;
  return new Map([
    ['_contract.py', contractSource],
    ['__init__.py', initSource],
  ]);
}

/** Writes the import package (runtime and generated modules) into `directory/<import name>/`; returns the files written, relative to `directory`. */
export function writePythonPackage(contract: ExecutableContract, directory: string): string[] {
  const packageDirectory = path.join(directory, pythonImportName);
  mkdirSync(packageDirectory, { recursive: true });
  const written: string[] = [];
  for (const file of readdirSync(pythonRuntimeDirectory).filter((name) => name.endsWith('.py') || name === 'py.typed').sort()) {
    copyFileSync(path.join(pythonRuntimeDirectory, file), path.join(packageDirectory, file));
    written.push(`${pythonImportName}/${file}`);
  }
  for (const [file, source] of generatePythonSources(contract)) {
    writeFileSync(path.join(packageDirectory, file), source);
    written.push(`${pythonImportName}/${file}`);
  }
  return written.sort();
}

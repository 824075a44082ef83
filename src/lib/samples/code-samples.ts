import type { Endpoint } from '../contract/model.ts';
import type { LibraryCall } from './action-sample/library-call.ts';
import { phpLibrarySample } from './action-sample/php-library.ts';
import { typescriptLibrarySample } from './action-sample/typescript-library.ts';
import { pythonLibrarySample } from './action-sample/python-library.ts';
import { curlSample } from './action-sample/curl.ts';
import { javascriptSample } from './action-sample/javascript.ts';
import { phpSample } from './action-sample/php.ts';
import { pythonSample } from './action-sample/python.ts';
import { wordpressSample } from './action-sample/wordpress.ts';
import type { SampleStatuses } from './sample-statuses.ts';

/**
 * The languages the action pages show a sample in, in the order of their tabs. Pages, the
 * sample tests and the browser tests all read this list. Plain PHP uses the curl extension
 * rather than Guzzle: it needs no Composer package, and Guzzle itself sends through it wherever
 * the extension is installed, so a shop that can run Guzzle can run this. A `library` sample
 * calls one of the client libraries (/clients/php/, /clients/typescript/, /clients/python/) and needs it installed.
 */
export const sampleLanguages = [
  { language: 'curl', label: 'curl', highlight: 'sh', extension: 'sh', wordSeparator: '-', library: false },
  // An ES module with top-level await, whatever the reader's package.json says.
  { language: 'javascript', label: 'JavaScript', highlight: 'js', extension: 'mjs', wordSeparator: '-', library: false },
  { language: 'php', label: 'PHP', highlight: 'php', extension: 'php', wordSeparator: '-', library: false },
  { language: 'wordpress', label: 'WordPress', highlight: 'php', extension: 'php', wordSeparator: '-', library: false },
  // A Python module name takes no hyphen.
  { language: 'python', label: 'Python', highlight: 'python', extension: 'py', wordSeparator: '_', library: false },
  { language: 'php-library', label: 'PHP library', highlight: 'php', extension: 'php', wordSeparator: '-', library: true },
  // Plain JavaScript that is TypeScript too, saved as an ES module so Node runs it as written.
  { language: 'typescript-library', label: 'TypeScript client', highlight: 'ts', extension: 'mjs', wordSeparator: '-', library: true },
  { language: 'python-library', label: 'Python library', highlight: 'python', extension: 'py', wordSeparator: '_', library: true },
] as const;

export type SampleLanguage = (typeof sampleLanguages)[number]['language'];

/** The languages' names alone, in the order of the tabs: what a tool or a test takes as input. */
export const sampleLanguageNames = sampleLanguages.map((entry) => entry.language) as [SampleLanguage, ...SampleLanguage[]];

/** The tab label and highlighting of a language. */
export function sampleLanguage(language: SampleLanguage): (typeof sampleLanguages)[number] {
  const found = sampleLanguages.find((candidate) => candidate.language === language);
  if (found === undefined) throw new Error(`No sample language ${language}`);
  return found;
}

/** The file a sample of the language is saved as: `sampleFileName('python', 'retrying-client')` is `retrying_client.py`. */
export function sampleFileName(language: SampleLanguage, stem: string): string {
  const { extension, wordSeparator } = sampleLanguage(language);
  return `${stem.replaceAll('-', wordSeparator)}.${extension}`;
}

export interface CodeSample {
  language: SampleLanguage;
  /** The tab label. */
  label: string;
  /** The Expressive Code language used to highlight it. */
  highlight: string;
  code: string;
}

export type { LibraryCall } from './action-sample/library-call.ts';

const writers: Record<SampleLanguage, (endpoint: Endpoint, body: Record<string, unknown>, statuses: SampleStatuses, call: LibraryCall) => string> = {
  curl: curlSample,
  javascript: javascriptSample,
  php: phpSample,
  wordpress: wordpressSample,
  python: pythonSample,
  'php-library': phpLibrarySample,
  'typescript-library': typescriptLibrarySample,
  'python-library': pythonLibrarySample,
};

/**
 * An action's sample in every language of `sampleLanguages`, generated from its request example;
 * `call` (the model's envelope and the action's fields) says which of the body's fields a
 * library's method takes, and in what order.
 */
export function codeSamples(endpoint: Endpoint, body: Record<string, unknown>, statuses: SampleStatuses, call: LibraryCall): CodeSample[] {
  return sampleLanguages.map(({ language, label, highlight }) => ({ language, label, highlight, code: writers[language](endpoint, body, statuses, call) }));
}

import { parseArgs } from 'node:util';

/** What the commands that pack a package take: where to write it, and the repository npm's provenance names. */
export interface PackOptions {
  out?: string;
  repository?: string;
}

/**
 * Reads `--out DIR` and `--repository URL`. Returns the exit code instead when the command ends
 * here: 0 after printing the usage for `--help`, 2 after naming a wrong option.
 */
export function readPackOptions(usage: string): PackOptions | number {
  try {
    const { values } = parseArgs({ options: { out: { type: 'string' }, repository: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
    if (values.help === true) {
      console.log(usage);
      return 0;
    }
    return { ...(values.out === undefined ? {} : { out: values.out }), ...(values.repository === undefined ? {} : { repository: values.repository }) };
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
}

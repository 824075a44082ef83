import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { pointerFrom, pointerSegments } from '../lib/contract/json-pointer.ts';

/** A place in the contract's source: the file a maintainer opens, and the line when known. */
export interface SourcePlace {
  file: string;
  line?: number;
}

/**
 * Tells where in the source files under `openapi/` the node at a JSON pointer of the bundled
 * document was written, so that a problem found in the bundle names the file to open.
 */
export type SourceLocator = (pointer: string) => SourcePlace;

export { pointerFrom, pointerSegments };

interface ParsedFile {
  contents: Node | null;
  lineCounter: LineCounter;
}

interface Position {
  file: string;
  node: Node | null | undefined;
  /** Offset of what led here: the key of a mapping entry, or the node itself. */
  offset: number | undefined;
}

/**
 * Redocly's bundler names every component after the file it came from
 * (`components/schemas/ApiKey.yaml` becomes `#/components/schemas/ApiKey`), so a component's
 * pointer leads straight to its file. From there, or from the root file for anything that is not
 * a component, the source is walked segment by segment, following each `$ref` into the file it
 * names, as the bundler did.
 */
export function createSourceLocator(projectDirectory: string, root: string): SourceLocator {
  const rootFile = path.resolve(projectDirectory, root);
  const contractDirectory = path.dirname(rootFile);
  const parsedFiles = new Map<string, ParsedFile>();

  const read = (file: string): ParsedFile => {
    let parsed = parsedFiles.get(file);
    if (parsed === undefined) {
      const lineCounter = new LineCounter();
      parsed = { contents: parseDocument(readFileSync(file, 'utf8'), { lineCounter }).contents, lineCounter };
      parsedFiles.set(file, parsed);
    }
    return parsed;
  };

  /** The entry `segment` of a mapping or sequence, and where its key was written. */
  const descend = (node: Node | null | undefined, segment: string): { node: Node | null | undefined; offset: number | undefined } | undefined => {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (pair === undefined) return undefined;
      const key = isScalar(pair.key) ? pair.key : undefined;
      return { node: pair.value as Node | null, offset: key?.range?.[0] };
    }
    if (isSeq(node)) {
      const item = node.items[Number(segment)] as Node | undefined;
      return item === undefined ? undefined : { node: item, offset: item.range?.[0] };
    }
    return undefined;
  };

  /** Follows `$ref`s into other files until a node that is not such a reference. */
  const followFileReferences = (position: Position): Position => {
    let current = position;
    for (let hops = 0; hops < 32; hops += 1) {
      const reference = isMap(current.node) ? current.node.get('$ref') : undefined;
      if (typeof reference !== 'string' || reference.startsWith('#')) return current;
      const [target = '', fragment = ''] = reference.split('#');
      const file = path.resolve(path.dirname(current.file), target);
      let next: Position = { file, node: read(file).contents, offset: undefined };
      for (const segment of pointerSegments(`#${fragment}`)) {
        const step = descend(next.node, segment);
        if (step === undefined) return next;
        next = { file, ...step };
      }
      current = next;
    }
    return current;
  };

  const walk = (startFile: string, segments: readonly string[]): Position => {
    let current: Position = { file: startFile, node: read(startFile).contents, offset: undefined };
    for (const segment of segments) {
      current = followFileReferences(current);
      const step = descend(current.node, segment);
      if (step === undefined) return current;
      current = { file: current.file, ...step };
    }
    // The node the pointer names is where it is written: a `$ref` there is the referring node,
    // whose target (a shared schema, say) is not where the problem is.
    return current;
  };

  const place = (position: Position): SourcePlace => {
    const file = path.relative(projectDirectory, position.file).split(path.sep).join('/');
    if (position.offset === undefined) return { file };
    return { file, line: read(position.file).lineCounter.linePos(position.offset).line };
  };

  return (pointer) => {
    const segments = pointerSegments(pointer);
    try {
      if (segments[0] === 'components' && segments.length >= 3) {
        const [, kind = '', name = '', ...inside] = segments;
        const componentFile = path.join(contractDirectory, 'components', kind, `${name}.yaml`);
        // A component is its whole file: its root is at the file's first line.
        if (existsSync(componentFile)) return inside.length === 0 ? { ...place(walk(componentFile, inside)), line: 1 } : place(walk(componentFile, inside));
      }
      return place(walk(rootFile, segments));
    } catch {
      // The bundler has just read every one of these files, so this only happens when one
      // changed since; the root is still the right place to start looking.
      return place({ file: rootFile, node: undefined, offset: undefined });
    }
  };
}

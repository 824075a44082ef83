/**
 * The rooms of the code and the doors between them: each room lists the rooms it may import from.
 * tests/unit/import-boundaries.test.ts holds every import to this table, and
 * tests/unit/architecture-map.test.ts holds docs/architecture.md's map to it, so the page, the
 * table and the code cannot drift apart.
 */

export interface Room {
  /** Where the room is, as a path prefix from the project's root. */
  path: string;
  /** What it may import besides itself: room paths, or packages' root files such as `package.json`. */
  mayImport: string[];
}

/** What every room may read: the model, HTTP facts and the loose files of src/lib/. */
export const bottom = ['src/lib/contract/', 'src/lib/http/', 'src/lib/prose.ts', 'src/lib/spec-rules.ts', 'src/lib/product-facts.ts', 'src/lib/node-engine.ts', 'src/lib/packaging/', 'src/lib/local-servers.ts', 'src/lib/measures/', 'package.json'];
/** The libraries the servers and tools build on. */
export const library = [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/lib/site/', 'src/lib/workflows/', 'src/site-config.ts'];

/** Most specific first: a file belongs to the first room whose path it starts with. */
export const rooms: Room[] = [
  // The model reads the document and nothing else of the project.
  { path: 'src/lib/contract/', mayImport: bottom },
  { path: 'src/lib/http/', mayImport: [] },
  // The releases read the model; the gate, which judges them, is a consumer above both.
  { path: 'src/lib/releases/', mayImport: bottom },
  { path: 'src/lib/samples/', mayImport: bottom },
  // The lifecycle as workflows: the model, and the one retry policy for the throttled workflow.
  { path: 'src/lib/workflows/', mayImport: [...bottom, 'src/lib/samples/'] },
  { path: 'src/lib/site/', mayImport: [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/site-config.ts'] },
  { path: 'src/lib/', mayImport: bottom },
  // The gate of `npm run lint` and of every loader of the contract: a consumer of the model and the releases,
  // which runs what the consumers derive from the contract so that it refuses first whatever they would
  // refuse: the samples' statuses and the route arguments (a file of the sandbox that imports only the model).
  // It also reads the site's routes, to check the links of the descriptions (navigation.ts imports only the model).
  // It writes and checks the lifecycle's Arazzo workflows, which the site publishes beside the bundle,
  // and holds the client libraries' surfaces, generated from the contract, to the latest release's record.
  { path: 'src/gate/', mayImport: [...bottom, 'src/lib/releases/', 'src/lib/samples/', 'src/lib/site/navigation.ts', 'src/lib/workflows/', 'src/clients/surface/', 'src/clients/typescript/surface-compiler.ts', 'src/clients/shared/method-names.ts'] },
  { path: 'src/sandbox/', mayImport: [...library, 'src/gate/'] },
  { path: 'src/conformance/', mayImport: [...library, 'src/sandbox/'] },
  // The server's evaluation judges answers about the client libraries and the conformance suite by the names
  // they give in code (an exception's class, a getter, an exit code), read where those are defined.
  {
    path: 'src/mcp-server/evaluation/',
    mayImport: [...library, 'src/sandbox/', 'src/gate/', 'src/mcp-server/', 'src/clients/php/exception-classes.ts', 'src/clients/typescript/generate.ts', 'src/conformance/exit-codes.ts'],
  },
  { path: 'src/mcp-server/', mayImport: [...library, 'src/sandbox/', 'src/gate/'] },
  // The plugin zip is published beside the other downloads and held to the PHP floor the PHP client's checker proves.
  { path: 'src/wordpress/', mayImport: [...library, 'src/sandbox/', 'src/conformance/', 'src/contract-tools/tools-package.ts', 'src/clients/php/php-74-syntax.ts'] },
  { path: 'src/contract-tools/', mayImport: [...library, 'src/sandbox/', 'src/conformance/', 'src/gate/'] },
  { path: 'src/host/', mayImport: library },
  // Redocly's Respect run against a sandbox at build time, for the workflows page.
  { path: 'src/respect/', mayImport: [...library, 'src/sandbox/'] },
  // The client libraries are generated from the model, and packed from the contract as the gate passed it (the sandbox's loader).
  // The TypeScript client's runtime is copied into the published package as it is: it may read only the one
  // reading of Retry-After, which the package carries beside it.
  { path: 'src/clients/typescript/runtime/', mayImport: ['src/lib/http/retry-after.ts'] },
  // The libraries' public surfaces: every generator's output read as a caller sees it, for the gate and the releases.
  { path: 'src/clients/surface/', mayImport: [...library, 'src/clients/php/', 'src/clients/typescript/', 'src/clients/python/'] },
  { path: 'src/clients/', mayImport: [...library, 'src/gate/', 'src/sandbox/', 'src/contract-tools/tools-package.ts', 'src/clients/surface/'] },
  { path: 'src/bench/', mayImport: [...library, 'src/sandbox/', 'src/mcp-server/', 'src/host/'] },
  // The site: pages, components and guides may read any room of src/, never scripts/ or tests/.
  { path: 'src/', mayImport: ['src/', 'package.json'] },
  // Thin entry points: any room of src/, and the rule map's checks in tests/spec/.
  { path: 'scripts/', mayImport: ['src/', 'scripts/', 'tests/spec/', 'package.json'] },
];

export function roomOf(file: string): Room | undefined {
  return rooms.find((room) => file.startsWith(room.path));
}

/** A room's doors, with the shared lists named: `library, src/sandbox/` rather than fifteen paths. */
function doorsInWords(doors: readonly string[]): string {
  const named = (
    [
      ['library', library],
      ['bottom', bottom],
    ] as const
  ).find(([, group]) => group.every((door, index) => doors[index] === door));
  const rest = named === undefined ? doors : doors.slice(named[1].length);
  const words = [...(named === undefined ? [] : [named[0]]), ...rest];
  return words.length === 0 ? '(nothing)' : words.join(', ');
}

/** The map docs/architecture.md shows between its `rooms` markers, written from the table. */
export function roomMap(): string {
  const width = Math.max(...rooms.map((room) => room.path.length));
  return [
    `bottom  = ${bottom.join(', ')}`,
    `library = bottom, ${library.slice(bottom.length).join(', ')}`,
    '',
    ...rooms.map((room) => `${room.path.padEnd(width)} → ${doorsInWords(room.mayImport)}`),
  ].join('\n');
}

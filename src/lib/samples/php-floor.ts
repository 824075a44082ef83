/**
 * The oldest PHP every PHP sample and client on the site runs on: WooCommerce's own minimum, so
 * any shop's server can run what a page shows. The pages state it from here, and the tests parse
 * every PHP sample and the packed library at this version (src/clients/php/php-74-syntax.ts).
 */
export const phpFloor = {
  version: '7.4',
  /** Why this version, for a reader. */
  reason: "WooCommerce's own minimum",
} as const;

/** How the pages and the samples' opening comments name the floor: `PHP 7.4 or newer`. */
export const phpFloorPhrase = `PHP ${phpFloor.version} or newer`;

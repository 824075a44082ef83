/**
 * The byte handling the sandbox needs, without Node's `Buffer`, so that the same stages run in a
 * browser's worker.
 */

/**
 * ISO-8859-1, one character per byte, as PHP reads a form body. A browser's
 * `TextDecoder('latin1')` is windows-1252 (0x80 to 0x9F become other characters), so it is not used.
 */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  // In slices, so that a large body does not pass the engine's limit on a call's arguments.
  for (let start = 0; start < bytes.length; start += 8192) {
    text += String.fromCharCode(...bytes.subarray(start, start + 8192));
  }
  return text;
}

const utf8 = new TextEncoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8.encode(text);
}

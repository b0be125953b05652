/** How many leading bytes {@link looksBinary} inspects, as git does. */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * True when the first {@link BINARY_SNIFF_BYTES} bytes hold a NUL byte, the test git uses
 * to tell binary files from text.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** How many leading bytes of a file decide whether it is text (as git does, 8 KiB). */
export const TEXT_SNIFF_BYTES = 8192;

/**
 * True when `bytes` are not UTF-8 text: they hold a NUL byte or a sequence that is not valid UTF-8. Only UTF-8 is text
 * here (a UTF-8 BOM is fine; UTF-16 holds NUL bytes, so it counts as binary). All of `bytes` is checked: pass the
 * window you mean, e.g. `bytes.subarray(0, TEXT_SNIFF_BYTES)`.
 * @param options.complete `true` when `bytes` are the whole file; `false` for a prefix, where a multi-byte character
 * cut at the end is not an error (an invalid byte there still is).
 * @example isBinaryContent(Buffer.from("caf\u00e9"), { complete: true }) // false
 */
export function isBinaryContent(bytes: Uint8Array, options: { complete: boolean }): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !options.complete });
    return false;
  } catch {
    return true;
  }
}

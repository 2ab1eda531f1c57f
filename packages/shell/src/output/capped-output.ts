/**
 * Keeps the first `headBytes` and the last `tailBytes` of a byte stream, counting the rest, so any amount of output
 * costs at most head + tail bytes of memory.
 */
export class CappedOutput {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly tail: Buffer;
  private tailStart = 0;
  private tailLength = 0;
  /** Bytes seen in all. */
  totalBytes = 0;

  /** @param limitBytes bytes kept in all (half head, half tail) @default 16384 */
  constructor(limitBytes = 16_384) {
    const headBytes = Math.ceil(limitBytes / 2);
    this.head = Buffer.alloc(headBytes);
    this.tail = Buffer.alloc(limitBytes - headBytes);
  }

  /** Adds a chunk. */
  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    let offset = 0;
    if (this.headLength < this.head.length) {
      offset = chunk.copy(this.head, this.headLength, 0, Math.min(chunk.length, this.head.length - this.headLength));
      this.headLength += offset;
    }
    const capacity = this.tail.length;
    if (capacity === 0 || offset >= chunk.length) return;
    const rest = chunk.subarray(offset);
    if (rest.length >= capacity) {
      rest.copy(this.tail, 0, rest.length - capacity);
      this.tailStart = 0;
      this.tailLength = capacity;
      return;
    }
    let written = 0;
    while (written < rest.length) {
      const writeAt = (this.tailStart + this.tailLength) % capacity;
      const count = Math.min(rest.length - written, capacity - writeAt);
      rest.copy(this.tail, writeAt, written, written + count);
      written += count;
      const length = this.tailLength + count;
      if (length > capacity) {
        this.tailStart = (this.tailStart + length - capacity) % capacity;
        this.tailLength = capacity;
      } else this.tailLength = length;
    }
  }

  /** Bytes left out of {@link text}. */
  get omittedBytes(): number {
    return this.totalBytes - this.headLength - this.tailLength;
  }

  /** True when some output was left out. */
  get truncated(): boolean {
    return this.omittedBytes > 0;
  }

  /** The kept output as UTF-8: head, a `[... N bytes truncated ...]` marker when output was dropped, tail. */
  text(): string {
    const tail = Buffer.concat([
      this.tail.subarray(this.tailStart, Math.min(this.tailStart + this.tailLength, this.tail.length)),
      this.tail.subarray(0, Math.max(0, this.tailStart + this.tailLength - this.tail.length)),
    ]);
    const head = this.head.subarray(0, this.headLength);
    if (!this.truncated) return Buffer.concat([head, tail]).toString("utf8");
    return `${trimIncompleteEnd(head).toString("utf8")}\n[... ${this.omittedBytes} bytes truncated ...]\n${trimIncompleteStart(tail).toString("utf8")}`;
  }
}

function trimIncompleteStart(buffer: Buffer): Buffer {
  let start = 0;
  while (start < buffer.length && start < 3 && ((buffer[start] as number) & 0xc0) === 0x80) start += 1;
  return buffer.subarray(start);
}

function trimIncompleteEnd(buffer: Buffer): Buffer {
  // drop a trailing multi-byte sequence that was cut
  for (let back = 1; back <= Math.min(4, buffer.length); back += 1) {
    const byte = buffer[buffer.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const expected = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return expected > back ? buffer.subarray(0, buffer.length - back) : buffer;
  }
  return buffer;
}

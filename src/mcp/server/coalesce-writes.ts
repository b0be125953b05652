import { Writable } from 'node:stream';

/**
 * A stream that writes to `target` what was written to it during one turn of the event
 * loop in one `write` (one system call for a pipe), at the end of that turn
 * (`setImmediate`), in order. Responses that become ready together (several calls whose
 * upstream results arrived in one chunk) then leave together. A chunk is handed to `target`
 * once `target` no longer asks to wait for `drain`; until then chunks queue here, and
 * `write` never returns false, so writers never wait for `drain` (nor add listeners). Errors of `target` destroy this stream with the
 * same error, so its users see them. Ending it writes what is pending and leaves `target`
 * open.
 */
export function coalesceWrites(target: Writable): Writable {
  let pending: Buffer[] = [];
  let scheduled: ReturnType<typeof setImmediate> | undefined;
  const flush = (): void => {
    if (scheduled !== undefined) {
      clearImmediate(scheduled);
      scheduled = undefined;
    }
    if (pending.length === 0) return;
    const data = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
    pending = [];
    target.write(data);
  };
  const stream = new Writable({
    // Never asks its writers to wait: the SDK's stdio transport adds an `error` and a `drain`
    // listener per message while its stream asks to wait, so a client that reads slowly
    // while a server sends thousands of notifications piled up listeners (and printed
    // MaxListenersExceededWarning). Flow control to the target is this stream's own: one
    // chunk at a time, one `drain` listener at most.
    highWaterMark: Number.MAX_SAFE_INTEGER,
    decodeStrings: true,
    write(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      scheduled ??= setImmediate(flush);
      if (target.writableNeedDrain) target.once('drain', () => done());
      else done();
    },
    final(done) {
      flush();
      done();
    },
    destroy(error, done) {
      flush();
      target.off('error', onTargetError);
      done(error);
    },
  });
  const onTargetError = (error: Error): void => {
    stream.destroy(error);
  };
  target.on('error', onTargetError);
  return stream;
}

import { Writable } from 'node:stream';

/**
 * A stream that writes to `target` what was written to it during one turn of the event
 * loop in one `write` (one system call for a pipe), at the end of that turn
 * (`setImmediate`), in order. Responses that become ready together (several calls whose
 * upstream results arrived in one chunk) then leave together. A chunk is accepted at once
 * unless `target` asks to wait for `drain`. Errors of `target` destroy this stream with the
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

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stdoutWriter } from './stdoutWriter.js';

/** A stand-in for process.stdout that records what it is given. */
function fakeStream(buffered = 0) {
  const written: string[] = [];
  return { written, writableLength: buffered, write: (t: string) => written.push(t) };
}

describe('stdoutWriter', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'ashlar-stdout-'));
    dirs.push(dir);
    const path = join(dir, 'out.log');
    return { path, fd: openSync(path, 'w') };
  };

  it('writes straight to a regular file, in order, without the stream', () => {
    const { path, fd } = tempFile();
    const stream = fakeStream();
    const write = stdoutWriter(fd, stream);
    write('Transaction 0x01  transfer\n');
    write('Transaction 0x02  transfer\n');
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe('Transaction 0x01  transfer\nTransaction 0x02  transfer\n');
    expect(stream.written).toEqual([]);
  });

  it('queues behind the stream while it holds unwritten data, so lines keep their order', () => {
    const { path, fd } = tempFile();
    const stream = fakeStream(12);
    const write = stdoutWriter(fd, stream);
    write('after the banner\n');
    closeSync(fd);
    expect(stream.written).toEqual(['after the banner\n']);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('hands a failed write to the stream (a file open for reading only)', () => {
    const { path, fd } = tempFile();
    closeSync(fd);
    const readOnly = openSync(path, 'r');
    const stream = fakeStream();
    const write = stdoutWriter(readOnly, stream);
    write('line\n');
    closeSync(readOnly);
    expect(stream.written).toEqual(['line\n']);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('uses the stream for anything but a regular file (a descriptor that is no file at all)', () => {
    const stream = fakeStream();
    const write = stdoutWriter(987_654, stream);
    write('line\n');
    expect(stream.written).toEqual(['line\n']);
  });
});

import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { AshlarError, ErrorCodes, type StoragePort } from '@ashlar/core';
import { ClassicLevel } from 'classic-level';

export interface LevelStorageOptions {
  /** Directory of the LevelDB database (created if missing). */
  path: string;
}

/** Persistent storage on LevelDB (classic-level): reopening the path resumes the chain. */
export function levelStorage(options: LevelStorageOptions): StoragePort {
  const path = resolve(options.path);
  const db = new ClassicLevel<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view' });
  return {
    kind: 'level',
    location: path,
    db,
    async open() {
      try {
        mkdirSync(path, { recursive: true });
        await db.open();
      } catch (e) {
        const cause = e as { code?: string; cause?: { message?: string }; message?: string };
        const why = cause.cause?.message ?? cause.message ?? String(e);
        const locked = /lock/i.test(why);
        throw new AshlarError(
          ErrorCodes.STORAGE,
          locked
            ? `cannot open database at ${path}: it is in use by another process`
            : `cannot open database at ${path}: ${why}`,
          { cause: e },
        );
      }
    },
    async close() {
      if (db.status === 'open' || db.status === 'opening') await db.close();
    },
  };
}

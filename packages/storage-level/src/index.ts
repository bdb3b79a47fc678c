// @ashlar/storage-level: the storage port on LevelDB (classic-level) or in memory (memory-level).
export { levelStorage, type LevelStorageOptions } from './levelStorage.js';
export { memoryStorage } from '@ashlar/core';

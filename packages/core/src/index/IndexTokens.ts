// The index's token, apart from its installer (installIndex.ts) so the kernel's service map can
// name it without importing the plugin context (no import cycle).
import { type Token, token } from '../di/container.js';
import type { IndexService } from './IndexService.js';

export const IndexTokens = {
  index: token<IndexService>('ashlar:index'),
} satisfies Record<string, Token<unknown>>;

import type { Kernel } from '@ashlar/core';
import type { Body } from './explorerChain.js';

/** POST through the kernel's REST routes (what the HTTP transport serves), body JSON round-tripped. */
export async function apiPost(kernel: Kernel, path: string, body: unknown): Promise<{ status: number; body: Body }> {
  const u = new URL(path, 'http://explorer.test');
  const found = kernel.routes.lookup('POST', u.pathname);
  if (!found) return { status: 404, body: { message: 'Not found' } };
  const res = await found.handler({
    method: 'POST',
    path: u.pathname,
    params: found.params,
    query: u.searchParams,
    body,
  });
  return { status: res.status, body: JSON.parse(JSON.stringify(res.body)) };
}

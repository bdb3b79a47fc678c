/**
 * The explorer's route kit as a plugin author uses it (issue #22): a custom paginated route
 * built only from `@ashlar/explorer`'s exports (ExplorerRouter, pageOf, PAGE_SIZE, cursors,
 * parse* helpers, invalidParam, notFound), served over HTTP next to the explorer. It must answer
 * in Blockscout's shapes: `{ items, next_page_params }` pages of 50 whose params, sent back as
 * the query, continue right after the last item; 422 `{ errors: [{ title, source: { pointer },
 * detail }] }` for a bad parameter; 404 `{ message: 'Not found' }`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKernel, definePlugin, indexPlugin, type Kernel, type Plugin } from '@ashlar/core';
import {
  bigIntCursor,
  ExplorerRouter,
  explorerPlugin,
  notFound,
  PAGE_SIZE,
  type Page,
  pageOf,
  parseAddress,
  parseUint,
} from '@ashlar/explorer';
import { createHttpHandler } from '@ashlar/transport-http';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Note {
  id: bigint;
  author: string;
  text: string;
}

/** The plugin of docs/plugins.md: 120 notes, newest first, paged by `id`. */
function notesPlugin(notes: Note[]): Plugin<unknown> {
  return definePlugin({
    name: 'acme-notes',
    dependencies: ['explorer'],
    register(ctx) {
      const r = new ExplorerRouter(ctx.routes, ctx.logger);
      r.get('/acme/notes', async (req): Promise<Page<{ id: string; text: string }>> => {
        const before = bigIntCursor(req.query, 'id');
        const rows = notes
          .filter((n) => before === undefined || n.id < before)
          .sort((a, b) => (a.id < b.id ? 1 : -1))
          .slice(0, PAGE_SIZE + 1);
        return pageOf(
          rows,
          (shown) => shown.map((n) => ({ id: n.id.toString(), text: n.text })),
          (last) => ({ id: last.id.toString() }),
        );
      });
      r.get('/acme/notes/:id', (req) => {
        const id = parseUint(req.params.id, 'id');
        const note = notes.find((n) => n.id === id);
        if (!note) throw notFound();
        return { id: note.id.toString(), author: note.author, text: note.text };
      });
      r.get('/acme/authors/:address/notes', (req) => {
        const author = bytesToHex(parseAddress(req.params.address, 'address_hash_param'));
        return { items: notes.filter((n) => n.author === author).map((n) => n.id.toString()) };
      });
    },
  }) as Plugin<unknown>;
}

describe('a custom explorer route plugin built from the route kit', () => {
  const author = `0x${'ab'.repeat(20)}`;
  const notes: Note[] = Array.from({ length: 120 }, (_, i) => ({ id: BigInt(i + 1), author, text: `note ${i + 1}` }));
  let kernel: Kernel;
  let server: ReturnType<typeof createServer>;
  let base: string;
  beforeAll(async () => {
    kernel = await createKernel({
      plugins: [indexPlugin(), explorerPlugin(), notesPlugin(notes)] as Plugin<unknown>[],
    });
    server = createServer(createHttpHandler({ engine: kernel, routes: kernel.routes }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await kernel.close();
  });

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: await res.json() };
  };

  it('pages of 50 whose next_page_params continue after the last item, null on the last page', async () => {
    const seen: string[] = [];
    let query = '';
    const pages: number[] = [];
    for (;;) {
      const { status, body } = await get(`/acme/notes${query}`);
      expect(status).toBe(200);
      seen.push(...body.items.map((n: { id: string }) => n.id));
      pages.push(body.items.length);
      if (body.next_page_params === null) break;
      expect(body.next_page_params).toEqual({ id: body.items[body.items.length - 1].id });
      query = `?${new URLSearchParams(body.next_page_params).toString()}`;
    }
    expect(pages).toEqual([50, 50, 20]);
    expect(seen).toEqual(notes.map((n) => n.id.toString()).reverse());
  });

  it('a bad parameter is a 422 in Blockscout shape, an unknown id a 404', async () => {
    expect(await get('/acme/notes?id=ten')).toEqual({
      status: 422,
      body: {
        errors: [
          { title: 'Invalid value', source: { pointer: '/id' }, detail: expect.stringMatching(/^Invalid integer/) },
        ],
      },
    });
    expect(await get('/acme/authors/0x1234/notes')).toEqual({
      status: 422,
      body: {
        errors: [
          {
            title: 'Invalid value',
            source: { pointer: '/address_hash_param' },
            detail: 'Invalid format. Expected ~r/^0x([A-Fa-f0-9]{40})$/',
          },
        ],
      },
    });
    expect(await get('/acme/notes/999')).toEqual({ status: 404, body: { message: 'Not found' } });
    expect(await get('/acme/notes/7')).toEqual({ status: 200, body: { id: '7', author, text: 'note 7' } });
    expect((await get(`/acme/authors/${author}/notes`)).body.items).toHaveLength(120);
  });

  it('the explorer itself still answers beside the plugin', async () => {
    const { status, body } = await get('/blocks/0');
    expect(status).toBe(200);
    expect(body.height).toBe(0);
  });
});

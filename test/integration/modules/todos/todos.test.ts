import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../support/databases.js';
import { suiteTestApp } from '../../../support/suite-app.js';

describe.each(DIALECTS)('to-do API (%s)', (dialect) => {
  const t = suiteTestApp({ dialect }, ['todos']);

  const create = async (body: object) => t.api({ method: 'POST', url: '/api/to_do_list', payload: body });
  const put = (id: number, body: object) =>
    t.api({ method: 'PUT', url: `/api/to_do_list/${id}`, payload: body });
  const details = (res: { json(): { error: { details: Array<{ field: string; code: string }> } } }) =>
    res.json().error.details.map((d) => `${d.field}:${d.code}`);

  it('creates with defaults and returns every field', async () => {
    const res = await create({ title: 'Write report' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      title: 'Write report',
      description: null,
      link: null,
      dueDate: null,
      isCompleted: false,
    });
    expect(res.json().data.id).toBeTypeOf('number');
  });

  it('stores every field given at creation in its own column', async () => {
    const body = {
      title: 'T',
      description: 'D',
      link: 'https://example.com/l',
      dueDate: '2025-04-05T06:07:08.000Z',
      isCompleted: true,
    };
    const created = (await create(body)).json().data;
    expect(created).toMatchObject(body);
    expect(created.createdAt).toBe(created.updatedAt);
    const read = await t.api({ method: 'GET', url: `/api/to_do_list/${created.id}` });
    expect(read.json().data).toEqual(created);
  });

  it('removes tags, escapes the title and never escapes twice on re-save', async () => {
    const res = await create({
      title: '<b>Fix</b> "login" & <script>alert(1)</script>Tom\'s <i>bug</i>',
      description: '<p>Line one</p>\nLine <em>two</em> & more\n<img src=x onerror=alert(1)>',
    });
    const item = res.json().data;
    expect(item.title).toBe('Fix &quot;login&quot; &amp; Tom&#39;s bug');
    expect(item.description).toBe('Line one\nLine two & more\n');
    const resaved = await put(item.id, { title: item.title, description: item.description });
    expect(resaved.json().data.title).toBe(item.title);
    expect(resaved.json().data.description).toBe(item.description);
    const again = await put(item.id, { title: resaved.json().data.title });
    expect(again.json().data.title).toBe(item.title);
  });

  it('does not let encoded tags through', async () => {
    const res = await create({ title: 'A &lt;script&gt;alert(1)&lt;/script&gt; B' });
    expect(res.json().data.title).toBe('A  B');
  });

  it('refuses a title that is empty once cleaned', async () => {
    const res = await create({ title: '<b></b>  ' });
    expect(res.statusCode).toBe(400);
    expect(details(res)).toEqual(['title:EMPTY_FIELD']);
  });

  it('measures the title limit after tag removal and before escaping', async () => {
    const ok = await create({ title: `<b>${'&'.repeat(255)}</b>` });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.title).toBe('&amp;'.repeat(255));
    const tooLong = await create({ title: 'a'.repeat(256) });
    expect(details(tooLong)).toEqual(['title:STRING_TOO_LONG']);
  });

  it.each([
    ['javascript:alert(1)', 'INVALID_URL'],
    ['data:text/html,hi', 'INVALID_URL'],
    ['not a url', 'INVALID_URL'],
    ['ftp://files.example.com/x', 'INVALID_URL'],
    ['http://', 'INVALID_URL'],
    ['https://:80/x', 'INVALID_URL'],
    ['http://1.2.3.999/', 'INVALID_URL'],
    ['https://exa mple.com', 'INVALID_URL'],
    [`https://example.com/${'a'.repeat(490)}`, 'STRING_TOO_LONG'],
  ])('refuses the link %s', async (link, code) => {
    const res = await create({ title: 'x', link });
    expect(res.statusCode).toBe(400);
    expect(details(res)).toEqual([`link:${code}`]);
  });

  it('strips tags from the link, keeps http(s) links and clears with null or ""', async () => {
    const item = (await create({ title: 'x', link: '<a>https://example.com/a?b=1&c=2</a>' })).json().data;
    expect(item.link).toBe('https://example.com/a?b=1&c=2');
    expect((await put(item.id, { link: '' })).json().data.link).toBeNull();
    await put(item.id, { link: 'http://example.com' });
    // Scheme case and extra slashes are what browsers accept too; IPv6 hosts count as hosts.
    for (const link of ['HTTPS://EXAMPLE.com/x', 'http:///example.com/x', 'http://[::1]:8080/'])
      expect((await put(item.id, { link })).json().data.link).toBe(link);
    expect((await put(item.id, { link: null })).json().data.link).toBeNull();
  });

  it.each([
    ['2025-03-01', '2025-03-01T00:00:00.000Z'],
    ['2025-03-01T10:20:30Z', '2025-03-01T10:20:30.000Z'],
    ['2025-03-01T10:20:30.5+02:00', '2025-03-01T08:20:30.500Z'],
    ['2025-03-01T10:20', '2025-03-01T10:20:00.000Z'],
  ])('normalises the due date %s', async (input, stored) => {
    const res = await create({ title: 'x', dueDate: input });
    expect(res.json().data.dueDate).toBe(stored);
  });

  it.each(['2025-02-30', 'tomorrow', '2025-13-01T00:00:00Z', '2025-01-01T25:00:00Z', '01/02/2025'])(
    'refuses the due date %s',
    async (dueDate) => {
      const res = await create({ title: 'x', dueDate });
      expect(details(res)).toEqual(['dueDate:INVALID_FORMAT']);
    },
  );

  it('reports every problem together, with types checked strictly', async () => {
    const res = await create({ title: 5, isCompleted: 'true', description: ['x'], dueDate: 'soon' });
    expect(details(res).sort()).toEqual([
      'description:INVALID_TYPE',
      'dueDate:INVALID_FORMAT',
      'isCompleted:INVALID_TYPE',
      'title:INVALID_TYPE',
    ]);
    expect(details(await create({}))).toEqual(['title:REQUIRED_FIELD']);
  });

  it('orders by due date ascending, undated last, then id; desc reverses', async () => {
    const a = (await create({ title: 'late', dueDate: '2025-05-01' })).json().data.id;
    const b = (await create({ title: 'none-1' })).json().data.id;
    const c = (await create({ title: 'early', dueDate: '2025-01-01' })).json().data.id;
    const d = (await create({ title: 'none-2' })).json().data.id;
    const e = (await create({ title: 'late-too', dueDate: '2025-05-01' })).json().data.id;
    const ids = async (url: string) =>
      (await t.api({ method: 'GET', url })).json().data.map((i: { id: number }) => i.id);
    expect(await ids('/api/to_do_list')).toEqual([c, a, e, b, d]);
    expect(await ids('/api/to_do_list?order=desc')).toEqual([d, b, e, a, c]);
    const bad = await t.api({ method: 'GET', url: '/api/to_do_list?order=sideways' });
    expect(details(bad)).toEqual(['order:INVALID_VALUE']);
  });

  it('updates only given fields; PUT without fields is EMPTY_BODY', async () => {
    const item = (await create({ title: 'x', description: 'keep', dueDate: '2025-01-01' })).json().data;
    const res = await put(item.id, { isCompleted: true });
    expect(res.json().data).toMatchObject({
      title: 'x',
      description: 'keep',
      dueDate: '2025-01-01T00:00:00.000Z',
      isCompleted: true,
    });
    const empty = await put(item.id, { createdAt: 'x' });
    expect(details(empty)).toEqual(['body:EMPTY_BODY']);
    expect((await put(item.id, { dueDate: null })).json().data.dueDate).toBeNull();
  });

  it('gets, deletes and answers 404 / 400 for ids', async () => {
    const item = (await create({ title: 'x' })).json().data;
    expect((await t.api({ method: 'GET', url: `/api/to_do_list/${item.id}` })).json().data.title).toBe('x');
    const del = await t.api({ method: 'DELETE', url: `/api/to_do_list/${item.id}` });
    expect(del.json()).toMatchObject({ success: true, message: expect.any(String) });
    expect((await t.api({ method: 'GET', url: `/api/to_do_list/${item.id}` })).statusCode).toBe(404);
    expect((await t.api({ method: 'DELETE', url: `/api/to_do_list/${item.id}` })).statusCode).toBe(404);
    expect((await put(item.id, { title: 'y' })).statusCode).toBe(404);
    expect(details(await t.api({ method: 'GET', url: '/api/to_do_list/x1' }))).toEqual(['id:INVALID_ID']);
  });

  it('deletes all completed items with ?completed=true and returns the count', async () => {
    await create({ title: 'done 1', isCompleted: true });
    await create({ title: 'done 2', isCompleted: true });
    const open = (await create({ title: 'open' })).json().data;
    const res = await t.api({ method: 'DELETE', url: '/api/to_do_list?completed=true' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ deleted: 2 });
    const left = (await t.api({ method: 'GET', url: '/api/to_do_list' })).json().data;
    expect(left.map((i: { id: number }) => i.id)).toEqual([open.id]);
    const missing = await t.api({ method: 'DELETE', url: '/api/to_do_list' });
    expect(details(missing)).toEqual(['completed:REQUIRED_FIELD']);
  });

  it('keeps Unicode and SQL-looking descriptions literally', async () => {
    const description = "'; DELETE FROM todos; -- ✓ café 🚀\n第二行";
    const item = (await create({ title: 'x', description })).json().data;
    expect((await t.api({ method: 'GET', url: `/api/to_do_list/${item.id}` })).json().data.description).toBe(
      description,
    );
  });

  it('paginates with bounds checked', async () => {
    for (let i = 0; i < 3; i++) await create({ title: `t${i}` });
    const page = await t.api({ method: 'GET', url: '/api/to_do_list?limit=1&offset=1' });
    expect(page.json().data).toHaveLength(1);
    expect(page.json().pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    const last = await t.api({ method: 'GET', url: '/api/to_do_list?offset=2' });
    expect(last.json().pagination).toEqual({ total: 3, limit: 50, offset: 2, hasMore: false });
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const res = await t.api({ method: 'GET', url: `/api/to_do_list?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.details[0].field).toBe(query.split('=')[0]);
    }
    expect((await t.api({ method: 'GET', url: '/api/to_do_list?limit=100' })).statusCode).toBe(200);
  });
});

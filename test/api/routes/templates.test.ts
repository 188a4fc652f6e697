import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, expectInvalid, json, type Harness } from '../../../src/test-support/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
});
afterEach(async () => {
  await h.close();
});

const create = (body: unknown) => h.call('POST', '/api/templates', body);
const valid = { name: 'Square lake', model: 'local/procedural', default_prompt: 'a lake in the mountains', parameters: { width: 256, height: 256 } };

describe('templates', () => {
  it('creates a template: 201 with an id', async () => {
    const res = await create(valid);
    expect(res.status).toBe(201);
    const template = await json(res);
    expect(template).toMatchObject({ ...valid, user_id: 'admin', is_sample: false });
    expect(template.id).toMatch(/^tmpl_/);
  });

  it('allows a template for a known model whose provider is not configured yet', async () => {
    const res = await create({ name: 'flux', model: '@cf/black-forest-labs/flux-1-schnell', default_prompt: 'a fox', parameters: { steps: 4 } });
    expect(res.status).toBe(201);
  });

  it.each([
    [{ ...valid, model: 'acme/none' }, 'Invalid model'],
    [{ ...valid, default_prompt: 'ab' }, 'Invalid prompt'],
    [{ ...valid, name: '' }, 'Invalid name'],
    [{ ...valid, parameters: { width: 99999 } }, 'Invalid parameters.width'],
    [{ ...valid, parameters: { colour: 'red' } }, 'Invalid colour'],
    [{ name: 'flux', model: '@cf/black-forest-labs/flux-1-schnell', default_prompt: 'a fox', parameters: { width: 512 } }, 'Invalid width'],
    [{ ...valid, user_id: 'system' }, 'Invalid user_id'],
  ])('refuses %j', async (body, error) => {
    await expectInvalid(await create(body), error);
  });

  it('lists your templates and the pre-loaded samples', async () => {
    await create(valid);
    const body = await json<{ templates: { user_id: string; is_sample: boolean }[]; pagination: { total: number } }>(await h.call('GET', '/api/templates'));
    expect(body.templates.filter((t) => t.user_id === 'system').length).toBeGreaterThanOrEqual(3);
    expect(body.templates.filter((t) => t.user_id === 'admin')).toHaveLength(1);
    expect(body.templates[0]?.is_sample).toBe(false);
    expect(body.pagination.total).toBe(body.templates.length);
  });

  it('gets, updates (partially) and deletes your template', async () => {
    const { id } = await json(await create(valid));
    expect((await h.call('GET', `/api/templates/${id}`)).status).toBe(200);

    h.clock.advance(5000);
    const updated = await h.call('PUT', `/api/templates/${id}`, { default_prompt: 'a lake at night' });
    expect(updated.status).toBe(200);
    expect(await json(updated)).toMatchObject({
      name: 'Square lake',
      default_prompt: 'a lake at night',
      parameters: { width: 256, height: 256 },
      updated_at: '2026-11-20T10:00:05.000Z',
    });

    expect((await h.call('PUT', `/api/templates/${id}`, { model: 'acme/none' })).status).toBe(400);
    expect((await json(await h.call('GET', `/api/templates/${id}`))).model).toBe('local/procedural');

    const deleted = await h.call('DELETE', `/api/templates/${id}`);
    expect(deleted.status).toBe(200);
    expect((await h.call('GET', `/api/templates/${id}`)).status).toBe(404);
  });

  it('reads a sample but refuses to change or delete it (403)', async () => {
    const sample = await h.call('GET', '/api/templates/tmpl_sample_sunset_coast');
    expect(sample.status).toBe(200);
    expect(await json(sample)).toMatchObject({ user_id: 'system', is_sample: true });

    for (const res of [
      await h.call('PUT', '/api/templates/tmpl_sample_sunset_coast', { name: 'mine now' }),
      await h.call('DELETE', '/api/templates/tmpl_sample_sunset_coast'),
    ]) {
      expect(res.status).toBe(403);
      expect(await json(res)).toMatchObject({ error: 'Sample templates are read-only', code: 'FORBIDDEN' });
    }
    expect((await json(await h.call('GET', '/api/templates/tmpl_sample_sunset_coast'))).name).toBe('Sunset coast');
  });

  it('answers an unknown template with 404', async () => {
    const res = await h.call('GET', '/api/templates/tmpl_missing');
    expect(res.status).toBe(404);
    expect(await json(res)).toMatchObject({ error: 'Template not found', details: { template_id: 'tmpl_missing' } });
  });
});

import { parseArgs } from 'node:util';
import type { Config } from '../../../../config/config.js';
import { describeDatabase } from '../../database.js';
import { ApiError } from '../../../../domain/errors.js';
import { ADMIN_USER_ID } from '../../../../domain/keys/bootstrap-admin-key.js';
import type { ApiKeyRecord } from '../../../../domain/keys/key-record.js';
import { createKey, listKeys, revokeKey } from '../../../../domain/keys/key-verbs.js';
import { PERMISSIONS, type Principal } from '../../../../domain/keys/principal.js';
import { CreateApiKeySchema } from '../../../../http/routes/keys/schemas.js';
import { describeIssue, fieldName } from '../../../../domain/validation-messages.js';
import { openCliRuntime } from './cli-database.js';
import type { CliIo } from './cli-io.js';

export const KEYS_USAGE = `Usage:
  imagegate keys create --name <name> --permissions <generate,read,manage> [--plan standard|pro|enterprise]
                        [--rate-limit <per minute>] [--expires-at <ISO time>] [--user <user_id>] [--json]
  imagegate keys list [--user <user_id> | --all] [--json]
  imagegate keys revoke <key_id>

Works on the database in DATA_DIR (default ./data), also while the server runs.`;

/** Whoever can run this on the server's data directory is the operator: the CLI acts with admin rights. */
const OPERATOR: Principal = { userId: ADMIN_USER_ID, permissions: new Set(PERMISSIONS), isAdmin: true };

export async function keysCommand(config: Config, argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      permissions: { type: 'string' },
      plan: { type: 'string' },
      'rate-limit': { type: 'string' },
      'expires-at': { type: 'string' },
      user: { type: 'string' },
      all: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const [action, target] = positionals;
  // A usage error must not create a database as a side effect.
  if (!(action === 'create' || action === 'list' || (action === 'revoke' && target !== undefined))) {
    io.err(KEYS_USAGE);
    return 2;
  }
  const runtime = await openCliRuntime(config, io);
  if (runtime.createdEmpty) io.err(`warning: ${describeDatabase(config)} did not exist and was just created empty; set DATA_DIR to the server's data folder`);
  const { deps } = runtime;
  try {
    if (action === 'create') {
      // The same schema as POST /api/keys, so the CLI and the API accept exactly the same keys.
      const parsed = CreateApiKeySchema.safeParse({
        name: values.name,
        permissions: values.permissions
          ?.split(',')
          .map((p) => p.trim())
          .filter((p) => p !== ''),
        plan: values.plan,
        rate_limit: values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']),
        expires_at: values['expires-at'],
        user_id: values.user,
      });
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `  ${asFlagMessage(issue.path, issue.message)}`);
        io.err(`imagegate keys create:\n${problems.join('\n')}\n\n${KEYS_USAGE}`);
        return 2;
      }
      const created = await createKey({ deps, caller: OPERATOR, input: parsed.data });
      if (values.json === true) io.out(JSON.stringify(created));
      else
        io.out(
          `${created.key}\n\nCreated ${created.id} "${created.name}" for user ${created.user_id}: ${created.permissions.join(', ')}, ${created.plan} (${created.rate_limit}/min). The key above is shown once; store it now.`,
        );
      return 0;
    }
    if (action === 'list') {
      const { keys } = await listKeys({
        deps,
        caller: OPERATOR,
        input: { limit: 100, offset: 0, user_id: values.all === true ? '*' : (values.user ?? ADMIN_USER_ID) },
      });
      io.out(values.json === true ? JSON.stringify(keys) : formatKeys(keys));
      return 0;
    }
    if (action === 'revoke' && target !== undefined) {
      const result = await revokeKey({ deps, caller: OPERATOR, input: { keyId: target } });
      io.out(values.json === true ? JSON.stringify(result) : `Revoked ${result.id} at ${result.revoked_at}.`);
      return 0;
    }
    io.err(KEYS_USAGE);
    return 2;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const details = typeof error.details === 'object' && typeof error.details.message === 'string' ? `: ${error.details.message}` : '';
    io.err(`imagegate keys: ${error.message}${details}`);
    return 1;
  } finally {
    await runtime.close();
  }
}

/** `permissions is required: ...` as the command line says it: `--permissions is required: ...`. */
function asFlagMessage(path: readonly PropertyKey[], message: string): string {
  const field = fieldName(path);
  const flag = `--${String(path[0] ?? '').replaceAll('_', '-')}`;
  const sentence = describeIssue(field, message);
  return sentence.startsWith(field) ? `${flag}${sentence.slice(field.length)}` : sentence;
}

function formatKeys(keys: ApiKeyRecord[]): string {
  if (keys.length === 0) return 'No keys.';
  const rows = keys.map((k) => [
    k.id,
    k.prefix,
    k.name,
    k.user_id,
    k.permissions.join(','),
    `${k.plan} ${k.rate_limit}/min`,
    k.status,
    k.last_used_at ?? 'never',
  ]);
  const header = ['ID', 'PREFIX', 'NAME', 'USER', 'PERMISSIONS', 'PLAN', 'STATUS', 'LAST USED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => (cell ?? '').padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

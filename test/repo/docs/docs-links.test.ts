import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README is the front door and docs/ the manual: the README stays short, names every page, and no relative link
 * in the documentation points at a file or a heading that is not there (pages move; links are not checked by hand).
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const README = 'README.md';
const MAX_README_LINES = 250;

const docsPages = (): string[] =>
  fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .sort();

/** Every Markdown file whose links are checked, relative to the repository. */
const checkedFiles = (): string[] => [README, 'CONTRIBUTING.md', 'CHANGELOG.md', 'bench/README.md', ...docsPages()].filter((file) => fs.existsSync(path.join(ROOT, file)));

const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The text outside fenced code blocks and inline code, where a `[x](y)` is a link and not an example. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of `[text](target)` and `![alt](target)` links, titles left out. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (match[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** What is wrong with one relative link of `file`, or undefined when it reaches an existing file (and heading). */
function brokenLink(file: string, target: string): string | undefined {
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
  if (resolved.startsWith('..')) return `${file}: ${target} leaves the repository`;
  const absolute = path.join(ROOT, resolved);
  if (!fs.existsSync(absolute)) return `${file}: ${target} points at ${resolved}, which does not exist`;
  if (anchor === undefined || anchor === '' || !resolved.endsWith('.md')) return undefined;
  return anchorsOf(read(resolved)).has(anchor) ? undefined : `${file}: ${target} names a heading ${resolved} does not have`;
}

describe('the README and the documentation pages', () => {
  it(`keeps the README at ${MAX_README_LINES} lines or fewer`, () => {
    const lines = read(README).split('\n').length;
    expect(lines, `README.md has ${lines} lines; move the detail into a page under docs/`).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('links every page under docs/ from the README', () => {
    const linked = new Set(linkTargets(read(README)).map((target) => target.split('#')[0]));
    const pages = docsPages();
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });

  it('points every relative link at a file and heading that exist', () => {
    const files = checkedFiles();
    expect(files).toEqual(expect.arrayContaining([README, 'CONTRIBUTING.md', 'bench/README.md']));
    const broken = files.flatMap((file) => linkTargets(read(file)).filter((target) => !isExternal(target)).flatMap((target) => brokenLink(file, target) ?? []));
    expect(broken).toEqual([]);
  });

  it('finds a broken link, a link to a missing heading, and a link in prose but not in code', () => {
    expect(linkTargets('See [a](docs/a.md#x), ![b](shot.png "title"), `[c](d.md)` and\n```md\n[e](f.md)\n```\n')).toEqual(['docs/a.md#x', 'shot.png']);
    expect(brokenLink(README, 'docs/no-such-page.md')).toContain('does not exist');
    expect(brokenLink(README, 'docs/getting-started.md#no-such-heading')).toContain('does not have');
    expect(brokenLink(README, 'docs/getting-started.md#walk-through-curl')).toBeUndefined();
    expect(anchorsOf('# Deployment: PostgreSQL, S3 and Redis\n## Notes\n## Notes\n')).toEqual(new Set(['deployment-postgresql-s3-and-redis', 'notes', 'notes-1']));
  });
});

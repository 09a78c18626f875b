// Every relative link in the README and docs/*.md reaches a file that exists and, when it names a
// heading (`operations.md#capacity`), a heading of that file. The runbook, the benchmark history
// and the decisions are split across files and sections that others append to: a moved section
// fails here instead of leaving a dead link.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCUMENTS = [
  'README.md',
  'lib/README.md',
  ...fs
    .readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].filter((file) => fs.existsSync(file));

/** The text outside fenced code blocks and inline code, where links and headings are written. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, (code) => code.replace(/[[\]()]/g, ' '));
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped (but '-' and '_'), spaces to '-'. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/`/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

const anchorsByFile = new Map<string, Set<string>>();

/** Every anchor a file's headings give, with GitHub's -1, -2 for repeated ones. */
function anchorsOf(file: string): Set<string> {
  const known = anchorsByFile.get(file);
  if (known) return known;
  const markdown = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(heading!);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  anchorsByFile.set(file, anchors);
  return anchors;
}

/** The relative links of a document: [text](target) with no scheme. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(fs.readFileSync(file, 'utf8')).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
    links.push(target!);
  }
  return links;
}

describe('the links between the documents', () => {
  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Public status page (`/estado`, `GET /api/estado`)')).toBe('public-status-page-estado-get-apiestado');
    expect(githubSlug("Within 2× of the bare handler (issue 31, stop 46)")).toBe('within-2-of-the-bare-handler-issue-31-stop-46');
    expect(githubSlug('Datos personales: ¿Quién consultó?')).toBe('datos-personales-quién-consultó');
    expect(githubSlug('`npm run bench:console`: the console')).toBe('npm-run-benchconsole-the-console');
  });

  it.each(DOCUMENTS)('%s: every relative link reaches an existing file and heading', (file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(file)) {
      const [target, anchor] = link.split('#', 2) as [string, string | undefined];
      const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(target)));
      if (!fs.existsSync(resolved)) {
        broken.push(`${link}: no file ${resolved}`);
        continue;
      }
      if (anchor === undefined || anchor === '' || !resolved.endsWith('.md')) continue;
      if (!anchorsOf(resolved).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${link}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });
});

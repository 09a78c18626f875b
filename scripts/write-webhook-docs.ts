// npm run docs:webhook: writes the webhook section of docs/integrators.md (between its markers)
// from lib/reactions/integrator-notifications/webhook-docs.ts: the events and their example bodies, the
// headers, the retries with the default settings, the signature and the receivers, as /docs shows
// them. tests/examples/webhook-docs.test.ts fails until it is run after a change there.
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from '@/lib/root/settings';
import { webhookDocsSettingsFrom } from '@/lib/reactions/integrator-notifications/webhook-docs';
import { webhookMarkdown, withWebhookSection } from '@/lib/reactions/integrator-notifications/webhook-markdown';

export const INTEGRATORS_GUIDE = path.resolve('docs/integrators.md');

/** The guide as it should be: its text, with the webhook section written from the code and the default settings. */
export function currentGuide(): string {
  return withWebhookSection(fs.readFileSync(INTEGRATORS_GUIDE, 'utf8'), webhookMarkdown(webhookDocsSettingsFrom(parseEnv({}))));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(INTEGRATORS_GUIDE, currentGuide());
  console.log(`webhook section written to ${path.relative(process.cwd(), INTEGRATORS_GUIDE)}`);
}

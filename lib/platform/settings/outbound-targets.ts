import { defineSettings } from './fragment';
import { flag } from './values';

// The setting of the policy for addresses integrators choose (lib/platform/security/outbound-targets.ts):
// their webhooks, their identity providers. Declared here, so that any rung reads it; the
// integrator notifications' fragment declares it too, with this same schema, line and rule, since
// docs/operations.md lists it in their table (lib/root/settings.ts names that fragment, not this one).

export const OUTBOUND_TARGET_SHAPE = {
  INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: flag(false),
};

export const OUTBOUND_TARGET_DOCS = {
  INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: 'Lets integrator webhooks use http:// and private, loopback and link-local addresses (local receivers in development and tests); production refuses it.',
} as const;

/** Production's rule: the targets integrators choose are public https:// addresses only. */
export function outboundTargetSettingsProblem(settings: { INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS: boolean }, appEnv: string): { path: string[]; message: string } | undefined {
  if (appEnv === 'production' && settings.INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS) {
    return { path: ['INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS'], message: 'must be false in production: integrator webhooks go only to public https:// addresses' };
  }
  return undefined;
}

export const OUTBOUND_TARGET_SETTINGS = defineSettings({
  title: 'Addresses integrators choose (lib/platform/security/outbound-targets.ts)',
  shape: OUTBOUND_TARGET_SHAPE,
  docs: OUTBOUND_TARGET_DOCS,
  refine: (settings, ctx, appEnv) => {
    const problem = outboundTargetSettingsProblem(settings, appEnv);
    if (problem) ctx.addIssue({ code: 'custom', ...problem });
  },
});

/** The process's policy (a TargetPolicy of lib/platform/security/outbound-targets.ts) for the addresses integrators choose. */
export function outboundTargetPolicy(): { allowLocalTargets: boolean } {
  return { allowLocalTargets: OUTBOUND_TARGET_SETTINGS.current().INTEGRATOR_WEBHOOK_ALLOW_LOCAL_TARGETS };
}

// The environment `npm run dev` gives its simulator: the simulated Recurrente sends its webhooks to
// the app started beside it (PORT, 3000 by default), so online payments settle in development as
// they do in production; its identity provider knows the console's development client at the
// addresses a browser reaches the app by (docs/sso.md). An address set by hand wins.
export function developmentSimulatorEnv<Source extends Record<string, string | undefined>>(
  source: Source,
): Source & { SIMULATOR_RECURRENTE_WEBHOOK_URL: string; SIMULATOR_OIDC_APP_URLS: string } {
  const port = source.PORT || '3000';
  const webhookUrl = source.SIMULATOR_RECURRENTE_WEBHOOK_URL || `http://127.0.0.1:${port}/api/pagos/recurrente`;
  const appUrls = source.SIMULATOR_OIDC_APP_URLS || source.NEXTAUTH_URL || `http://localhost:${port},http://127.0.0.1:${port}`;
  return { ...source, SIMULATOR_RECURRENTE_WEBHOOK_URL: webhookUrl, SIMULATOR_OIDC_APP_URLS: appUrls };
}

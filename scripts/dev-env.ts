// The environment `npm run dev` gives its simulator: the simulated Recurrente sends its webhooks to
// the app started beside it (PORT, 3000 by default), so online payments settle in development as
// they do in production. An address set by hand wins.
export function developmentSimulatorEnv<Source extends Record<string, string | undefined>>(source: Source): Source & { SIMULATOR_RECURRENTE_WEBHOOK_URL: string } {
  const webhookUrl = source.SIMULATOR_RECURRENTE_WEBHOOK_URL || `http://127.0.0.1:${source.PORT || '3000'}/api/pagos/recurrente`;
  return { ...source, SIMULATOR_RECURRENTE_WEBHOOK_URL: webhookUrl };
}
